import ASN1
import Arithmetic
import CMS
import CryptoPrimitives
import Foundation
import ICAO
import LDS
import OpenSSLReference
import TestSupport
import Testing

@testable import ChipAuthentication

/// Bytes from a hex literal of a worked example.
func hex(_ text: String) -> [UInt8] {
    guard let bytes = Hex.decode(text) else { preconditionFailure("bad hex in a test vector") }
    return bytes
}

/// `SubjectPublicKeyInfo { { id-ecPublicKey, namedCurve }, point }` for a standardized curve.
func ecPublicKeyInfo(_ point: [UInt8], curve: StandardizedDomainParameters) throws -> PublicKeyInfo {
    let algorithm = DER.sequence([
        DER.objectIdentifier("1.2.840.10045.2.1"), DER.objectIdentifier(curve.curveIdentifier ?? "1.2.3"),
    ])
    return try PublicKeyInfo(DER.sequence([algorithm, DER.bitString(point)]))
}

/// The ISO/IEC 9796-2 message recovery and Active Authentication's RSA check, on the published
/// examples and a real chip's answer.
@Suite struct ISO9796Part2Tests {
    /// bc-java's ISO9796Test (doTest4/doTest5): a 640-bit key with e = 3, whose opened signature
    /// is taken as n − J when J does not end in nibble C.
    static let modulus = hex(
        "FFFFFFFF78F6C55506C59785E871211EE120B0B5DD644AA796D82413A47B24573F1BE5745B5CD9950F6B389B52350D4E01E90009669A8720BF265A2865994190A661DEA3C7828E2E7CA1B19651ADC2D5"
    )

