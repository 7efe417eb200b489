import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// The chip's passwords, PACE offers and private keys: who answers BAC with which password, what
/// PACE will derive from them, that keys are usable, and that nothing secret is ever printed.
@Suite struct CredentialsTests {
    static let mrz = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C<3UTO6908061F9406236ZE184226B<<<<<14"
    static let dataGroup1 = [0x61, 0x5B, 0x5F, 0x1F, 0x58] + Array(mrz.utf8)

    /// BAC's EXTERNAL AUTHENTICATE with a cryptogram of zeros: 6984 when the chip has no MRZ
    /// password, 6300 (wrong cryptogram) when it has one.
    static func externalAuthenticateStatus(_ configuration: ChipConfiguration) throws -> StatusWord {
        let chip = SimulatedChip(configuration: configuration)
        _ = try chip.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
        return try chip.transmit(
            CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: Array(repeating: 0, count: 40), expectedLength: 40)
        ).statusWord
    }

    @Test func canOnly() throws {
        let can = try #require(CardAccessNumber("123456"))
        let credentials = Credentials(can: can)
        #expect(credentials.mrz == nil && credentials.can == can)
        // No MRZ password anywhere: BAC is refused.
        #expect(credentials.mrzPassword(orFrom: ChipFiles()) == nil)
        let blank = ChipConfiguration(files: ChipFiles(), credentials: credentials)
        #expect(try Self.externalAuthenticateStatus(blank) == .referenceDataNotUsable)
        // π for a CAN is the CAN itself: 9303-11's PIN example gives K_π = 591468CD…600F.
        let passwordKey = ICAOKeyDerivation.deriveKey(from: can.pacePassword(), purpose: .password, cipher: .aes128)
        #expect(passwordKey.secret == SecretBytes(hex("591468CDA83D65219CCCB8560233600F")))
        // A chip personalised with DG1 still has the MRZ password of its DG1.
        var files = ChipFiles()
        files[dataGroup: 1] = Self.dataGroup1
        #expect(
            credentials.mrzPassword(orFrom: files)
                == MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623"))
    }

    @Test func mrzOnly() throws {
        let password = MRZPassword(documentNumber: "T22000129", dateOfBirth: "640812", dateOfExpiry: "101031")
        let credentials = Credentials(mrz: password)
        #expect(credentials.can == nil && credentials.paceOffers.isEmpty)
        // The given password wins over DG1's.
        var files = ChipFiles()
        files[dataGroup: 1] = Self.dataGroup1
        #expect(credentials.mrzPassword(orFrom: files) == password)
        #expect(
            try Self.externalAuthenticateStatus(ChipConfiguration(files: ChipFiles(), credentials: credentials))
                == .verificationFailed)
        // 9303-11 App. G.1: SHA-1 of T22000129364081251010318, then K_π = 89DED1B2…49DD.
        #expect(password.pacePassword() == SecretBytes(hex("7E2D2A41C74EA0B38CD36F863939BFA8E9032AAD")))
        let passwordKey = ICAOKeyDerivation.deriveKey(
            from: password.pacePassword(), purpose: .password, cipher: .aes128)
        #expect(passwordKey.secret == SecretBytes(hex("89DED1B26624EC1E634C1989302849DD")))
        // BAC's K_seed is the first 16 bytes of the same hash (App. D: 239AB9CB…FBAE).
        let appendixD = MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect(appendixD.basicAccessControlSeed() == SecretBytes(hex("239AB9CB282DAF66231DC5A4DF6BFBAE")))
    }

    @Test func cardAccessNumbersAreDigits() {
        #expect(CardAccessNumber("") == nil)
        #expect(CardAccessNumber("12345a") == nil)
        #expect(CardAccessNumber("١٢٣٤٥٦") == nil)  // Arabic-Indic digits are not the printed CAN
        #expect(CardAccessNumber(String(repeating: "1", count: 17)) == nil)
        #expect(CardAccessNumber("000000") != nil)
    }

    @Test func paceOffersMatchTheirParameters() throws {
        let ecdh = try #require(PACEProtocol(mapping: .genericMapping, keyAgreement: .ecdh, cipher: .aes128))
        let dh = try #require(PACEProtocol(mapping: .genericMapping, keyAgreement: .dh, cipher: .tripleDES))
        #expect(
            PACEOffer(ecdh, parameters: .brainpoolP256r1)?.paceProtocol.identifier.dotted == "0.4.0.127.0.7.2.2.4.2.2")
        #expect(PACEOffer(ecdh, parameters: .modp1024Subgroup160) == nil)
        #expect(PACEOffer(dh, parameters: .modp2048Subgroup224) != nil)
        #expect(PACEOffer(dh, parameters: .secp256r1) == nil)
    }

    @Test(arguments: [StandardizedDomainParameters.brainpoolP256r1, .secp384r1, .modp1024Subgroup160])
    func keyAgreementKeysAgree(parameters: StandardizedDomainParameters) throws {
        let chip = try KeyAgreementKeyPair.generate(on: parameters)
        let terminal = try KeyAgreementKeyPair.generate(on: parameters)
        #expect(chip.keyAgreement == parameters.keyAgreement)
        #expect(chip.publicKey != terminal.publicKey)
        switch chip.domainParameters {
        case .ellipticCurve(let curve):
            let chipSide = try curve.sharedSecret(
                privateKey: chip.privateKey, peerPublicKey: try curve.decodePoint(terminal.publicKey))
            let terminalSide = try curve.sharedSecret(
                privateKey: terminal.privateKey, peerPublicKey: try curve.decodePoint(chip.publicKey))
            #expect(chipSide == terminalSide)
        case .dhGroup(let group):
            let chipSide = try group.sharedSecret(
                privateKey: chip.privateKey, peerPublicValue: try group.decodePublicValue(terminal.publicKey))
            let terminalSide = try group.sharedSecret(
                privateKey: terminal.privateKey, peerPublicValue: try group.decodePublicValue(chip.publicKey))
            #expect(chipSide == terminalSide)
        }
    }

    /// The BSI EAC worked example's Chip Authentication key on brainpoolP256r1: the public key
    /// follows from the private one.
    @Test func keyAgreementKeyFromItsPrivateKey() throws {
        let key = try KeyAgreementKeyPair(
            privateKey: hex("7984674CF3B3A524BF929CE8A67FCF22173DA0BAD595EED6DEB72D22C542FA9D"), on: .brainpoolP256r1)
        #expect(
            key.publicKey
                == hex(
                    "04A44EBE5451DF7AADB01E459B8C928A87746A57927C8C28A6775C97A7E1FE8D9A46FF4A1CC7E4D1389AEA19758E4F75C28C598FD734AEBEB135337CF95BE12E94"
                ))
        #expect(throws: ChipSimulatorError.self) { try KeyAgreementKeyPair(privateKey: [0x00], on: .secp256r1) }
        #expect(throws: ChipSimulatorError.self) {
            try KeyAgreementKeyPair(privateKey: [UInt8](repeating: 0xFF, count: 32), on: .secp256r1)
        }
    }

    @Test func activeAuthenticationKey() throws {
        let key = try RSAKeyPair.generate(bits: 1024)
        #expect(key.modulusBits == 1024)
        let publicKey = try RSAPublicKey(subjectPublicKeyInfo: try key.subjectPublicKeyInfo())
        #expect(publicKey.modulusBits == 1024)
        #expect(throws: ChipSimulatorError.self) { try RSAKeyPair(privateKeyDER: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(throws: ChipSimulatorError.self) { try RSAKeyPair.generate(bits: 512) }
    }

    /// The names the command line gives keys and faults.
    @Test func keysAndFaultsByName() throws {
        let ecdh = try ChipAuthenticationKey.generate(named: "ecdh-aes-256:secp384r1", keyIdentifier: 3)
        #expect(
            ecdh.keyPair.domainParameters == StandardizedDomainParameters.secp384r1.domainParameters
                && ecdh.cipher == .aes256 && ecdh.keyIdentifier == 3)
        let dh = try ChipAuthenticationKey.generate(named: "DH-3DES")
        #expect(dh.keyPair.keyAgreement == .dh && dh.cipher == .tripleDES && dh.keyIdentifier == nil)
        for wrong in ["ECDH", "ECDH-AES-512", "DH-AES-128:13", "ECDH-AES-128:99", "ECDH-GM-AES-128"] {
            #expect(throws: ChipSimulatorError.self) { try ChipAuthenticationKey.generate(named: wrong) }
        }
        guard case .rsa(let rsa, let trailer) = try ActiveAuthenticationKey.generate(named: "rsa:1024:bc").algorithm
        else {
            Issue.record("rsa:1024:bc is RSA")
            return
        }
        #expect(rsa.modulusBits == 1024 && trailer == .implicit)
        guard
            case .ecdsa(let pair, let hash, let encoding) = try ActiveAuthenticationKey.generate(
                named: "ecdsa:brainpoolP384r1:sha512:der"
            ).algorithm
        else {
            Issue.record("ecdsa is ECDSA")
            return
        }
        #expect(
            pair.domainParameters == StandardizedDomainParameters.brainpoolP384r1.domainParameters && hash == .sha512
                && encoding == .der)
        for wrong in ["rsa", "rsa:512", "rsa:1024:md5", "ecdsa:0", "ecdsa:13:plainish", "dsa:1024"] {
            #expect(throws: ChipSimulatorError.self) { try ActiveAuthenticationKey.generate(named: wrong) }
        }
        #expect(try ChipFault(named: "clone") == .clonedKeys)
        #expect(try ChipFault(named: "CA-WRONG-MAC") == .chipAuthentication(.wrongMACAfterRekey))
        #expect(Set(ChipFault.byName.map(\.fault)).count == ChipFault.byName.count)
        #expect(throws: ChipSimulatorError.self) { try ChipFault(named: "tagLost") }
    }

    @Test func secretsAreNeverPrinted() throws {
        let credentials = Credentials(
            mrz: MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623"),
            can: CardAccessNumber("918273"),
            chipAuthenticationKeys: [
                ChipAuthenticationKey(
                    try KeyAgreementKeyPair(privateKey: [0x2A, 0x2A, 0x2A], on: .secp256r1), keyIdentifier: 7)
            ])
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [String(describing: credentials), String(reflecting: credentials), dumped] {
            #expect(text.contains("MRZ") && text.contains("CAN"))
            for secret in ["L898902C", "690806", "918273", "2A2A2A"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
        let configuration = ChipConfiguration(files: ChipFiles(), credentials: credentials)
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        #expect(!dumpedConfiguration.contains("918273") && !dumpedConfiguration.contains("L898902C"))
    }
}
