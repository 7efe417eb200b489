import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import AccessControl

/// ICAO 9303-11 Appendices G, H and I replayed against the reader: with the examples' random
/// bytes it sends the published GENERAL AUTHENTICATE commands byte for byte (tokens included) and
/// derives the published session keys.
@Suite struct PACEWorkedExampleTests {
    static func replay(_ example: WorkedExample) throws -> (session: SecureMessagingSession, result: PACEResult) {
        let transport = ScriptedTransport(example.steps)
        let established = try PasswordAuthenticatedConnectionEstablishment.establish(
            example.offer, cardAccess: example.securityInfos(), accessKey: example.accessKey, over: transport,
            random: .replaying(example.random))
        #expect(transport.isComplete, "\(transport.failures)")
        #expect(established.session.encryptionKey.secret.withUnsafeBytes { Array($0) } == example.ksEnc)
        #expect(established.session.macKey.secret.withUnsafeBytes { Array($0) } == example.ksMac)
        #expect(established.session.sendSequenceCounter == [UInt8](repeating: 0, count: 16))
        #expect(established.result.paceProtocol == example.offer.paceProtocol)
        #expect(established.result.parameterId == example.parameterId)
        return established
    }

    @Test func appendixG1GenericMappingECDH() throws {
        let established = try Self.replay(.genericMappingECDH)
        #expect(established.result.password == .mrz)
        #expect(established.result.chipAuthenticationMapping == nil)
    }

    @Test func appendixG2GenericMappingDH() throws {
        #expect(try Self.replay(.genericMappingDH).result.password == .mrz)
    }

    @Test func appendixH1IntegratedMappingECDH() throws {
        #expect(try Self.replay(.integratedMappingECDH).result.password == .can)
    }

    @Test func appendixH2IntegratedMappingDH() throws {
        #expect(try Self.replay(.integratedMappingDH).result.password == .can)
    }