    @Test func totalRecoveryWithAnExplicitTrailer() throws {
        let representative = try ISO9796Part2.recover(
            signature: hex(
                "374695B7EE8B273925B4656CC2E008D41463996534AA5AA5AFE72A52FFD84E118085F8558F36631471D043AD342DE268B94B080BEE18A068C10965F581E7F32899AD378835477064ABED8EF3BD530FCE"
            ), modulus: Self.modulus, exponent: [3])
        #expect(
            representative.bytes
                == hex(
                    "4BBBBBBBBBBA6162636462636465636465666465666765666768666768696768696A68696A6B696A6B6C6A6B6C6D6B6C6D6E6C6D6E6F6D6E6F706E6F7071A1AA0689D0FAFA2DDC22E88B49133A0632CC"
                ))
        #expect(!representative.isPartialRecovery)
        #expect(representative.hashIdentifier == 0x32)  // RIPEMD-128, 16 bytes
        #expect(
            representative.recoveredMessage
                == hex(
                    "6162636462636465636465666465666765666768666768696768696A68696A6B696A6B6C6A6B6C6D6B6C6D6E6C6D6E6F6D6E6F706E6F7071"
                ))
        #expect(representative.digest == hex("A1AA0689D0FAFA2DDC22E88B49133A06"))
    }

    @Test func partialRecoveryWithTheImplicitTrailer() throws {
        let representative = try ISO9796Part2.recover(
            signature: hex(
                "5CF9A01854DBACAEC83AAE8EFC563D74538192E95466BABACD361D7C86000FE42DCB4581E48E4FEB862D04698DA9203B1803B262105104D510B365EE9C660857BA1C001AA57ABFD1C8DE92E47C275CAE"
            ), modulus: Self.modulus, exponent: [3])
        #expect(representative.isPartialRecovery)
        #expect(representative.hashIdentifier == nil)
        #expect(
            representative.recoveredMessage
                == hex(
                    "FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDC"
                ))
        #expect(representative.digest == hex("71DF2F2C3FFF1E35DF6920B45115FAC5998BA88E"))
    }

    /// ICAO 9303-11 Appendix F: F = 6A ‖ M1 ‖ SHA-1(M1 ‖ RND.IFD) ‖ BC.
    @Test func appendixFRepresentative() throws {
        let m1 = hex(
            "9D2784A67F8E7C659973EA1AEA25D95B6C8F91E5002F369F0FBDCE8A3CEC1991B543F1696546C5524CF23A5303CD6C98599F40B79F377B5F3A1406B3B4D8F96784D23AA88DB7E1032A405E69325FA91A6E86F5C71AEA978264C4A207446DAD4E7292E2DCDA3024B47DA8"
        )
        let representative = try ISO9796Part2.parse(
            [0x6A] + m1 + hex("C063AA1E6D22FBD976AB0FE73D94D2D9C6D88127") + [0xBC])
        #expect(representative.isPartialRecovery && representative.hashIdentifier == nil)
        #expect(representative.recoveredMessage == m1)
        #expect(HashAlgorithm.sha1.hash(m1 + hex("F173589974BF40C6")) == representative.digest)
    }

    /// Total recovery (header 4) with padding B…B A over several bytes: M1 starts after the A.
    @Test func paddedRepresentative() throws {
        let m1 = hex("0102030405")
        let digest = HashAlgorithm.sha1.hash(m1)
        let representative = try ISO9796Part2.parse(hex("4BBBBA") + m1 + digest + [0xBC])
        #expect(!representative.isPartialRecovery)
        #expect(representative.recoveredMessage == m1)
        #expect(representative.digest == digest)
    }

    @Test func malformedRepresentativesAreRefused() {
        for bad in [
            hex("5A0102030405BC"), hex("6B0102030405BC"), hex("6A01020304050607080910111213141516171819202122AB"),
            // Padding whose A is a high nibble (not on a byte boundary), or that runs to the end.
            hex("4BAB01020304050607080910111213141516171819202122BC"), hex("4BBBBBBB"),
        ] {
            #expect(throws: ChipAuthenticationError.self) { try ISO9796Part2.parse(bad) }
        }
    }

    /// A real chip's INTERNAL AUTHENTICATE answer (RSA-1792, SHA-256, trailer 34CC, captured by
    /// gmrtd) verifies against its DG15, and fails with one bit changed or another challenge.
    @Test func realActiveAuthenticationAnswer() throws {
        let dataGroup15 = try ActiveAuthenticationPublicKey(
            hex(
                "6F8201023081FF300D06092A864886F70D01010105000381ED003081E90281E100BB8F93F4DC95E205CDA17C6927AB1E365B13065D03CD12E0FCE95D96840529453202F56CC4C13F77CD062930C8BC89A2873B257045C286E601CF3C09323A53103314902804AA10A314628CE222206A8866946A36B442041BB54AC81E6855DD1D6E16101833D65A191C20AC8B33B8A1A32920F46043F8031CF2BC17417030865FC5BE5A39DEE423BCBA3CA8177168EB23CFE01BA43EC87711B1CFFF85DB46F300DD8AE317B50D543B573E119E23AF7070D0B2FED6A3B2313A5EC02A531AAED1741F4390D1013E2A0F081EAC5DC8B0A1B2C6BDB1206F08D30E3643E1E5BDF536110203010001"
            ))
        let signature = hex(
            "474256306840C0AB1B63C10E1C26BDFEF4A0DD843920283CC4E6E70A60F2BD25DC7725F9677BC1CDE66379DC28B38E8490F33AFB2D10F9980C44C0BFC175D2B6684218F535C92FDD3E18DB770A9CCBF91DB3C7F0138E6D9E94B9BC8371761E3ABED5E5E9B260279CFB238B58AE0D6A01DA51C74C2A3ECD62C448BD9F20127F7384587287FA971204234E55B1A856C3E5AAAA620BB799A68FBAE08EE132BB61683EBA9B0B40DC1E54641CAD975B16991CAB50AF82E3F3985AFD19E7427A125F5B4B9878B12A5D2E01C7EEDCA3BB41C6FC05DCCD818BCE379D04B1F2F5D43487D3"
        )
        let challenge = hex("96302B0F3D7E7864")
        let scheme = try ActiveAuthentication.verify(
            signature: signature, challenge: challenge, publicKey: dataGroup15.publicKey, info: nil)
        #expect(scheme == .iso9796Part2(.sha256, implicitTrailer: false))
        var flipped = signature
        flipped[100] ^= 0x01
        for (candidate, givenChallenge) in [(flipped, challenge), (signature, hex("96302B0F3D7E7865"))] {
            let error = #expect(throws: ChipAuthenticationError.self) {
                try ActiveAuthentication.verify(
                    signature: candidate, challenge: givenChallenge, publicKey: dataGroup15.publicKey, info: nil)
            }
            #expect(error?.code == .verificationFailed)
        }
    }
}

