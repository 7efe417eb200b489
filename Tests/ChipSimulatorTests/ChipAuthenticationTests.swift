import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// Chip Authentication v1 on the chip's side (9303-11 §6.2): the BSI EAC worked example's key
/// agreement byte for byte, every parameter set and cipher over APDUs, key IDs, status words and
/// the faults that break secure messaging after the re-key.
@Suite struct ChipAuthenticationTests {
    /// BSI "Worked Example for EAC" v1.01, ECDH on brainpoolP256r1: the chip's static key, the
    /// terminal's ephemeral key and K (the CA key agreement of the example; its session keys there
    /// are CA v2's, with a nonce, so v1's are derived here from K).
    static let ecdhStaticKey = hex("7984674CF3B3A524BF929CE8A67FCF22173DA0BAD595EED6DEB72D22C542FA9D")
    static let ecdhTerminalKey = hex(
        "045A7A377FC9CAFC03AC7FF45441A8B2909D88EAB8E6B0173847AB49B949DF3799A34EE57EC55268CF8B1C3EC489F8BF4CF4C68D3FD9670E89C0D5D3FFF1AAF89F"
    )
    static let ecdhSharedSecret = hex("791DA04273CCFE862E52DF60347E2557192E1F8D7517822CE3D306056C1CDEB4")
    static let ecdhChipPublicKey = hex(
        "04A44EBE5451DF7AADB01E459B8C928A87746A57927C8C28A6775C97A7E1FE8D9A46FF4A1CC7E4D1389AEA19758E4F75C28C598FD734AEBEB135337CF95BE12E94"
    )

    /// The same example with DH on the 1024-bit MODP group (parameter ID 0).
    static let dhStaticKey = hex("00D0E5A95ECA541DEF4FE92B9FF9920D49A454C297")
    static let dhTerminalKey = hex(
        "A2830947A6FCAACDE2FCB88B29AB38E07C3453ABC4BCB466087E11C79F32A19E6EF22BE108F8DD18FE8249C960951511200DC985AA3EC0CCAD59A5F9BBCC33EE5F1577E20330B4DD10EB06B740277C97A189180EDE52BEE9D429F10FB77F180F05D6A99C499CB5E1ECEEB8E92284F66EA98479674CE73F53C567A03B0D297833"
    )
    static let dhSharedSecret = hex(
        "2A4FC2D11490DF4773DDFA6FF705557C51F4AD4533E8D8A66A3001BFDD271DB87BE3C1CAC22A05E8AF1A066DD0298E75DB928AAFDF00EB4BFB1BD12F372313C1CA649056517305638515D5A4FBE0AC59BDC80E8C5A5F46254D231916EA77F80AC58E6B63A26198EE4387F10981E8E46FFBA23790C81E679363C589587D30BBB3"
    )
    static let dhChipPublicKey = hex(
        "1B3345F8DC04341BF8B2C97F652FA680E5D4FA4C146AE4B839431A644A79BC368C4822C89CD018A57F953644BEDA679C5B532902320E83E13B80DEEF8C18AF3E7D493AE3F88196101B9F78EAFE4B3025EF8BFF916B2FC02D762D0838DEA29C09B485591C2F47F87C71F530BB358F56AF6459D86DBF85EAF9EDBD962CD364F7B8"
    )