    /// I.1 also hands over CA_IC, decrypted from A_IC with IV = E(KSenc, all-ones block), and the
    /// chip's mapping key PK_Map,IC, for the verification after EF.CardSecurity.
    @Test func appendixI1ChipAuthenticationMapping() throws {
        let established = try Self.replay(.chipAuthenticationMapping)
        #expect(
            established.result.chipAuthenticationMapping
                == ChipAuthenticationMappingData(
                    authenticationData: hex("85DC3FA93D0952BFA82F5FD189EE75BD82F11D1F0B8ED4BF5319AC9B53C426B3"),
                    chipMappingPublicKey: hex(
                        "04A234236AA9B9621E8EFB73B5245C0E09D2576E5277183C1208BDD55280CAE8B3"
                            + "04F365713A356E65A451E165ECC9AC0AC46E3771342C8FE5AEDD092685338E23")))
    }

    /// K_π from the MRZ information (SHA-1, then KDF_π) and from a CAN (its digits), as G.1 and
    /// H.1 give them.
    @Test func passwordKeysFromTheMRZAndFromACAN() throws {
        let mrz = PasswordAuthenticatedConnectionEstablishment.passwordKey(
            WorkedExample.genericMappingECDH.accessKey, cipher: .aes128)
        #expect(mrz.secret.withUnsafeBytes { Array($0) } == hex("89DED1B26624EC1E634C1989302849DD"))
        let can = PasswordAuthenticatedConnectionEstablishment.passwordKey(try .can(value: "123456"), cipher: .aes128)
        #expect(can.secret.withUnsafeBytes { Array($0) } == hex("591468CDA83D65219CCCB8560233600F"))
    }

    /// R(s, t) of H.1 (three AES blocks for a 256-bit prime) and H.2 (nine for 1024 bits).
    @Test func integratedMappingPseudoRandomFunction() throws {
        let h1 = try PACEPseudoRandomFunction.output(
            chipNonce: SecretBytes(hex("2923BE84E16CD6AE529049F1F1BBE9EB")),
            terminalNonce: SecretBytes(hex("5DD4CBFC96F5453B130D890A1CDBAE32")), cipher: .aes128, primeBits: 256)
        #expect(
            h1.withUnsafeBytes { Array($0) }
                == hex(
                    "E4447E2DFB3586BAC05DDB00156B57FBB2179A3949294C97254189800C517BAA"
                        + "8DA0FF397ED8C445D3E421E4FEB57322"))
        let h2 = try PACEPseudoRandomFunction.output(
            chipNonce: SecretBytes(hex("FA5B7E3E49753A0DB9178B7B9BD898C8")),
            terminalNonce: SecretBytes(hex("B3A6DB3C870C3E99245E0D1C06B747DE")), cipher: .aes128, primeBits: 1024)
        #expect(h2.count == 9 * 16)
        #expect(
            h2.withUnsafeBytes { Array($0.prefix(16)) } == hex("EAB98D13E09052952AA729907C3C9461"))
    }

    /// The whole chip access with G.1: EF.CardAccess, PACE, then SELECT of the eMRTD application
    /// under the new session (SSC 0, AES).
    @Test func chipAccessOpensWithPACEAndSelectsTheApplicationUnderSecureMessaging() throws {
        let example = WorkedExample.genericMappingECDH
        let chip = ChipSide(try example.session())
        let cardAccess = example.cardAccess
        let log = LogLines()
        let transport = ScriptedTransport(
            [
                .exchange(ChipAccessTests.selectMasterFile, "9000"),
                exchange(select(0x011C), ok()),
                exchange(readBinary(0, 4), ok(Array(cardAccess[0..<4]))),
                exchange(readBinary(4, cardAccess.count - 4), ok(Array(cardAccess[4...]))),
            ] + example.steps + [
                chip.step(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd), ok())
            ])
        let session = try ChipAccess.open(
            transport, accessKey: example.accessKey, random: .replaying(example.random), log: log.append)
        // PK_PICC as the chip sent it (an uncompressed point), for Terminal Authentication's ID_PICC.
        let chipKey = try #require(session.access.paceResult?.chipEphemeralPublicKey)
        #expect(chipKey.count == 65 && chipKey.first == 0x04)
        #expect(
            session.access
                == .pace(
                    PACEResult(
                        paceProtocol: example.offer.paceProtocol, parameterId: 13, password: .mrz,
                        chipEphemeralPublicKey: chipKey)))
        #expect(session.warnings.isEmpty)
        #expect(session.cardAccess == cardAccess)
        #expect(session.secureChannel?.currentSession.sendSequenceCounter.last == 2)
        #expect(log.lines.last?.hasPrefix("PACE established") == true, "\(log.lines)")
        #expect(transport.isComplete, "\(transport.failures)")

        // No secret of the run reaches the log: K_π, s, both private keys, H, K, KSenc, KSmac.
        let secrets = [
            "89DED1B26624EC1E634C1989302849DD", "3F00C4D39D153F2B2A214A078D899B22",
            "7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99",
            "A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595",
            "60332EF2450B5D247EF6D3868397D398852ED6E8CAF6FFEEF6BF85CA57057FD5",
            "28768D20701247DAE81804C9E780EDE582A9996DB4A315020B2733197DB84925",
            "F5F0E35C0D7161EE6724EE513A0D9A7F", "FE251C7858B356B24514B3BD5F4297D1",
        ]
        let text = log.lines.joined(separator: "\n").uppercased()
        for secret in secrets {
            #expect(!text.contains(secret.prefix(16)), "\(secret) in the log")
        }
    }

    /// The BSI worked example for EAC (v1.01, ECDH: GM on brainpoolP256r1, AES-128, the PIN
    /// "123456" whose K_π a CAN "123456" shares; `bsi_eac_worked_example_ecdh` in the vectors) with
    /// its real EF.CardAccess (PACE, Chip Authentication and Terminal Authentication infos): the
    /// offer comes from the file, the commands from the example's keys and tokens, and the session
    /// selects the application under the example's KSenc and KSmac.
    @Test func bsiWorkedExampleWithItsEFCardAccess() throws {
        let cardAccess = hex(
            "3181C6300D060804007F00070202020201023012060A04007F00070202030202"
                + "0201020201013012060A04007F0007020204020202010202010D301C06090400"
                + "7F000702020302300C060704007F0007010202010D020101302F060804007F00"
                + "07020206162368747470733A2F2F7777772E686A702D636F6E73756C74696E67"
                + "2E636F6D2F686F6D65303E060804007F000702020831323012060A04007F0007"
                + "0202030202020102020102301C060904007F000702020302300C060704007F00"
                + "07010202010D020102")
        let session = try SecureMessagingSession(
            encryptionKey: SymmetricKey(.aes128, bytes: hex("68406B4162100563D9C901A6154D2901")),
            macKey: SymmetricKey(.aes128, bytes: hex("73FF268784F72AF833FDC9464049AFC9")))
        let chip = ChipSide(session)
        let transport = ScriptedTransport(
            readingCardAccess(cardAccess) + [
                .exchange("0022C1A412800A04007F0007020204020283010284010D", "9000"),
                .exchange("10860000027C0000", "7C128010CE834CDE69FFBB1D1EB21585CD709F189000"),
                .exchange(
                    "10860000457C438141"
                        + "043DD29BBE5907FD21A152ADA4895FAAE7ACC55F5E50EFBFDE5AB0C6EB54F198"
                        + "D615913635F0FDF5BEB383E00355F82D3C41ED0DF2E28363433DFB73856A15DC"
                        + "9F" + "00",
                    "7C438241"
                        + "049CFCF7582AC986D0DD52FA53123414C3E1B96B4D00ABA8E574679B70EFB5BC"
                        + "3B45D2F13729CC2AE178E7E241B443213533B77DBB44649A815DDC4A2384BA42"
                        + "2A" + "9000"),
                .exchange(
                    "10860000457C438341"
                        + "04518BC4E532AD2A9BD6527804D5D665ABD51041037A0CC8AA922804EB501C22"
                        + "2B3427388599AFAAE9FBACE2DF93E13C3C4979CD12F0AE3E3C01260283915545"
                        + "82" + "00",
                    "7C438441"
                        + "04282CF38073036AFAC216AF135BD994DA0C357F10BD4C34AFEA1042B2EB0FD6"
                        + "804DF3658B835AC2E7133F13691184542BB50B109963A4662ABDC08B9763AF4B"
                        + "5B" + "9000"),
                .exchange("008600000C7C0A8508A27AE7B36573C1D900", "7C0A8608A2658C2F38600B0F9000"),
                chip.step(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd), ok()),
            ])
        let opened = try ChipAccess.open(
            transport, accessKey: .can(value: "123456"),
            random: .replaying(
                hex("752287F5B02DE3C4BC3E17945118C51B23C97278E4CD748048AC56BA5BDC3D46")
                    + hex("9D9A32DF93A57CCE33CA3CDD3457E33A976F293546C73550F397259C93BE0120")))
        #expect(opened.access.paceMapping == .genericMapping)
        #expect(opened.secureChannel?.currentSession.encryptionKey == session.encryptionKey)
        #expect(transport.isComplete, "\(transport.failures)")
    }
}
