import AccessControl
import ChipSimulator
import Foundation
import ICAO
import Testing

@testable import Emrtd

/// What the reader takes from its caller rather than from the machine: the clock certificates
/// are checked at, the chip access preferences, and one debug log for every step.
@Suite struct ReaderSeamTests {
    static func reader(
        _ specimen: Specimen, chipAccess: StandardChipAccess = StandardChipAccess(),
        clock: @escaping @Sendable () -> Date
    ) throws -> EmrtdReader {
        try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: [Data(specimen.countrySigningCertificate)],
                debug: true),
            chipAccess: chipAccess, clock: clock)
    }

    /// The specimen's chip with its keys (Chip and Active Authentication) but no PACE, so BAC opens it.
    static func chipWithoutPACE(_ specimen: Specimen) -> SimulatedChip {
        var credentials = specimen.credentials
        credentials.paceOffers = []
        return SimulatedChip(configuration: ChipConfiguration(files: specimen.files, credentials: credentials))
    }

    /// The specimen's test PKI is made now and valid for a few years: read at the real time the
    /// data is authenticated; read with a clock 50 years on, the same chip's chain has expired.
    @Test func certificatesAreCheckedAtTheInjectedTime() throws {
        let specimen = try Specimen.generate()
        let now = try Self.reader(specimen) { Date() }.read(
            transport: Self.chipWithoutPACE(specimen), accessKey: OrchestrationTests.accessKey)
        #expect(now.authenticationStatus.data.status == .authenticated)
        let later = try Self.reader(specimen) { Date().addingTimeInterval(50 * 365 * 86400) }.read(
            transport: Self.chipWithoutPACE(specimen), accessKey: OrchestrationTests.accessKey)
        #expect(later.authenticationStatus.data.status == .denied)
        #expect(later.authenticationStatus.data.certificateChainValid == false)
    }

    @Test func chipAccessAndTheReadPlanLogToTheReadsDebugLog() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(specimen) { Date() }.read(
            transport: Self.chipWithoutPACE(specimen), accessKey: OrchestrationTests.accessKey)
        let log = document.debugInfo.events.map(\.message)
        #expect(log.contains("no EF.CardAccess: the chip offers no PACE"), "\(log)")
        #expect(log.contains("BAC established"), "\(log)")
        #expect(log.contains { $0.hasPrefix("read plan: dg14 dg1 dg2") }, "\(log)")
    }

    /// A terminal that must not fall back to BAC gets an access control error, and the chip sees
    /// no BAC attempt (no GET CHALLENGE).
    @Test func withoutBACFallbackABACChipIsNotOpened() throws {
        let specimen = try Specimen.generate()
        let chip = SimulatedChip(files: specimen.files)
        let strict = StandardChipAccess(preferences: ChipAccessPreferences(allowsBACFallback: false))
        #expect {
            try Self.reader(specimen, chipAccess: strict) { Date() }.read(
                transport: chip, accessKey: OrchestrationTests.accessKey)
        } throws: { ($0 as? ReadError)?.kind == .accessControl }
        // SELECT MF and SELECT EF.CardAccess only.
        #expect(chip.statistics.exchanges == 2)
    }
}
