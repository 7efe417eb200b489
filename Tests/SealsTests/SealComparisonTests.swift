import MRZ
import Seals
import Testing

/// The seal against the page that carries it and the chip it belongs to.
struct SealComparisonTests {
    let visaPage = ["VCD<<DENT<<ARTHUR<PHILIP<<<<<<<<<<<<", "1234567XY7GBR5203116M2005250<<<<<<<<"]

    /// A visa's seal leaves the second line's optional data out: the page's is taken.
    @Test func visaMatchesItsPage() throws {
        let comparison = try #require(
            SealComparison(seal: seal(SealVectors.madeVisa), page: MachineReadableZone.parse(lines: visaPage)))
        #expect(comparison.matches, "\(comparison.differences)")
        #expect(comparison.json["against"] == "page")
    }

    @Test func anotherNameOnThePage() throws {
        var page = visaPage
        page[0] = "VCD<<DENT<<ARTHUR<PETER<<<<<<<<<<<<<"
        let comparison = try #require(
            SealComparison(seal: seal(SealVectors.madeVisa), page: MachineReadableZone.parse(lines: page)))
        #expect(comparison.differences.map(\.field) == ["secondaryIdentifier"])
        #expect(comparison.differences.first?.seal == "ARTHUR PHILIP")
    }

    /// The visa names the passport it is in; the chip is another passport.
    @Test func passportNumberAgainstTheChip() throws {
        let chip = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ])
        let comparison = try #require(SealComparison(seal: seal(SealVectors.madeVisa), chip: chip))
        #expect(comparison.differences.map(\.field) == ["documentNumber"])
        #expect(comparison.differences.map(\.seal) == ["47110815P"])
        #expect(comparison.differences.map(\.other) == ["L898902C3"])
        let vdsnc = try #require(SealComparison(seal: seal(SealVectors.madeVDSNC), chip: chip))
        #expect(vdsnc.differences.map(\.seal) == ["A1234567Z"])
    }
}
