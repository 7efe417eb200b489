import ChipSimulator
import Testing

@testable import Output

/// The country codes of an MRZ in words: 9303-3's own codes beside ISO 3166-1's, a code outside
/// the table as itself, and the specimen's Utopia in the report and the summary.
@Suite struct CountryNamesTests {
    @Test(arguments: [
        ("D", "Germany (D)"), ("DEU", "Germany (DEU)"), ("NLD", "Netherlands (NLD)"), ("UTO", "Utopia (UTO)"),
        ("GBD", "British Overseas Territories Citizen (GBD)"), ("XXA", "stateless person (XXA)"),
    ])
    func aKnownCodeIsNamed(code: String, described: String) {
        #expect(CountryNames.described(code) == described)
    }

    @Test(arguments: ["QQQ", "ZZ", "", "utO", "<<<"])
    func anUnknownCodeIsItself(code: String) {
        #expect(CountryNames.name(of: code) == nil)
        #expect(CountryNames.described(code) == code)
    }

    @Test func everyCodeIsOnceAndOneToThreeLetters() {
        let codes = CountryNames.table.map(\.code)
        #expect(
            Set(codes).count == codes.count, "a code twice: \(codes.filter { code in codes.count { $0 == code } > 1 })")
        for code in codes {
            #expect((1...3).contains(code.count) && code.allSatisfy { ("A"..."Z").contains($0) }, "bad code \(code)")
        }
        for entry in CountryNames.table { #expect(!entry.name.isEmpty, "no name for \(entry.code)") }
        // ISO 3166-1 has 249 alpha-3 codes, all three letters.
        #expect(CountryNames.iso3166.count == 249 && CountryNames.iso3166.allSatisfy { $0.code.count == 3 })
    }

    @Test func theSpecimenShowsUtopia() throws {
        let document = try HTMLReportTests.read(try Specimen.generate())
        let page = HTMLReportTests.page(document)
        #expect(page.contains("<tr><th>Nationality</th><td>Utopia (UTO)</td></tr>"))
        #expect(page.contains("<tr><th>Issuing state</th><td>Utopia (UTO)</td></tr>"))
        #expect(page.contains("L898902C · Utopia (UTO)</p>"))
        let lines = textSummary(of: document, elapsed: .seconds(1)).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("holder:") && $0.hasSuffix(", Utopia (UTO)") })
        #expect(lines.contains { $0.hasPrefix("document:") && $0.contains("issued by Utopia (UTO),") })
    }
}