/// Active Authentication with ECDSA: signatures made by OpenSSL, verified in both encodings.
@Suite struct ECDSAActiveAuthenticationTests {
    @Test(arguments: [StandardizedDomainParameters.brainpoolP256r1, .secp256r1, .brainpoolP384r1, .secp521r1])
    func signaturesFromOpenSSLVerify(parameters: StandardizedDomainParameters) throws {
        let curve = try #require(parameters.curve)
        let openSSL = try #require(OpenSSLCurve(parameterID: parameters.id))
        let privateKey = BigInt(bytes: hex("0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"))
        let key = try ecPublicKeyInfo(try curve.encode(curve.publicKey(for: privateKey)), curve: parameters)
        let challenge = hex("0011223344556677")
        let (r, s) = try #require(openSSL.sign(digest: HashAlgorithm.sha256.hash(challenge), privateKey: privateKey))
        let signature = ECDSASignature(r: r, s: s)
        let info = try ActiveAuthenticationInfo.sha256()
        let plain = try ActiveAuthentication.verify(
            signature: try signature.rawRepresentation(length: curve.orderLength), challenge: challenge, publicKey: key,
            info: info)
        #expect(plain == .ecdsa(.sha256, plain: true))
        let der = try ActiveAuthentication.verify(
            signature: signature.derRepresentation, challenge: challenge, publicKey: key, info: nil)
        #expect(der == .ecdsa(.sha256, plain: false))
        #expect(throws: ChipAuthenticationError.self) {
            try ActiveAuthentication.verify(
                signature: signature.derRepresentation, challenge: hex("0011223344556678"), publicKey: key, info: info)
        }
    }
}

extension ActiveAuthenticationInfo {
    /// `ActiveAuthenticationInfo { id-AA, 1, ecdsa-plain-SHA256 }` as DG14 carries it.
    static func sha256() throws -> ActiveAuthenticationInfo? {
        let dataGroup14 = DER.tlv(
            ASN1Tag(0x6E),
            DER.set([
                DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier.activeAuthentication), DER.integer(1),
                    DER.objectIdentifier("0.4.0.127.0.7.1.1.4.1.3"),
                ])
            ]))
        return try SecurityOptions(dataGroup14, kind: .dg14).activeAuthenticationInfo
    }
}

/// PACE-CAM's proof, ICAO 9303-11 Appendix I.1.
@Suite struct ChipAuthenticationMappingTests {
    static let staticKey = hex(
        "041872709494399E7470A6431BE25E83EEE24FEA568C2ED28DB48E05DB3A610DC884D256A40E35EFCB59BF6753D3A489D28C7A4D973C2DA138A6E7A4A08F68E16F"
    )
    static let mappingKey = hex(
        "04A234236AA9B9621E8EFB73B5245C0E09D2576E5277183C1208BDD55280CAE8B304F365713A356E65A451E165ECC9AC0AC46E3771342C8FE5AEDD092685338E23"
    )
    static let authenticationData = hex("85DC3FA93D0952BFA82F5FD189EE75BD82F11D1F0B8ED4BF5319AC9B53C426B3")

    @Test func appendixIVerifies() throws {
        let key = try ecPublicKeyInfo(Self.staticKey, curve: .brainpoolP256r1)
        let verified = try ChipAuthenticationMappingVerifier.verify(
            chipAuthenticationData: Self.authenticationData, chipMappingPublicKey: Self.mappingKey, candidates: [key])
        #expect(verified == key)
    }

