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
        let infos = try SecurityOptions(cardAccess, kind: .cardAccess)
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

    /// Within one mapping and cipher, the stronger group first: brainpoolP384r1 and P-256 before a
    /// 2048-bit DH group (112 bits), brainpoolP192r1 (96), a 1024-bit DH group (80), the chip's own
    /// parameters last.
    @Test func theStrongerDomainParametersFirst() throws {
        let cardAccess = DER.set(
            [0, 12, 99, 2, 9, 16].map { parameterId in
                DER.sequence([
                    DER.objectIdentifier(
                        ASN1ObjectIdentifier(
                            stringLiteral: parameterId <= 2
                                ? "0.4.0.127.0.7.2.2.4.1.2" : "0.4.0.127.0.7.2.2.4.2.2")),  // DH / ECDH GM AES-128
                    DER.integer(2), DER.integer(parameterId),
                ])
            })
        let infos = try SecurityOptions(cardAccess, kind: .cardAccess)
        let order = PACEOffer.offers(in: infos, preferences: ChipAccessPreferences()).map { $0.parameterId ?? -1 }
        #expect(order == [16, 12, 2, 9, 0, 99])
    }

    @Test func preferencesChooseTheMappingsAndTheirOrder() throws {
        #expect(
            try Self.offers(ChipAccessPreferences(paceMappings: [.integratedMapping, .chipAuthenticationMapping])) == [
                "id-PACE-ECDH-IM-3DES-CBC-CBC, parameters 12 (secp256r1)",
                "id-PACE-ECDH-CAM-AES-CBC-CMAC-256, parameters 13 (brainpoolP256r1)",
            ])
        #expect(try Self.offers(ChipAccessPreferences(paceMappings: [])).isEmpty)
    }

    /// MSE:Set AT for each offer, in the order of `strongestFirstCAMThenGMThenIMAndAESBefore3DES`.
    static let setAuthenticationTemplates = [
        setAuthenticationTemplate(family: 6, cipher: 4, parameterId: 13),
        setAuthenticationTemplate(family: 2, cipher: 4, parameterId: 16),
        setAuthenticationTemplate(family: 2, cipher: 2, parameterId: 13),
        setAuthenticationTemplate(family: 1, cipher: 1, parameterId: 0),
        setAuthenticationTemplate(family: 4, cipher: 1, parameterId: 12),
    ]

    /// The procedure logs the offers, tries each in order (the chip refuses every MSE:Set AT), then
    /// falls back to BAC with a warning that says why PACE failed.
    @Test func theChipAccessProcedureTriesEachOfferInOrderThenFallsBackToBAC() throws {
        let log = LogLines()
        let transport = ScriptedTransport(
            readingCardAccess(Self.cardAccess) + Self.setAuthenticationTemplates.map { exchange($0, status(0x6A80)) }
                + [
                    .exchange(ChipAccessTests.selectApplication, "9000"),
                    .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
                    .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
                ])
        let session = try ChipAccess.open(
            transport, accessKey: AppendixD.accessKey(), random: AppendixD.fixedRandom, log: log.append)
        #expect(session.access == .bac)
        #expect(session.warnings.count == 1)
        #expect(
            session.warnings.first?.hasPrefix(
                "PACE failed before mutual authentication (the chip refused MSE:Set AT (6A80") == true)
        #expect(session.warnings.first?.hasSuffix("; BAC was used instead") == true)
        #expect(log.lines.first?.hasPrefix("EF.CardAccess: \(Self.cardAccess.count) bytes; PACE offers to try") == true)
        #expect(log.lines.first?.contains("id-PACE-ECDH-CAM-AES-CBC-CMAC-256, parameters 13") == true)
        #expect(log.lines.filter { $0.hasPrefix("PACE: trying ") }.count == 5)
        #expect(log.lines.filter { $0.contains("failed before mutual authentication") }.count == 5)
        #expect(log.lines.last == "BAC established")
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A terminal that never uses BAC stops when every offer failed, with the last offer's error.
    @Test func withoutBACFallbackAPACEOnlyTerminalStops() throws {
        let transport = ScriptedTransport(
            readingCardAccess(Self.cardAccess) + Self.setAuthenticationTemplates.map { exchange($0, status(0x6A80)) })
        #expect {
            try ChipAccess.open(
                transport, accessKey: AppendixD.accessKey(),
                preferences: ChipAccessPreferences(allowsBACFallback: false),
                random: AppendixD.fixedRandom)
        } throws: { error in
            let error = error as? AccessControlError
            return error?.code == .notSupported && error?.accessProtocol == .pace
                && error?.statusWord == .incorrectData
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A PACE-only terminal on a chip whose EF.CardAccess offers nothing it tries sends nothing.
    @Test func withoutUsableOffersAPACEOnlyTerminalSendsNothing() throws {
        let transport = ScriptedTransport(readingCardAccess(Self.cardAccess))
        #expect {
            try ChipAccess.open(
                transport, accessKey: AppendixD.accessKey(),
                preferences: ChipAccessPreferences(paceMappings: [], allowsBACFallback: false),
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
