import ASN1
import ICAO
import MRZ
import TestSupport
import Testing
import Transport

@testable import AccessControl

/// How the chip access procedure goes from one PACE offer to the next, to BAC, or stops.
@Suite struct PACEChipAccessTests {
    static let example = WorkedExample.genericMappingECDH

    /// A wrong password: the chip answers 6300 to the terminal's token. PACE's verdict stands: no
    /// other offer, no BAC.
    @Test func aWrongPasswordIsAccessDeniedNamingPACEAndTheStatusWord() throws {
        let example = Self.example
        let transport = ScriptedTransport(
            readingCardAccess(example.cardAccess) + example.steps.dropLast()
                + [.exchange(example.generalAuthenticate[3].command, "6300")])
        #expect {
            try ChipAccess.open(transport, accessKey: example.accessKey, random: .replaying(example.random))
        } throws: { error in
            guard let error = error as? AccessControlError else { return false }
            return error.code == .accessDenied && error.accessProtocol == .pace
                && error.statusWord == .verificationFailed
                && error.description.hasPrefix("PACE failed: the chip refused the authentication token (6300")
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// The chip refuses the first offer's MSE:Set AT (6A80): the next offer (G.1's) opens it.
    @Test func anOfferRefusedAtMSESetATMovesOnToTheNext() throws {
        let example = Self.example
        let cardAccess = DER.set(
            [("0.4.0.127.0.7.2.2.4.2.4", 13), ("0.4.0.127.0.7.2.2.4.2.2", 13)].map { oid, parameterId in
                DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier(stringLiteral: oid)), DER.integer(2),
                    DER.integer(parameterId),
                ])
            })
        let chip = ChipSide(try example.session())
        let log = LogLines()
        let transport = ScriptedTransport(
            readingCardAccess(cardAccess)
                + [exchange(setAuthenticationTemplate(family: 2, cipher: 4, parameterId: 13), status(0x6A80))]
                + example.steps
                + [chip.step(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd), ok())])
        let session = try ChipAccess.open(
            transport, accessKey: example.accessKey, random: .replaying(example.random), log: log.append)
        #expect(session.access.paceMapping == .genericMapping)
        #expect(session.secureChannel?.currentSession.cipher == .aes128)
        #expect(session.warnings.isEmpty)
        #expect(
            log.lines.contains(
                "PACE with id-PACE-ECDH-GM-AES-CBC-CMAC-256 failed before mutual authentication: "
                    + "the chip refused MSE:Set AT (\(StatusWord.incorrectData))"),
            "\(log.lines)")
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A CAN on a document without EF.CardAccess: nothing to open it with.
    @Test func aCANOnADocumentWithoutPACEIsNotSupported() throws {
        let transport = ScriptedTransport([
            .exchange(ChipAccessTests.selectMasterFile, "9000"),
            .exchange(ChipAccessTests.selectCardAccess, "6A82"),
        ])
        #expect {
            try ChipAccess.open(transport, accessKey: .can(value: "123456"))
        } throws: { error in
            guard let error = error as? AccessControlError else { return false }
            return error.code == .notSupported && error.reason.hasPrefix("the document has no PACE")
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A CAN where every offer failed: the last offer's error, no BAC (it needs the MRZ).
    @Test func aCANWhoseOffersAllFailGetsTheLastError() throws {
        let example = Self.example
        let transport = ScriptedTransport(
            readingCardAccess(example.cardAccess) + [
                .exchange("0022C1A412800A04007F0007020204020283010284010D", "6A88")
            ])
        #expect {
            try ChipAccess.open(transport, accessKey: .can(value: "123456"))
        } throws: { error in
            guard let error = error as? AccessControlError else { return false }
            return error.code == .notSupported && error.accessProtocol == .pace
                && error.statusWord == .referencedDataNotFound
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// The card leaves during PACE: the procedure stops with the link's error, no other offer, no BAC.
    @Test func aLostCardDuringPACEEndsTheProcedure() throws {
        let example = Self.example
        let transport = ScriptedTransport(
            readingCardAccess(example.cardAccess) + [
                .exchange(example.setAuthenticationTemplate, "9000"),
                .failure(example.generalAuthenticate[0].command, .TagLost),
            ])
        #expect {
            try ChipAccess.open(transport, accessKey: example.accessKey, random: .replaying(example.random))
        } throws: { error in
            guard let error = error as? AccessControlError else { return false }
            return error.code == .transport && error.accessProtocol == .pace && error.transportError == .TagLost
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }
}