    @Test func aWrongProofOrKeyIsRefused() throws {
        let key = try ecPublicKeyInfo(Self.staticKey, curve: .brainpoolP256r1)
        var wrong = Self.authenticationData
        wrong[31] ^= 0x01
        let error = #expect(throws: ChipAuthenticationError.self) {
            try ChipAuthenticationMappingVerifier.verify(
                chipAuthenticationData: wrong, chipMappingPublicKey: Self.mappingKey, candidates: [key])
        }
        #expect(error?.code == .verificationFailed)
        // Another key on the curve (the generator) does not verify either.
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let other = try ecPublicKeyInfo(try curve.encode(curve.generator), curve: .brainpoolP256r1)
        #expect(throws: ChipAuthenticationError.self) {
            try ChipAuthenticationMappingVerifier.verify(
                chipAuthenticationData: Self.authenticationData, chipMappingPublicKey: Self.mappingKey,
                candidates: [other])
        }
        let none = #expect(throws: ChipAuthenticationError.self) {
            try ChipAuthenticationMappingVerifier.verify(
                chipAuthenticationData: Self.authenticationData, chipMappingPublicKey: Self.mappingKey, candidates: [])
        }
        #expect(none?.code == .unusableKey)
    }
}

/// Chip Authentication's key agreement on the BSI EAC worked examples' keys (the chip's static
/// key, the terminal's ephemeral key): the shared secret K both sides derive.
@Suite struct ChipAuthenticationKeyAgreementTests {
    @Test func ellipticCurveExample() throws {
        let domain = try KeyAgreementDomain(standardized: 13)
        let terminal = EphemeralKeyPair(
            privateKey: BigInt(bytes: hex("00A6A4D255C5BF7A77EC3D0553DB74F693CF044E18C98364D4977A296108AF19BD")),
            publicKey: try domain.publicKey(
                hex(
                    "045A7A377FC9CAFC03AC7FF45441A8B2909D88EAB8E6B0173847AB49B949DF3799A34EE57EC55268CF8B1C3EC489F8BF4CF4C68D3FD9670E89C0D5D3FFF1AAF89F"
                )))
        let chip = try domain.publicKey(
            hex(
                "04A44EBE5451DF7AADB01E459B8C928A87746A57927C8C28A6775C97A7E1FE8D9A46FF4A1CC7E4D1389AEA19758E4F75C28C598FD734AEBEB135337CF95BE12E94"
            ))
        let secret = try domain.sharedSecret(terminal, chip)
        #expect(
            secret.withUnsafeBytes { Array($0) }
                == hex("791DA04273CCFE862E52DF60347E2557192E1F8D7517822CE3D306056C1CDEB4"))
    }

    @Test func diffieHellmanExample() throws {
        let domain = try KeyAgreementDomain(standardized: 0)
        let terminal = EphemeralKeyPair(
            privateKey: BigInt(
                bytes: hex(
                    "00A2CFFD06C34AFD622EEE0FC31F093FDFDA609C67121CACF0A8F52291DE6853BB5C93CF76705775ECF408A74302613BEECB381447D36494C9E18951EC17252DD2A807AAE09FA4DC30183339013D9C9191303CACEE3C91E926A36D014A5CFA94950CADB37B534F32A9BF76B37980979304C5663871BD746EB9E95A47CA471B4EDE"
                )),
            publicKey: try domain.publicKey(
                hex(
                    "A2830947A6FCAACDE2FCB88B29AB38E07C3453ABC4BCB466087E11C79F32A19E6EF22BE108F8DD18FE8249C960951511200DC985AA3EC0CCAD59A5F9BBCC33EE5F1577E20330B4DD10EB06B740277C97A189180EDE52BEE9D429F10FB77F180F05D6A99C499CB5E1ECEEB8E92284F66EA98479674CE73F53C567A03B0D297833"
                )))
        let chip = try domain.publicKey(
            hex(
                "1B3345F8DC04341BF8B2C97F652FA680E5D4FA4C146AE4B839431A644A79BC368C4822C89CD018A57F953644BEDA679C5B532902320E83E13B80DEEF8C18AF3E7D493AE3F88196101B9F78EAFE4B3025EF8BFF916B2FC02D762D0838DEA29C09B485591C2F47F87C71F530BB358F56AF6459D86DBF85EAF9EDBD962CD364F7B8"
            ))
        let secret = try domain.sharedSecret(terminal, chip)
        #expect(
            secret.withUnsafeBytes { Array($0) }
                == hex(
                    "2A4FC2D11490DF4773DDFA6FF705557C51F4AD4533E8D8A66A3001BFDD271DB87BE3C1CAC22A05E8AF1A066DD0298E75DB928AAFDF00EB4BFB1BD12F372313C1CA649056517305638515D5A4FBE0AC59BDC80E8C5A5F46254D231916EA77F80AC58E6B63A26198EE4387F10981E8E46FFBA23790C81E679363C589587D30BBB3"
                ))
    }
}

