import ASN1
import ICAO
import TestSupport
import Testing
import Transport

@testable import AccessControl

/// PACE with 3DES (3DES-CBC nonce, retail-MAC tokens, 3DES secure messaging with an 8-byte SSC 0)
/// against `TripleDESPACEChip`, on secp256r1.
@Suite struct TripleDESPACETests {
    static let cardAccess = DER.set([
        DER.sequence([DER.objectIdentifier(TripleDESPACEChip.protocolIdentifier), DER.integer(2), DER.integer(12)])
    ])
    /// The terminal's mapping and ephemeral private keys.
    static let random: [UInt8] = [UInt8](repeating: 0x11, count: 32) + [UInt8](repeating: 0x22, count: 32)

    @Test func genericMappingWith3DESOpensTheChip() throws {
        let chip = try TripleDESPACEChip(mrzInformation: AppendixD.mrzInformation)
        let transport = ScriptedTransport(readingCardAccess(Self.cardAccess) + chip.steps + [chip.selectApplication])
        let session = try ChipAccess.open(transport, accessKey: AppendixD.accessKey(), random: .replaying(Self.random))
        #expect(transport.isComplete, "\(transport.failures)")
        let paceProtocol = try #require(PACEProtocol(TripleDESPACEChip.protocolIdentifier))
        let chipKey = try #require(session.access.paceResult?.chipEphemeralPublicKey)
        #expect(chipKey.count == 65 && chipKey.first == 0x04)
        #expect(
            session.access
                == .pace(
                    PACEResult(
                        paceProtocol: paceProtocol, parameterId: 12, password: .mrz, chipEphemeralPublicKey: chipKey)
                ))
        let chipSession = try #require(chip.session)
        #expect(session.secureChannel?.currentSession.encryptionKey == chipSession.encryptionKey)
        #expect(session.secureChannel?.currentSession.macKey == chipSession.macKey)
        #expect(session.secureChannel?.currentSession.sendSequenceCounter == chipSession.sendSequenceCounter)
    }

    /// The reader holds another document's MRZ: the nonce decrypts to another value, the keys
    /// differ, and the chip refuses the terminal's token with 6300.
    @Test func aWrongMRZIsRefusedByTheChip() throws {
        let chip = try TripleDESPACEChip(mrzInformation: AppendixD.mrzInformation)
        let transport = ScriptedTransport(readingCardAccess(Self.cardAccess) + chip.steps)
        #expect {
            try ChipAccess.open(
                transport, accessKey: WorkedExample.genericMappingECDH.accessKey, random: .replaying(Self.random))
        } throws: { error in
            guard let error = error as? AccessControlError else { return false }
            return error.code == .accessDenied && error.accessProtocol == .pace
                && error.statusWord == .verificationFailed
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }
}
