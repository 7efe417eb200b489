import ASN1
import Arithmetic
import COpenSSL
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// Active Authentication on the chip's side (9303-11 §6.1): ICAO App. F's representative and the
/// ISO/IEC 9796-2 examples byte for byte, every trailer and modulus size, ECDSA on every curve in
/// both encodings, the status words and the fault that signs another challenge. The checks are
/// the terminal's, written here from the standards: recover F = s^e mod n and take it apart.
@Suite struct ActiveAuthenticationTests {
    /// ICAO 9303-11 App. F: RND.IFD (M2), the chip's M1 and the representative F (SHA-1, BC,
    /// k = 1024). The example gives no key, so any 1024-bit key signs; F = s^e mod n must be its F.
    static let appendixFChallenge = hex("F173589974BF40C6")
    static let appendixFM1 = hex(
        "9D2784A67F8E7C659973EA1AEA25D95B6C8F91E5002F369F0FBDCE8A3CEC1991B543F1696546C5524CF23A5303CD6C98599F40B79F377B5F3A1406B3B4D8F96784D23AA88DB7E1032A405E69325FA91A6E86F5C71AEA978264C4A207446DAD4E7292E2DCDA3024B47DA8"
    )
    static let appendixFRepresentative = hex(
        "6A9D2784A67F8E7C659973EA1AEA25D95B6C8F91E5002F369F0FBDCE8A3CEC1991B543F1696546C5524CF23A5303CD6C98599F40B79F377B5F3A1406B3B4D8F96784D23AA88DB7E1032A405E69325FA91A6E86F5C71AEA978264C4A207446DAD4E7292E2DCDA3024B47DA8C063AA1E6D22FBD976AB0FE73D94D2D9C6D88127BC"
    )

    /// ISO/IEC 9796-2 (edition 1) examples as bc-java carries them: a 640-bit key with e = 3.
    static let isoModulus = hex(
        "FFFFFFFF78F6C55506C59785E871211EE120B0B5DD644AA796D82413A47B24573F1BE5745B5CD9950F6B389B52350D4E01E90009669A8720BF265A2865994190A661DEA3C7828E2E7CA1B19651ADC2D5"
    )
    static let isoPrivateExponent = hex(
        "2AAAAAAA942920E38120EE965168302FD0301D73A4E60C7143CEB0ADF0BF30B9352F50E8B9E4CEEDD65343B2179005B2F099915E4B0C37E41314BB0821AD8330D23CBA7F589E0F129B04C46B67DFCE9D"
    )

    static let rsa1024 = Result { try RSAKeyPair.generate(bits: 1024) }

    static func internalAuthenticate(_ challenge: [UInt8], p1: UInt8 = 0) -> CommandAPDU {
        CommandAPDU(ins: 0x88, p1: p1, p2: 0, data: challenge, expectedLength: 65536)
    }

    /// F = s^e mod n, the terminal's side of the RSA check.
    static func recover(_ signature: [UInt8], _ key: RSAKeyPair) throws -> [UInt8] {
        let publicKey = try RSAPublicKey(subjectPublicKeyInfo: try key.subjectPublicKeyInfo())
        return try publicKey.rawPublicOperation(signature)
    }

    /// The terminal's ISO/IEC 9796-2 check: header 6A, trailer, and H(M1 ‖ challenge).
    static func verifies(_ representative: [UInt8], challenge: [UInt8], trailer: ISO9796Trailer) -> Bool {
        let trailerBytes: [UInt8] =
            switch trailer {
            case .implicit: [0xBC]
            case .explicit(let hash):
                [[HashAlgorithm.sha1: 0x33, .sha224: 0x38, .sha256: 0x34, .sha384: 0x36, .sha512: 0x35][hash]!, 0xCC]
            }
        let digestLength = trailer.hash.digestLength
        guard representative.first == 0x6A, representative.suffix(trailerBytes.count) == trailerBytes[...] else {
            return false
        }
        let body = representative.dropFirst().dropLast(trailerBytes.count)
        let m1 = body.dropLast(digestLength)
        return Array(body.suffix(digestLength)) == trailer.hash.hash(Array(m1) + challenge)
    }