/// Which Chip Authentication DG14 offers.
@Suite struct ChipAuthenticationOfferTests {
    static func dataGroup14(_ infos: [[UInt8]]) throws -> SecurityOptions {
        try SecurityOptions(DER.tlv(ASN1Tag(0x6E), DER.set(infos)), kind: .dg14)
    }

    static func keyInfo(keyId: Int?, curve: StandardizedDomainParameters = .brainpoolP256r1) throws -> [UInt8] {
        let point = try #require(curve.curve).encode(try #require(curve.curve).generator)
        let key = try ecPublicKeyInfo(point, curve: curve)
        return DER.sequence(
            [DER.objectIdentifier("0.4.0.127.0.7.2.2.1.2"), key.encoded] + (keyId.map { [DER.integer($0)] } ?? []))
    }

    static func chipAuthenticationInfo(_ oid: ASN1ObjectIdentifier, version: Int = 1, keyId: Int?) -> [UInt8] {
        DER.sequence([DER.objectIdentifier(oid), DER.integer(version)] + (keyId.map { [DER.integer($0)] } ?? []))
    }

    @Test func keysArePairedByKeyIdAndStrongestComesFirst() throws {
        let infos = try Self.dataGroup14([
            Self.chipAuthenticationInfo("0.4.0.127.0.7.2.2.3.2.1", keyId: 1),  // ECDH 3DES
            Self.chipAuthenticationInfo("0.4.0.127.0.7.2.2.3.2.4", keyId: 2),  // ECDH AES-256
            try Self.keyInfo(keyId: 1), try Self.keyInfo(keyId: 2, curve: .secp384r1),
        ])
        let (offers, warnings) = ChipAuthenticationOffer.offers(in: infos)
        #expect(warnings.isEmpty)
        #expect(offers.map(\.keyId) == [2, 1])
        #expect(offers.first?.chipAuthenticationProtocol.cipher == .aes256)
        #expect(offers.first?.publicKey.curve == "secp384r1")
        #expect(offers.allSatisfy { !$0.isInferred })
    }

    @Test func aKeyWithoutChipAuthenticationInfoIsUsedWith3DESAndAWarning() throws {
        let (offers, warnings) = ChipAuthenticationOffer.offers(
            in: try Self.dataGroup14([try Self.keyInfo(keyId: nil)]))
        #expect(offers.count == 1)
        #expect(offers.first?.isInferred == true)
        #expect(offers.first?.chipAuthenticationProtocol.cipher == .tripleDES)
        #expect(warnings.count == 1)
    }

    @Test func versionTwoAndUnpairedInfosAreSkippedWithAWarning() throws {
        let infos = try Self.dataGroup14([
            Self.chipAuthenticationInfo("0.4.0.127.0.7.2.2.3.2.2", version: 2, keyId: nil),
            Self.chipAuthenticationInfo("0.4.0.127.0.7.2.2.3.1.2", keyId: 7),  // DH, no DH key
            try Self.keyInfo(keyId: nil),
        ])
        let (offers, warnings) = ChipAuthenticationOffer.offers(in: infos)
        #expect(offers.isEmpty)
        #expect(warnings.count == 2)
    }

