import ASN1
import AccessControl
import CEAC
import ChipSimulator
import Emrtd
import Foundation
import ICAO
import MRZ

/// `emrtd-bench pace`: complete PACE sessions per second, both sides in memory, per mapping and
/// standardized parameter set.
///
/// emrtd: the reader's chip access procedure (`ChipAccess.open` with a CAN: SELECT MF, EF.CardAccess
/// read and parsed, MSE:Set AT, the four GENERAL AUTHENTICATE steps, SELECT of the application
/// under the new secure messaging) against the simulator's chip (`SimulatedChip`, reset before each
/// session) over its `APDUTransport`: every APDU is encoded, decoded and answered.
///
/// OpenPACE (libeac): a terminal and a card context from the same EF.CardAccess and the PACE_STEP*
/// functions passing buffers to each other (`ceac_pace_session` in `CEAC/shim.h`): the same
/// cryptography on both sides (nonce, mapping, key agreement, KDF, both tokens computed and
/// verified) without APDUs, chip file system or the SELECT under secure messaging. Where the two
/// differ in substance:
/// - OpenPACE 1.1.2 has no Chip Authentication Mapping: the CAM rows' reference is its Generic
///   Mapping on the same curve and cipher (CAM is GM plus the chip's encrypted CA data).
/// - Its Integrated Mapping is TR-03110 2.01's (run with `tr_version` 2.01, since 2.02 dropped it):
///   for ECDH that is Icart's point encoding, not 9303-11's, and it refuses curves with
///   p ≡ 1 mod 3 (secp256r1, brainpoolP384r1): those rows print our figure alone.
/// - For DH, every OpenPACE context runs `DH_check` (primality of p and q) on the RFC 5114 group
///   when it reads EF.CardAccess (about 230 ms for both): the DH rows' reference is dominated by
///   those tests, so each DH row is followed by one whose reference makes its two contexts once
///   and reuses them (its PACE steps alone; ours still does the whole session).
let paceSuite = Suite(
    name: "pace",
    title: "pace: PACE sessions/s, reader ChipAccess.open vs the simulated chip in memory, "
        + "vs OpenPACE PACE_STEP* terminal and card contexts (CAM rows: OpenPACE GM, it has no CAM)",
    takesParameterIDs: true
) { run in
    EAC_init()
    let can = "123456"
    let accessKey = try AccessPassword.can(value: can)
    for row in paceRows
    where run.options.parameterIDs.map({ $0.contains(row.parameters.id) }) ?? true {
        guard let paceProtocol = PACEProtocol(mapping: row.mapping, keyAgreement: row.keyAgreement, cipher: row.cipher),
            let offer = ChipSimulator.PACEOffer(paceProtocol, parameters: row.parameters),
            let referenceProtocol = PACEProtocol(
                mapping: row.mapping == .integratedMapping ? .integratedMapping : .genericMapping,
                keyAgreement: row.keyAgreement, cipher: row.cipher)
        else { throw BenchFailure("\(row) is no PACE protocol") }
        var configuration = ChipConfiguration(files: ChipFiles())
        configuration.credentials.can = CardAccessNumber(can)
        try configuration.offerPACE([offer], only: true)
        let chip = SimulatedChip(configuration: configuration)
        let preferences = ChipAccessPreferences(allowsBACFallback: false)
        // OpenPACE's EF.CardAccess: one PACEInfo (protocol, version 2, parameter ID).
        let cardAccess = DER.set([
            DER.sequence([
                DER.objectIdentifier(referenceProtocol.identifier), DER.integer(2), DER.integer(row.parameters.id),
            ])
        ])
        let integrated: Int32 = row.mapping == .integratedMapping ? 1 : 0
        guard let secret = ceac_pace_can(can, can.utf8.count) else { throw BenchFailure("OpenPACE: no PACE_SEC") }
        defer { ceac_pace_secret_free(secret) }
        func ours() -> Bool {
            chip.reset()
            guard let session = try? ChipAccess.open(chip, accessKey: accessKey, preferences: preferences),
                session.access.paceResult?.paceProtocol == paceProtocol
            else { return false }
            return true
        }
        func openPACE() -> Bool {
            ceac_pace_session(cardAccess, cardAccess.count, secret, integrated) == 1
        }
        guard ours() else { throw BenchFailure("\(row.name): the reader did not open the simulated chip") }
        guard openPACE() else {
            // OpenPACE's Integrated Mapping for ECDH is TR-03110 2.01's (Icart's encoding, which
            // needs p ≡ 2 mod 3): it refuses secp256r1 and brainpoolP384r1. Our figure alone.
            guard row.mapping == .integratedMapping else {
                throw BenchFailure("\(row.name): OpenPACE did not complete a session")
            }
            var failures = 0
            let alone = run.compare(emrtd: { _ in if !ours() { failures += 1 } }, reference: { _ in })
            guard failures == 0 else { throw BenchFailure("\(row.name): \(failures) sessions failed") }
            run.note(
                "\(row.name): emrtd \(String(format: "%.1f", alone.emrtd)) sessions/s; no reference "
                    + "(OpenPACE's Integrated Mapping refuses the curve), not in --json")
            continue
        }
        var failures = 0
        run.compare(
            row.name, unit: "sessions/s",
            emrtd: { _ in if !ours() { failures += 1 } },
            reference: { _ in if !openPACE() { failures += 1 } })
        guard failures == 0 else { throw BenchFailure("\(row.name): \(failures) sessions failed") }
        guard row.keyAgreement == .dh else { continue }
        // OpenPACE's DH contexts spend nearly all of a session testing the group's primes when
        // they read EF.CardAccess: the same row with its two contexts made once and reused (each
        // run overwrites their PACE state), i.e. its PACE arithmetic alone.
        let terminal = ceac_pace_context(cardAccess, cardAccess.count, integrated)
        let card = ceac_pace_context(cardAccess, cardAccess.count, integrated)
        defer {
            ceac_pace_context_free(terminal)
            ceac_pace_context_free(card)
        }
        guard ceac_pace_steps(terminal, card, secret, integrated) == 1 else {
            throw BenchFailure("\(row.name): OpenPACE's reused contexts did not complete a session")
        }
        run.compare(
            "\(row.name) (OpenPACE contexts reused)", unit: "sessions/s",
            emrtd: { _ in if !ours() { failures += 1 } },
            reference: { _ in if ceac_pace_steps(terminal, card, secret, integrated) != 1 { failures += 1 } })
        guard failures == 0 else { throw BenchFailure("\(row.name): \(failures) sessions failed") }
    }
    if run.options.parameterIDs?.contains(13) ?? true { try benchWholeRead(run) }
}

