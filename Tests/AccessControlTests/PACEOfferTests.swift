import ASN1
import ICAO
import LDS
import Synchronization
import Testing
import Transport

@testable import AccessControl

/// Which of EF.CardAccess's PACE offers the chip access procedure tries, and in which order.
@Suite struct PACEOfferTests {
    /// `PACEInfo ::= SEQUENCE { protocol, version 2, parameterId }`, one per offer, in a SET as
    /// EF.CardAccess holds them (here in no useful order).
    static let cardAccess: [UInt8] = DER.set(
        [
            ("0.4.0.127.0.7.2.2.4.2.2", 13),  // ECDH-GM-AES-128, brainpoolP256r1
            ("0.4.0.127.0.7.2.2.4.4.1", 12),  // ECDH-IM-3DES, P-256
            ("0.4.0.127.0.7.2.2.4.6.4", 13),  // ECDH-CAM-AES-256
            ("0.4.0.127.0.7.2.2.4.1.1", 0),  // DH-GM-3DES, MODP 1024
            ("0.4.0.127.0.7.2.2.4.2.4", 16),  // ECDH-GM-AES-256, brainpoolP384r1
            ("0.4.0.127.0.7.2.2.4.6.1", 13),  // CAM with 3DES: 9303-11 defines none
            ("0.4.0.127.0.7.2.2.4.5.2", 13),  // an arc 9303-11 does not assign
        ].map { oid, parameterId in
            DER.sequence([
                DER.objectIdentifier(ASN1ObjectIdentifier(stringLiteral: oid)), DER.integer(2),
                DER.integer(parameterId),
            ])
        })

    static func offers(_ preferences: ChipAccessPreferences) throws -> [String] {
        let infos = try SecurityInfos(cardAccess, kind: .cardAccess)
        return PACEOffer.offers(in: infos, preferences: preferences).map(\.description)
    }

    @Test func strongestFirstCAMThenGMThenIMAndAESBefore3DES() throws {
        #expect(
            try Self.offers(ChipAccessPreferences()) == [
                "id-PACE-ECDH-CAM-AES-CBC-CMAC-256, parameters 13 (brainpoolP256r1)",
                "id-PACE-ECDH-GM-AES-CBC-CMAC-256, parameters 16 (brainpoolP384r1)",
                "id-PACE-ECDH-GM-AES-CBC-CMAC-128, parameters 13 (brainpoolP256r1)",
                "id-PACE-DH-GM-3DES-CBC-CBC, parameters 0 (modp1024-160 (RFC 5114))",
                "id-PACE-ECDH-IM-3DES-CBC-CBC, parameters 12 (secp256r1)",
            ])
    }

    @Test func preferencesChooseTheMappingsAndTheirOrder() throws {
        #expect(
            try Self.offers(ChipAccessPreferences(paceMappings: [.integratedMapping, .chipAuthenticationMapping])) == [
                "id-PACE-ECDH-IM-3DES-CBC-CBC, parameters 12 (secp256r1)",
                "id-PACE-ECDH-CAM-AES-CBC-CMAC-256, parameters 13 (brainpoolP256r1)",
            ])
        #expect(try Self.offers(ChipAccessPreferences(paceMappings: [])).isEmpty)
    }

    /// The offers reach the read's log; BAC then runs (PACE is not written yet), with the warning.
    @Test func theChipAccessProcedureLogsTheOffersItWouldTry() throws {
        let log = LogLines()
        let transport = ScriptedTransport([
            .exchange(ChipAccessTests.selectMasterFile, "9000"),
            exchange(select(0x011C), ok()),
            exchange(readBinary(0, 4), ok(Array(Self.cardAccess[0..<4]))),
            exchange(
                readBinary(4, Self.cardAccess.count - 4), ok(Array(Self.cardAccess[4...]))),
            .exchange(ChipAccessTests.selectApplication, "9000"),
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
        ])
        let session = try ChipAccess.open(
            transport, accessKey: AppendixD.accessKey(), random: AppendixD.fixedRandom, log: log.append)
        #expect(session.access == .bac)
        #expect(session.warnings == ["EF.CardAccess is present (PACE offered) but this reader uses BAC"])
        #expect(log.lines.first?.hasPrefix("EF.CardAccess: \(Self.cardAccess.count) bytes; PACE offers to try") == true)
        #expect(log.lines.first?.contains("id-PACE-ECDH-CAM-AES-CBC-CMAC-256, parameters 13") == true)
        #expect(log.lines.last == "BAC established")
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A terminal that never uses BAC stops before sending anything for it.
    @Test func withoutBACFallbackAPACEOnlyTerminalStops() throws {
        let transport = ScriptedTransport([
            .exchange(ChipAccessTests.selectMasterFile, "9000"),
            exchange(select(0x011C), ok()),
            exchange(readBinary(0, 4), ok(Array(Self.cardAccess[0..<4]))),
            exchange(readBinary(4, Self.cardAccess.count - 4), ok(Array(Self.cardAccess[4...]))),
        ])
        #expect {
            try ChipAccess.open(
                transport, accessKey: AppendixD.accessKey(),
                preferences: ChipAccessPreferences(allowsBACFallback: false),
                random: AppendixD.fixedRandom)
        } throws: { ($0 as? AccessControlError)?.code == .notSupported }
        #expect(transport.isComplete, "\(transport.failures)")
    }
}

/// Collects log lines from any thread.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    @Sendable func append(_ line: String) { storage.withLock { $0.append(line) } }
}