    /// Every real DG14 with a Chip Authentication key gives an offer whose key validates (ECDH
    /// with explicit brainpool and P-256 parameters, brainpoolP384r1 with AES-256, DH).
    @Test(arguments: [
        "gmrtd/sod_samples/AT_DG14.bin", "gmrtd/sod_samples/DE_DG14.bin", "gmrtd/sod_samples/FR_DG14.bin",
        "gmrtd/sod_samples/MY_DG14.bin", "gmrtd/sod_samples/ID_DG14.bin", "gmrtd/sod_samples/FI_DG14.bin",
        "jmrtd/doc9303/spec_sample_encoded_dg14.bin", "jmrtd/bsi2008/Datagroup14.bin",
        "pymrtd/etsi_tr103200_epassport_prototype/DFLT_EAC_EF_DG14.bin",
    ])
    func realDataGroup14KeysAreUsable(path: String) throws {
        guard let bytes = Prerequisites.sharedBytes("data/\(path)") else { return }
        let (offers, _) = ChipAuthenticationOffer.offers(in: try SecurityOptions(bytes, kind: .dg14))
        let offer = try #require(offers.first)
        _ = try ChipAuthenticationV1.staticKey(of: offer)
    }
}

/// Real EF.CardSecurity files parse, carry a Chip Authentication key, and are not authentic
/// without their CSCA.
@Suite struct CardSecurityVerificationTests {
    @Test(arguments: [
        "gmrtd/cardsecurity/FI_EF_CardSecurity.bin", "gmrtd/cardsecurity/DE_EF_CardSecurity.bin",
        "openpace/ef_cardsecurity_dan.bin",
    ])
    func realFiles(path: String) throws {
        guard let bytes = Prerequisites.sharedBytes("data/\(path)") else { return }
        let verification = CardSecurityVerification(bytes, trustStore: TrustStore(), at: Date())
        let infos = try #require(verification.securityInfos)
        #expect(!infos.chipAuthenticationPublicKeyInfos.isEmpty)
        #expect(verification.status != .authentic)
    }

    @Test func garbageIsNotAuthentic() {
        let verification = CardSecurityVerification(
            [0x30, 0x03, 0x02, 0x01, 0x00], trustStore: TrustStore(), at: Date())
        #expect(verification.securityInfos == nil)
        if case .notAuthentic = verification.status {} else { Issue.record("garbage was \(verification.status)") }
    }
}

/// Every real DG15 gives a key Active Authentication can check with: a wrong signature is a
/// verification failure, never an unusable key (RSA of several sizes, EC with explicit
/// brainpool parameters).
@Suite struct RealActiveAuthenticationKeyTests {
    @Test(arguments: [
        "gmrtd/sod_samples/NZ_DG15.bin", "andyq_nfcpassportreader/DG15_ec_brainpoolP256r1_explicit.bin",
        "pymrtd/etsi_tr103200_epassport_prototype/DFLT_EACAA_EF_DG15.bin",
        "jmrtd/bsi2008/Datagroup15.bin", "pymrtd/bsi_tr03105-5_refdata/Datagroup15.bin",
    ])
    func realDataGroup15KeysAreUsable(path: String) throws {
        guard let bytes = Prerequisites.sharedBytes("data/\(path)") else { return }
        let key = try ActiveAuthenticationPublicKey(bytes).publicKey
        let signature = [UInt8](
            repeating: 0x01,
            count: ((key.keySize == 0 ? 1024 : Int(key.keySize)) + 7) / 8 * (key.keyAlgorithm == .ec ? 2 : 1))
        let error = #expect(throws: ChipAuthenticationError.self) {
            try ActiveAuthentication.verify(
                signature: signature, challenge: [1, 2, 3, 4, 5, 6, 7, 8], publicKey: key, info: nil)
        }
        #expect(error?.code == .verificationFailed, "\(path): \(String(describing: error))")
    }
}

/// The terminal's ephemeral DH key for Chip Authentication is drawn again while the secret it
/// agrees begins with a zero byte, which chips built on OpenSSL's `DH_compute_key` drop.
@Suite struct EphemeralDHKeyTests {
    @Test func noDHSecretBeginsWithAZeroByte() throws {
        let domain = try KeyAgreementDomain(standardized: 0)
        let chipKey = try domain.generateKeyPair(random: .system).publicKey
        // Without the rule, one secret in 256 begins with a zero byte: about 12 of these 3000.
        for _ in 0..<3000 {
            let (_, secret) = try ChipAuthenticationV1.ephemeralKeyAgreement(domain, chipKey: chipKey, random: .system)
            #expect(secret.count == 128)
            try #require(secret.withUnsafeBytes { $0.first != 0 })
        }
    }
}