/// One row: a mapping and key agreement on standardized parameters, with the cipher that suits
/// their size.
private struct PACERow: CustomStringConvertible {
    let mapping: PACEMapping
    let keyAgreement: KeyAgreement
    let cipher: BlockCipher
    let parameters: StandardizedDomainParameters

    var name: String { "\(mapping.abbreviation) \(keyAgreement.abbreviation) \(parameters.name) \(cipher)" }
    var description: String { name }
}

private let paceRows: [PACERow] = [PACEMapping.genericMapping, .integratedMapping, .chipAuthenticationMapping]
    .flatMap { mapping in
        let curves: [(StandardizedDomainParameters, BlockCipher)] = [
            (.secp256r1, .aes128), (.brainpoolP256r1, .aes128), (.brainpoolP384r1, .aes192),
            (.brainpoolP512r1, .aes256),
        ]
        let groups: [(StandardizedDomainParameters, BlockCipher)] =
            mapping == .chipAuthenticationMapping
            ? [] : [(.modp2048Subgroup224, .aes128), (.modp2048Subgroup256, .aes128)]
        return curves.map { PACERow(mapping: mapping, keyAgreement: .ecdh, cipher: $0.1, parameters: $0.0) }
            + groups.map { PACERow(mapping: mapping, keyAgreement: .dh, cipher: $0.1, parameters: $0.0) }
    }

/// The whole read of the specimen (EF.CardAccess, access, EF.COM, EF.SOD, DG1, DG2, DG11, DG12,
/// Passive Authentication) over PACE (Generic Mapping, brainpoolP256r1, AES-128) against the same
/// read over BAC, each on a fresh simulated chip behind the link model (424 kbit/s, 3 ms per
/// exchange, charged rather than slept): reads per second counting the reader's time and the time
/// the link charges. Under the table, per read: APDUs, bytes on the link and that link time.
func benchWholeRead(_ run: BenchRun) throws {
    let specimen = try Specimen.generate()
    let accessKey = try AccessPassword.mrz(documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940623")
    let reader = try EmrtdReader(
        config: ReaderConfig(
            useBuiltInAuthorityCertificates: false, authorityCertificates: [Data(specimen.countrySigningCertificate)],
            renderImages: false))
    guard let offer = try? ChipSimulator.PACEOffer(named: "ECDH-GM-AES-128:13") else {
        throw BenchFailure("no PACE offer")
    }
    func chip(pace: Bool) throws -> SimulatedChip {
        // The specimen's keys (Chip and Active Authentication run in both reads), no PACE for BAC.
        var credentials = specimen.credentials
        credentials.paceOffers = []
        var configuration = ChipConfiguration(files: specimen.files, credentials: credentials, link: LinkModel())
        if pace { try configuration.offerPACE([offer]) }
        return SimulatedChip(configuration: configuration)
    }
    /// One read: its wall time on this machine plus the link's charge, and what crossed the link.
    func read(pace: Bool) throws -> (seconds: Double, statistics: LinkStatistics) {
        let card = try chip(pace: pace)
        let start = DispatchTime.now().uptimeNanoseconds
        let document = try reader.read(transport: card, accessPassword: accessKey)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard document.accessControlProtocolUsed == (pace ? .pace : .bac) else {
            throw BenchFailure("the read used \(document.accessControlProtocolUsed.rawValue)")
        }
        let statistics = card.statistics
        let (linkSeconds, attoseconds) = statistics.linkTime.components
        return (elapsed + Double(linkSeconds) + Double(attoseconds) / 1e18, statistics)
    }
    var samples: (pace: [Double], bac: [Double]) = ([], [])
    var last: (pace: LinkStatistics, bac: LinkStatistics)?
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(run.options.seconds * 2e9)
    repeat {
        let pace = try read(pace: true)
        let bac = try read(pace: false)
        samples.pace.append(pace.seconds)
        samples.bac.append(bac.seconds)
        last = (pace.statistics, bac.statistics)
    } while DispatchTime.now().uptimeNanoseconds < deadline || samples.pace.count < 3
    func rate(_ seconds: [Double]) -> Double { Double(seconds.count) / seconds.reduce(0, +) }
    run.record(
        BenchRow(
            name: "whole read PACE GM brainpoolP256r1 (ref: BAC)", emrtd: rate(samples.pace),
            reference: rate(samples.bac), unit: "reads/s"))
    guard let last else { return }
    for (name, statistics) in [("PACE", last.pace), ("BAC", last.bac)] {
        run.note(
            "whole read over \(name): \(statistics.exchanges) APDUs, \(statistics.bytes) bytes, link time "
                + "\(statistics.linkTime.formatted(.units(allowed: [.milliseconds])))")
    }
}
