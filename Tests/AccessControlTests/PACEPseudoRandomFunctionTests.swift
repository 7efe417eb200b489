import ICAO
import Secrets
import TestSupport
import Testing

@testable import AccessControl

/// R(s, t) for the ciphers App. H does not cover. The expected values were computed independently
/// (Python's `cryptography`, the same construction checked against H.1 first): 3DES with a 16-byte
/// key and the 128-bit constants, AES-192 with its key cut to 24 bytes and AES-256 with the 256-bit
/// constants; a 256-bit prime each. A nonce s of one AES block under AES-192/256 (as chips in the
/// field draw it) takes the 128-bit constants, and each derived key is E's 16-byte output keying
/// AES-128 (Python's `cryptography`, `AES(key[:k])` over the same construction).
@Suite struct PACEPseudoRandomFunctionTests {
    static let s = hex("2923BE84E16CD6AE529049F1F1BBE9EB")
    static let t = hex("5DD4CBFC96F5453B130D890A1CDBAE32")

    static func output(_ cipher: BlockCipher, s: [UInt8], t: [UInt8]) throws -> [UInt8] {
        try PACEPseudoRandomFunction.output(
            chipNonce: SecretBytes(s), terminalNonce: SecretBytes(t), cipher: cipher, primeBits: 256
        ).withUnsafeBytes { Array($0) }
    }

    @Test func tripleDES() throws {
        #expect(
            try Self.output(.tripleDES, s: Self.s, t: Self.t)
                == hex(
                    "2874261BB21C22ECDFA1CEBF63F69060C204ABCC9E94EC2B0888D9C8B40B55B3"
                        + "5FE0EF0992B93003251A396EC54E316D"))
    }

    @Test func aes192() throws {
        #expect(
            try Self.output(.aes192, s: Self.s + Self.t, t: Array((Self.t + Self.s).prefix(24)))
                == hex(
                    "31890930ED43AF37F5136D040031797228EFF3B69CE8B484BF87269C40B19B1C"
                        + "519213D6FECE3144F96F612247274885D2D9DB86B667AD10F20D6109D5679F66"))
    }

    @Test func aes256() throws {
        #expect(
            try Self.output(.aes256, s: Self.s + Self.t, t: Self.t + Self.s)
                == hex(
                    "5FB6DC6625EDA00B5B70064256884A1CE67597C2A05A87AFC9D95206073196F5"
                        + "F4B47877FC93F566AF9600E773B85987708571793E7AA15E07B9303DA7184E8B"))
    }

    @Test func aes192WithOneBlockNonce() throws {
        #expect(
            try Self.output(.aes192, s: Self.s, t: Array((Self.t + Self.s).prefix(24)))
                == hex(
                    "64653B87A1BC5D7CA602500BFABDA068C5E827538500C2CCA2A11C014C1FC99D"
                        + "0BBC4E49F602642D6E046AEE3A2FFA8C"))
    }

    @Test func aes256WithOneBlockNonce() throws {
        #expect(
            try Self.output(.aes256, s: Self.s, t: Self.t + Self.s)
                == hex(
                    "C5582CBDFDF0402D847E37E64FC453D877A0F9FF071EA3F1DBD89F114351694B"
                        + "30A0A09F27D6273C63481274761E1610"))
    }

    /// 9303-11 defines c0 and c1 for 128- and 256-bit nonces only.
    @Test func refusesOtherNonceLengths() {
        #expect(throws: AccessControlError.self) { try Self.output(.tripleDES, s: Array(Self.s.prefix(8)), t: Self.t) }
        #expect(throws: AccessControlError.self) {
            try Self.output(.aes256, s: Self.s + Self.s + Self.s, t: Self.t + Self.s)
        }
    }
}