    static func setAT(_ chipAuthenticationProtocol: ChipAuthenticationProtocol, keyID: UInt8? = nil) -> CommandAPDU {
        var data = DER.tlv(ASN1Tag(0x80), chipAuthenticationProtocol.identifier.content)
        if let keyID { data += DER.tlv(ASN1Tag(0x84), [keyID]) }
        return CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: data)
    }

    static func generalAuthenticate(_ key: [UInt8]) -> CommandAPDU {
        CommandAPDU(
            ins: 0x86, p1: 0, p2: 0, data: DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x80), key)), expectedLength: 256)
    }

    static func setKAT(_ key: [UInt8], keyID: UInt8? = nil) -> CommandAPDU {
        var data = DER.tlv(ASN1Tag(0x91), key)
        if let keyID { data += DER.tlv(ASN1Tag(0x84), [keyID]) }
        return CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA6, data: data)
    }

    @Test func workedExampleKeyAgreement() throws {
        let ecdh = try KeyAgreementKeyPair(privateKey: Self.ecdhStaticKey, on: .brainpoolP256r1)
        #expect(ecdh.publicKey == Self.ecdhChipPublicKey)
        let ecdhSecret = try ChipAuthenticationHandler.sharedSecret(ecdh, terminalKey: Self.ecdhTerminalKey)
        #expect(ecdhSecret.withUnsafeBytes { Array($0) } == Self.ecdhSharedSecret)
        let dh = try KeyAgreementKeyPair(privateKey: Self.dhStaticKey, on: .modp1024Subgroup160)
        #expect(dh.publicKey == Self.dhChipPublicKey)
        let dhSecret = try ChipAuthenticationHandler.sharedSecret(dh, terminalKey: Self.dhTerminalKey)
        #expect(dhSecret.withUnsafeBytes { Array($0) } == Self.dhSharedSecret)
        // CA v1's session keys from K (no nonce, unlike the example's CA v2 keys): SHA-1(K ‖ c),
        // c = 1 for KS_Enc, 2 for KS_MAC, the first 16 bytes (computed apart, written here).
        let ecdhKeys = SessionKeys(sharedSecret: ecdhSecret, cipher: .aes128)
        #expect(ecdhKeys.encryption == (try SymmetricKey(.aes128, bytes: hex("74DFF1029B548FA273C13D86CE775A5B"))))
        #expect(ecdhKeys.mac == (try SymmetricKey(.aes128, bytes: hex("4AE4F2F70ABC8C4C3DA7588BE9A1C9E2"))))
        let dhKeys = SessionKeys(sharedSecret: dhSecret, cipher: .tripleDES)
        let dhTerminalKeys = try ProtectedTerminal.sessionKeys(Self.dhSharedSecret, cipher: .tripleDES)
        #expect(dhKeys.encryption == dhTerminalKeys.encryptionKey && dhKeys.mac == dhTerminalKeys.macKey)
        #expect(
            dhTerminalKeys.encryptionKey
                == (try SymmetricKey(.tripleDES, bytes: hex("28F573F8B089997CA5DEE2A732C1F319").map(withDESParity))))
    }

    /// ECDH with AES-128 (MSE:Set AT, GENERAL AUTHENTICATE) on the worked example's keys: `7C 00`
    /// under the PACE keys, then the chip answers under the keys the terminal derives from K.
    @Test func workedExampleECDHOverAPDUs() throws {
        let key = ChipAuthenticationKey(try KeyAgreementKeyPair(privateKey: Self.ecdhStaticKey, on: .brainpoolP256r1))
        var terminal = try ProtectedTerminal.open(chipAuthenticationKeys: [key])
        #expect(try terminal.send(Self.setAT(key.chipAuthenticationProtocol)).statusWord == .success)
        let answer = try terminal.send(Self.generalAuthenticate(Self.ecdhTerminalKey))
        #expect(answer.statusWord == .success && answer.data == [0x7C, 0x00])
        terminal.session = try ProtectedTerminal.sessionKeys(Self.ecdhSharedSecret, cipher: .aes128)
        #expect(try terminal.readsCOM())
    }

    /// DH with 3DES (MSE:Set KAT) on the worked example's keys.
    @Test func workedExampleDHOverAPDUs() throws {
        let key = ChipAuthenticationKey(
            try KeyAgreementKeyPair(privateKey: Self.dhStaticKey, on: .modp1024Subgroup160), cipher: .tripleDES)
        var terminal = try ProtectedTerminal.open(chipAuthenticationKeys: [key])
        let answer = try terminal.send(Self.setKAT(Self.dhTerminalKey))
        #expect(answer.statusWord == .success && answer.data.isEmpty)
        terminal.session = try ProtectedTerminal.sessionKeys(Self.dhSharedSecret, cipher: .tripleDES)
        #expect(try terminal.readsCOM())
    }

    static let everyCombination: [(StandardizedDomainParameters, BlockCipher)] = StandardizedDomainParameters.allCases
        .flatMap { parameters in BlockCipher.allCases.map { (parameters, $0) } }

    /// Every standardized parameter set (ECDH 8–18, DH 0–2) with every cipher, the terminal's
    /// key agreement computed here: 3DES through MSE:Set KAT, AES through MSE:Set AT.
    @Test(arguments: everyCombination)
    func everyParameterSetAndCipher(_ parameters: StandardizedDomainParameters, _ cipher: BlockCipher) throws {
        let key = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: parameters), cipher: cipher)
        var terminal = try ProtectedTerminal.open(chipAuthenticationKeys: [key])
        let (ephemeral, secret) = try Self.terminalKeyAgreement(with: key.keyPair)
        let answer =
            cipher == .tripleDES
            ? try terminal.send(Self.setKAT(ephemeral))
            : try {
                #expect(try terminal.send(Self.setAT(key.chipAuthenticationProtocol)).statusWord == .success)
                return try terminal.send(Self.generalAuthenticate(ephemeral))
            }()
        #expect(answer.statusWord == .success)
        terminal.session = try ProtectedTerminal.sessionKeys(secret, cipher: cipher)
        #expect(try terminal.readsCOM(), "\(parameters.name) \(cipher)")
    }

    /// The terminal's side: an ephemeral key pair on the chip's parameters, and K.
    static func terminalKeyAgreement(with chipKey: KeyAgreementKeyPair) throws -> ([UInt8], [UInt8]) {
        switch chipKey.domainParameters {
        case .ellipticCurve(let curve):
            let pair = try curve.generateKeyPair()
            let secret = try curve.sharedSecret(
                privateKey: pair.privateKey, peerPublicKey: try curve.decodePoint(chipKey.publicKey))
            return (try curve.encode(pair.publicKey), secret)
        case .dhGroup(let group):
            let pair = try group.generateKeyPair()
            let secret = try group.sharedSecret(
                privateKey: pair.privateKey, peerPublicValue: BigInt(bytes: chipKey.publicKey))
            return (try group.encodePublicValue(pair.publicKey), secret)
        }
    }

    /// Several keys told apart by DO'84'; an unknown ID is 6A88, an ambiguous choice 6A80.
    @Test func keyIdentifiers() throws {
        let first = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .brainpoolP256r1), keyIdentifier: 1)
        let second = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .secp256r1), keyIdentifier: 2)
        let third = ChipAuthenticationKey(
            try KeyAgreementKeyPair.generate(on: .modp1024Subgroup160), keyIdentifier: 3, cipher: .tripleDES)
        var terminal = try ProtectedTerminal.open(chipAuthenticationKeys: [first, second, third])
        let aes = ChipAuthenticationProtocol(keyAgreement: .ecdh, cipher: .aes128)
        // Two ECDH AES-128 keys and no DO'84': the chip cannot choose.
        #expect(try terminal.send(Self.setAT(aes)).statusWord == .incorrectData)
        #expect(try terminal.send(Self.setAT(aes, keyID: 9)).statusWord == .referencedDataNotFound)
        // Key 3 runs DH with 3DES, not ECDH AES-128.
        #expect(try terminal.send(Self.setAT(aes, keyID: 3)).statusWord == .incorrectData)
        #expect(try terminal.send(Self.setAT(aes, keyID: 2)).statusWord == .success)
        let (ephemeral, secret) = try Self.terminalKeyAgreement(with: second.keyPair)
        #expect(try terminal.send(Self.generalAuthenticate(ephemeral)).statusWord == .success)
        terminal.session = try ProtectedTerminal.sessionKeys(secret, cipher: .aes128)
        #expect(try terminal.readsCOM())
        // The only 3DES key needs no DO'84' in MSE:Set KAT.
        let (dhEphemeral, dhSecret) = try Self.terminalKeyAgreement(with: third.keyPair)
        #expect(try terminal.send(Self.setKAT(dhEphemeral)).statusWord == .success)
        terminal.session = try ProtectedTerminal.sessionKeys(dhSecret, cipher: .tripleDES)
        #expect(try terminal.readsCOM())
    }

    /// Keys that are not in the group are 6A80, and the session stays on its keys.
    @Test func invalidEphemeralKeys() throws {
        let ecdh = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .brainpoolP256r1))
        let dh = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .modp2048Subgroup224), cipher: .tripleDES)
        var terminal = try ProtectedTerminal.open(chipAuthenticationKeys: [ecdh, dh])
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let generator = try curve.encode(curve.generator)
        var offCurve = generator
        offCurve[offCurve.count - 1] ^= 0x01
        let group = try #require(StandardizedDomainParameters.modp2048Subgroup224.group)
        let outsideSubgroup = try group.encodePublicValue(group.p - BigInt(1))
        for (command, expected) in [
            (Self.generalAuthenticate(offCurve), StatusWord.incorrectData),
            (Self.generalAuthenticate([0x00]), .incorrectData),
            (Self.generalAuthenticate(Array(generator.dropFirst())), .incorrectData),
        ] {
            #expect(try terminal.send(Self.setAT(ecdh.chipAuthenticationProtocol)).statusWord == .success)
            #expect(try terminal.send(command).statusWord == expected)
        }
        #expect(try terminal.send(Self.setKAT(outsideSubgroup)).statusWord == .incorrectData)
        #expect(try terminal.send(Self.setKAT(try group.encodePublicValue(BigInt(1)))).statusWord == .incorrectData)
        #expect(try terminal.send(Self.setKAT([])).statusWord == .incorrectData)
        #expect(try terminal.readsCOM())
    }

    /// Status words of the commands themselves.
    @Test func statusWords() throws {
        let key = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .brainpoolP256r1))
        var terminal = try ProtectedTerminal.open(chipAuthenticationKeys: [key])
        let (ephemeral, _) = try Self.terminalKeyAgreement(with: key.keyPair)
        // GENERAL AUTHENTICATE before MSE:Set AT (PACE's handler gets it: no PACE run either).
        #expect(try terminal.send(Self.generalAuthenticate(ephemeral)).statusWord == .conditionsNotSatisfied)
        // MSE:Set KAT on a chip with no 3DES key; a PACE or unknown OID in MSE:Set AT 41A4.
        #expect(try terminal.send(Self.setKAT(ephemeral)).statusWord == .incorrectData)
        let pace = CommandAPDU(
            ins: 0x22, p1: 0x41, p2: 0xA4,
            data: DER.tlv(
                ASN1Tag(0x80),
                PACEHandlerTests.paceProtocol(.genericMapping, .ecdh, .aes128).identifier.content))
        #expect(try terminal.send(pace).statusWord == .incorrectData)
        #expect(try terminal.send(Self.setAT(key.chipAuthenticationProtocol)).statusWord == .success)
        var wrongParameters = Self.generalAuthenticate(ephemeral)
        wrongParameters = CommandAPDU(ins: 0x86, p1: 0x01, p2: 0, data: wrongParameters.data, expectedLength: 256)
        #expect(try terminal.send(wrongParameters).statusWord == .incorrectParameters)
        // MSE with another P1-P2 (not CA's, not PACE's C1A4).
        #expect(
            try terminal.send(CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: [])).statusWord == .incorrectParameters)
        #expect(try terminal.readsCOM())
        // Without secure messaging Chip Authentication is refused (and the plain command ends the session).
        let plain = try terminal.chip.transmit(Self.setKAT(ephemeral))
        #expect(plain.statusWord == .securityStatusNotSatisfied)
    }

    /// `keepsOldKeys`: the terminal's first command under the new keys fails the chip's MAC check.
    @Test func chipKeepingItsOldKeysBreaksSecureMessaging() throws {
        let key = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .brainpoolP256r1))
        var terminal = try ProtectedTerminal.open(
            chipAuthenticationKeys: [key], faults: [.chipAuthentication(.keepsOldKeys)])
        let (ephemeral, secret) = try Self.terminalKeyAgreement(with: key.keyPair)
        #expect(try terminal.send(Self.setAT(key.chipAuthenticationProtocol)).statusWord == .success)
        #expect(try terminal.send(Self.generalAuthenticate(ephemeral)).statusWord == .success)
        terminal.session = try ProtectedTerminal.sessionKeys(secret, cipher: .aes128)
        let protected = try terminal.session.wrap(
            CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd))
        #expect(try terminal.chip.transmit(protected) == ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect))
    }

    /// `wrongMACAfterRekey`: the chip re-keys, but its first answer under the new keys does not verify.
    @Test func wrongMACAfterTheRekey() throws {
        let key = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .secp256r1), cipher: .tripleDES)
        var terminal = try ProtectedTerminal.open(
            chipAuthenticationKeys: [key], faults: [.chipAuthentication(.wrongMACAfterRekey)])
        let (ephemeral, secret) = try Self.terminalKeyAgreement(with: key.keyPair)
        // The answer to Chip Authentication itself, under the old keys, is sound.
        #expect(try terminal.send(Self.setKAT(ephemeral)).statusWord == .success)
        terminal.session = try ProtectedTerminal.sessionKeys(secret, cipher: .tripleDES)
        #expect(throws: SecureMessagingError.self) {
            try terminal.send(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd))
        }
    }
}