    /// App. F: the chip's M1 injected through its random source; the recovered F is the example's.
    @Test func appendixF() throws {
        let key = try Self.rsa1024.get()
        var handler = ActiveAuthenticationHandler(
            key: try .rsa(key, trailer: .implicit), signsOtherChallenge: false)
        let context = ProtocolContext(
            random: .replaying(Self.appendixFM1), secureMessaging: .tripleDES, isChained: false)
        let answer = handler.handle(Self.internalAuthenticate(Self.appendixFChallenge), context: context)
        #expect(answer.response.statusWord == .success)
        #expect(answer.response.data.count == 128)
        #expect(try Self.recover(answer.response.data, key) == Self.appendixFRepresentative)
    }

    /// ISO/IEC 9796-2 example 2 (partial recovery, RIPEMD-160, BC) signed byte for byte by the
    /// chip's scheme-1 signer, and example 1's representative (full recovery, RIPEMD-128, 32CC:
    /// not a form Active Authentication uses) through the chip's RSA private operation.
    @Test func iso9796Examples() throws {
        let key = try RSAKeyPair(
            modulus: Self.isoModulus, publicExponent: [3], privateExponent: Self.isoPrivateExponent)
        let message = hex(
            "FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210"
        )
        let m1 = hex(
            "FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDC"
        )
        #expect(Array(message.prefix(m1.count)) == m1)
        let digest = try #require(Self.ripemd160(message))
        #expect(digest == hex("71DF2F2C3FFF1E35DF6920B45115FAC5998BA88E"))
        let signature = try ActiveAuthenticationKey.iso9796Signature(
            key, recoverable: m1, digest: digest, trailer: [0xBC])
        #expect(
            signature
                == hex(
                    "5CF9A01854DBACAEC83AAE8EFC563D74538192E95466BABACD361D7C86000FE42DCB4581E48E4FEB862D04698DA9203B1803B262105104D510B365EE9C660857BA1C001AA57ABFD1C8DE92E47C275CAE"
                ))
        let fullRecovery = hex(
            "4BBBBBBBBBBA6162636462636465636465666465666765666768666768696768696A68696A6B696A6B6C6A6B6C6D6B6C6D6E6C6D6E6F6D6E6F706E6F7071A1AA0689D0FAFA2DDC22E88B49133A0632CC"
        )
        #expect(
            try key.privateOperation(BigInt(bytes: fullRecovery)).bytes(length: 80)
                == hex(
                    "374695B7EE8B273925B4656CC2E008D41463996534AA5AA5AFE72A52FFD84E118085F8558F36631471D043AD342DE268B94B080BEE18A068C10965F581E7F32899AD378835477064ABED8EF3BD530FCE"
                ))
    }

    /// RIPEMD-160 through libcrypto (the example's hash; no ICAO protocol uses it).
    static func ripemd160(_ message: [UInt8]) -> [UInt8]? {
        guard let digest = EVP_MD_fetch(nil, "RIPEMD160", nil) else {
            ERR_clear_error()
            return nil
        }
        defer { EVP_MD_free(digest) }
        var output = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        guard EVP_Digest(message, message.count, &output, &length, digest, nil) == 1, length == 20 else { return nil }
        return output
    }

    static let trailers: [ISO9796Trailer] = [.implicit] + HashAlgorithm.allCases.map { .explicit($0) }

    /// Every trailer on a 1024-bit key, and the modulus sizes 1536, 1792, 2048, 3072 and 4096 with
    /// SHA-256, over APDUs under PACE's secure messaging (extended Le).
    @Test(
        arguments: trailers.map { (1024, $0) }
            + [1536, 1792, 2048, 3072, 4096].map { ($0, ISO9796Trailer.explicit(.sha256)) })
    func rsaOverAPDUs(_ bits: Int, _ trailer: ISO9796Trailer) throws {
        let key = bits == 1024 ? try Self.rsa1024.get() : try RSAKeyPair.generate(bits: bits)
        var terminal = try ProtectedTerminal.open(activeAuthenticationKey: try .rsa(key, trailer: trailer))
        let challenge = try RandomSource.system.bytes(count: 8).withUnsafeBytes { Array($0) }
        let answer = try terminal.send(Self.internalAuthenticate(challenge))
        #expect(answer.statusWord == .success && answer.data.count == bits / 8)
        #expect(Self.verifies(try Self.recover(answer.data, key), challenge: challenge, trailer: trailer))
        #expect(try terminal.readsCOM())
    }

    static let curves = StandardizedDomainParameters.allCases.filter { $0.keyAgreement == .ecdh }

    /// ECDSA on every standardized curve, plain r‖s and DER, checked by ECDSA verification.
    @Test(arguments: curves)
    func ecdsaOnEveryCurve(_ parameters: StandardizedDomainParameters) throws {
        let curve = try #require(parameters.curve)
        let pair = try KeyAgreementKeyPair.generate(on: parameters)
        for (hash, encoding) in [(HashAlgorithm.sha256, ECDSASignatureFormat.plain), (.sha384, .der), (.sha1, .plain)] {
            var terminal = try ProtectedTerminal.open(
                activeAuthenticationKey: try .ecdsa(pair, hash: hash, encoding: encoding))
            let challenge = try RandomSource.system.bytes(count: 8).withUnsafeBytes { Array($0) }
            let answer = try terminal.send(Self.internalAuthenticate(challenge))
            #expect(answer.statusWord == .success)
            if encoding == .plain { #expect(answer.data.count == 2 * curve.orderLength) }
            #expect(
                try ECDSA.verify(
                    publicKey: pair.publicKey, digest: hash.hash(challenge), signature: answer.data, format: encoding,
                    curve: curve), "\(parameters.name) \(hash) \(encoding)")
        }
    }

    @Test func statusWords() throws {
        let key = try Self.rsa1024.get()
        var terminal = try ProtectedTerminal.open(activeAuthenticationKey: try .rsa(key, trailer: .implicit))
        #expect(try terminal.send(Self.internalAuthenticate([1, 2, 3, 4, 5, 6, 7])).statusWord == .wrongLength)
        #expect(
            try terminal.send(Self.internalAuthenticate(Array(repeating: 1, count: 8), p1: 1)).statusWord
                == .incorrectParameters)
        #expect(try terminal.readsCOM())
        // Without secure messaging (a plain command also ends the session).
        #expect(
            try terminal.chip.transmit(Self.internalAuthenticate(Array(repeating: 1, count: 8))).statusWord
                == .securityStatusNotSatisfied)
        // RSA-2048 under secure messaging does not fit a short Le.
        var large = try ProtectedTerminal.open(
            activeAuthenticationKey: try .rsa(try RSAKeyPair.generate(bits: 2048), trailer: .implicit))
        let short = try large.session.wrap(
            CommandAPDU(ins: 0x88, p1: 0, p2: 0, data: Array(repeating: 1, count: 8), expectedLength: 256))
        #expect(short.expectedLength == 256)
        #expect(try large.session.unwrap(try large.chip.transmit(short)).statusWord == .wrongLength)
        // Keys the scheme cannot use.
        #expect(throws: ChipSimulatorError.self) {
            try ActiveAuthenticationKey.ecdsa(try KeyAgreementKeyPair.generate(on: .modp1024Subgroup160))
        }
    }

    /// The `activeAuthenticationOverOtherChallenge` fault: the signature is over another challenge.
    @Test func signatureOverAnotherChallenge() throws {
        let key = try Self.rsa1024.get()
        var terminal = try ProtectedTerminal.open(
            activeAuthenticationKey: try .rsa(key, trailer: .explicit(.sha256)),
            faults: [.activeAuthenticationOverOtherChallenge])
        let challenge = hex("0102030405060708")
        let answer = try terminal.send(Self.internalAuthenticate(challenge))
        #expect(answer.statusWord == .success)
        let representative = try Self.recover(answer.data, key)
        #expect(!Self.verifies(representative, challenge: challenge, trailer: .explicit(.sha256)))
        #expect(Self.verifies(representative, challenge: hex("0102030405060709"), trailer: .explicit(.sha256)))
    }
}
