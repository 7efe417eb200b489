import ICAO
import TestSupport
import Testing

@testable import CryptoPrimitives

struct MessageAuthenticationTests {
    static let rfc4493Key = hex("2b7e151628aed2a6abf7158809cf4f3c")
    static let rfc4493Message = hex(
        "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710"
    )

    /// RFC 4493 §4 (= NIST SP 800-38B D.1, AES-128): lengths 0, 16, 40, 64.
    @Test(arguments: [
        (0, "bb1d6929e95937287fa37d129b756746"),
        (16, "070a16b46b4d4144f79bdd9dd04a287c"),
        (40, "dfa66747de9ae63030ca32611497c827"),
        (64, "51f0bebf7e3b9d92fc49741779363cfe"),
    ])
    func aesCMACKnownAnswer(length: Int, expected: String) throws {
        let key = try SymmetricKey(.aes128, bytes: Self.rfc4493Key)
        let message = Self.rfc4493Message.prefix(length)
        #expect(try key.cmac(message) == hex(expected))
        #expect(try key.cmac(message, truncatedTo: 8) == Array(hex(expected).prefix(8)))
    }

    /// NIST SP 800-38B D.2/D.3 (AES-192 and AES-256, 16-byte message).
    @Test(arguments: [
        (
            BlockCipher.aes192, "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
            "9e99a7bf31e710900662f65e617c5184"
        ),
        (
            .aes256, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
            "28a7023f452e8f82bd4bf28d8c37c35c"
        ),
    ])
    func aesCMACWithLongerKeys(cipher: BlockCipher, key: String, expected: String) throws {
        let key = try SymmetricKey(cipher, bytes: hex(key))
        #expect(try key.cmac(Self.rfc4493Message.prefix(16)) == hex(expected))
    }

    /// ICAO 9303-11 App. D.3: M_IFD = MAC(K_MAC, E_IFD), and the chip's M_IC over its cryptogram.
    @Test func retailMACKnownAnswers() throws {
        let kMAC = try SymmetricKey(.tripleDES, bytes: hex("7962D9ECE03D1ACD4C76089DCE131543"))
        let eIFD = hex("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2")
        #expect(try kMAC.retailMAC(eIFD) == hex("5F1448EEA8AD90A7"))
        let eIC = hex("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F")
        #expect(try kMAC.retailMAC(eIC) == hex("2F2D235D074D7449"))
    }

    /// ICAO 9303-11 App. D.4: the SM command MAC over SSC || padded header || DO'87'
    /// (one padded block after the first, so the single-block and multi-block paths both run).
    @Test func retailMACOverSecureMessagingInput() throws {
        let ksMAC = try SymmetricKey(.tripleDES, bytes: hex("F1CB1F1FB5ADF208806B89DC579DC1F8"))
        let macInput = hex("887022120C06C227 0CA4020C80000000 8709016375432908C044F6")
        #expect(try ksMAC.retailMAC(macInput) == hex("BF8B92D635FF24F8"))
        #expect(try ksMAC.retailMAC(hex("887022120C06C228 99029000")) == hex("FA855A5D4C50A8ED"))
    }

    @Test func macsRefuseTheWrongKindOfKey() throws {
        let aes = try SymmetricKey(.aes128, bytes: Self.rfc4493Key)
        #expect { try aes.retailMAC([1, 2, 3]) } throws: { ($0 as? CryptoError)?.code == .invalidParameter }
        #expect { try aes.cmac([1], truncatedTo: 17) } throws: { ($0 as? CryptoError)?.code == .invalidParameter }
    }

    /// The secure messaging MAC over a message in pieces equals the MAC of the whole padded
    /// message computed another way: AES-CMAC of the padded bytes, or for 3DES the retail MAC
    /// rebuilt from CBC and ECB (single DES under (K1, K1), then one EDE block), whatever the
    /// lengths and however the message is cut (pieces shorter than a block, empty ones, long ones).
    /// `paddedMAC` builds both from a CBC chain of its own, so OpenSSL's CMAC is the independent
    /// check for AES, over many messages in a row under one key (the chain's context is reused).
    @Test(arguments: [BlockCipher.tripleDES, .aes128, .aes192, .aes256])
    func paddedMACOverPiecesMatchesTheWholeMessage(cipher: BlockCipher) throws {
        let key = try SymmetricKey(
            cipher, bytes: (0..<cipher.keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let pieceLengths = [1, 3, 0, 8, 13, 2, 300, 5, 16, 7]
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 64, 255, 600] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 101 &+ length) }
            let padded = ISO7816Padding.pad(message, blockSize: cipher.blockSize)
            let expected: [UInt8]
            if cipher == .tripleDES {
                let firstHalf = try SymmetricKey(
                    .tripleDES, bytes: key.secret.withUnsafeBytes { Array($0.prefix(8)) + Array($0.prefix(8)) })
                let chain = try firstHalf.encryptCBC(padded.dropLast(8), iv: [UInt8](repeating: 0, count: 8))
                let previous = chain.isEmpty ? [UInt8](repeating: 0, count: 8) : Array(chain.suffix(8))
                expected = try key.encryptECB(zip(padded.suffix(8), previous).map { $0 ^ $1 })
                #expect(try key.retailMAC(message) == expected)
            } else {
                expected = Array(try key.cmac(padded).prefix(8))
            }
            for shift in 0..<3 {
                var mac = [UInt8](repeating: 0, count: 8)
                try message.withUnsafeBytes { bytes in
                    try mac.withUnsafeMutableBytes { output in
                        try key.paddedMAC(into: output) { update in
                            var offset = 0
                            var piece = shift
                            while offset < bytes.count {
                                let take = min(pieceLengths[piece % pieceLengths.count], bytes.count - offset)
                                update(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
                                offset += take
                                piece += 1
                            }
                        }
                    }
                }
                #expect(mac == expected, "\(cipher), \(length) bytes, cut from piece \(shift)")
            }
        }
    }
}
