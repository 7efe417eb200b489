import Foundation
import Testing

@testable import CMS

/// `masterlist/SOURCES` as the trust store reads it: the lists' signing times, and the warning
/// once the newest is more than 180 days old (checked at fixed times, never the clock).
@Suite struct BundleSourcesTests {
    static let text = """
        prose about the lists, ignored
        list  DE.ml  DE_ROOT.cer  2026-05-28T06:28:45Z
        list  ICAO.ml  sha256:920693cd1283824ffdf48a3579fc35528122f3de46bab2ecdaef402db6d92e4e  2025-07-23T14:13:21Z
        """

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
            year: year, month: month, day: day
        ).date ?? .distantPast
    }

    @Test func theListLinesAreRead() throws {
        let sources = try BundleSources(text: Self.text)
        #expect(sources.lists.map(\.file) == ["DE.ml", "ICAO.ml"])
        #expect(sources.lists.last?.root.hasPrefix("sha256:") == true)
        #expect(sources.newestSigningTime == Self.day(2026, 5, 28).addingTimeInterval(6 * 3600 + 28 * 60 + 45))
    }

    @Test func theNewestListOlderThan180DaysIsSaid() throws {
        let sources = try BundleSources(text: Self.text)
        #expect(sources.freshnessWarning(at: Self.day(2026, 11, 20)) == nil)
        let warning = sources.freshnessWarning(at: Self.day(2026, 12, 1))
        #expect(
            warning?.hasPrefix("the newest master list in the trust bundle was signed 2026-05-28, 186 days ago") == true
        )
    }

    @Test func aMalformedListLineIsRefused() {
        #expect(throws: CMSError.self) { try BundleSources(text: "list  DE.ml  DE_ROOT.cer  yesterday") }
    }

    /// `emrtd trust update`'s lines: deviation lists with their signing times, one PKD download;
    /// neither counts towards the lists' age.
    @Test func deviationAndDownloadLinesAreRead() throws {
        let sources = try BundleSources(
            text: Self.text + "\ndeviations  UT.dl  2026-11-01T00:00:00Z\npkd  icaopkd-001.ldif\n")
        #expect(sources.deviationLists.map(\.file) == ["UT.dl"])
        #expect(sources.deviationLists.first?.signingTime == Self.day(2026, 11, 1))
        #expect(sources.download == "icaopkd-001.ldif")
        #expect(sources.newestSigningTime == Self.day(2026, 5, 28).addingTimeInterval(6 * 3600 + 28 * 60 + 45))
        #expect(throws: CMSError.self) { try BundleSources(text: "deviations  UT.dl") }
        #expect(throws: CMSError.self) { try BundleSources(text: "pkd  a.ldif\npkd  b.ldif") }
    }
}
