import Foundation
import TestSupport
import Testing

/// The report as the commands write it: `read --report` and `report DIR` give the same answer as
/// `--strict`, with the page compared (`--mrz-lines`), at `--at`, naming what was trusted.
/// (How the page looks in a browser is `OutputTests`' part.)
@Suite struct ReportAnswerCLITests {
    /// Inside the specimen's validity (it expires on 1994-06-23); the simulator signs it then.
    static let inside = ["--at", "1993-06-01"]

    @Test func readReportGivesTheStrictAnswer() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.html")
        let read = ["read", "--simulator", "--no-render", "--strict", "--report", report.path] + Self.inside

        let clean = try Subprocess.run(emrtd, read + ["--mrz-lines"] + VerdictCLITests.specimenLines)
        #expect(clean.status == 0, "the specimen signed at --at passes strict mode: \(clean.combinedOutput)")
        var page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.contains("class=\"answer accepted\"") && page.contains(">Accepted</p>"))
        #expect(page.contains("the simulator specimen&#39;s test CSCA, made for this read"))
        #expect(page.contains("1993-06-01T00:00:00Z") && page.contains("<p id=\"warnings\">None.</p>"))

        let other = try Subprocess.run(emrtd, read + ["--mrz-lines"] + VerdictCLITests.otherHolderLines)
        #expect(other.status == 3, "\(other.combinedOutput)")
        page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.contains("class=\"answer notAccepted\"") && page.contains(">Not accepted</p>"))
        #expect(page.contains("<li>the printed MRZ differs from the chip&#39;s</li>"))
        #expect(page.contains("<tr class=\"differs\"><td>sex</td>"))
        #expect(page.contains("<tr class=\"differs\"><td>secondary identifier</td>"))

        let expired = try Subprocess.run(
            emrtd,
            ["read", "--simulator", "--no-render", "--report", report.path, "--mrz-lines"]
                + VerdictCLITests.specimenLines)
        #expect(expired.status == 0, "\(expired.combinedOutput)")
        page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.contains("<li>the document has expired</li>"))
        #expect(page.contains("<li class=\"warning\">the document expired on 1994-06-23</li>"))
    }

    @Test func reportOfADumpComparesThePageAndNamesItsTrust() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        let report = directory.appendingPathComponent("r.html")
        let made = try Subprocess.run(
            emrtd,
            ["read", "--simulator", "--no-render", "--mrz", "L898902C", "690806", "940623", "--out", dump.path]
                + Self.inside)
        try #require(made.status == 0, "\(made.combinedOutput)")
        let csca = dump.appendingPathComponent("CSCA.der").path
        let base = ["report", dump.path, "--no-builtin", "--csca", csca, "--report", report.path] + Self.inside

        let clean = try Subprocess.run(emrtd, base + ["--mrz-lines"] + VerdictCLITests.specimenLines)
        #expect(
            clean.status == 0 && clean.errorOutput.contains("(data authenticated, accepted)"), "\(clean.combinedOutput)"
        )
        var page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.contains("class=\"answer accepted\"") && page.contains("The printed MRZ matches the chip's."))
        #expect(page.contains("CSCA file (--csca) \(csca) (1 certificate"))

        let other = try Subprocess.run(emrtd, base + ["--mrz-lines"] + VerdictCLITests.otherHolderLines)
        #expect(other.status == 0 && other.errorOutput.contains("not accepted"), "\(other.combinedOutput)")
        page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.contains("<tr class=\"differs\"><td>sex</td>"))

        let wrong = try Subprocess.run(emrtd, base + ["--mrz-lines", "P<UTO"])
        #expect(wrong.status == 2 && wrong.errorOutput.contains("--mrz-lines is not a valid MRZ"))
    }

    /// The folder judged chooses no trust anchor: a dump carrying its own (forged) CSCA is not
    /// accepted until the user names that certificate.
    @Test func aDumpsOwnCSCAIsNotTrusted() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        let report = directory.appendingPathComponent("r.html")
        let made = try Subprocess.run(
            emrtd,
            ["read", "--simulator", "--no-render", "--mrz", "L898902C", "690806", "940623", "--out", dump.path]
                + Self.inside)
        try #require(made.status == 0, "\(made.combinedOutput)")
        try #require(FileManager.default.fileExists(atPath: dump.appendingPathComponent("CSCA.der").path))
        let base = ["report", dump.path, "--report", report.path, "--mrz-lines"] + VerdictCLITests.specimenLines
        // With and without the built-in bundle: neither holds the simulator's fresh CSCA.
        for trust in [["--no-builtin"], []] {
            let forged = try Subprocess.run(emrtd, base + trust + Self.inside)
            #expect(forged.status == 0, "\(forged.combinedOutput)")
            #expect(
                forged.errorOutput.contains("(data authorityCertificatesNotProvided, not accepted)")
                    || forged.errorOutput.contains("(data denied, not accepted)"), "\(forged.errorOutput)")
            let page = try String(contentsOf: report, encoding: .utf8)
            #expect(page.contains("class=\"answer notAccepted\"") && !page.contains("badge authenticated"))
            #expect(!page.contains("CSCA.der"), "the dump's CSCA is named nowhere as trusted")
        }
        let named = try Subprocess.run(
            emrtd, base + ["--no-builtin", "--csca", dump.appendingPathComponent("CSCA.der").path] + Self.inside)
        #expect(named.errorOutput.contains("(data authenticated, accepted)"), "\(named.combinedOutput)")
    }

    /// A master list in the footer with its certificate count and signing time (the German list of
    /// `../shared`, checked now, where its signer is valid).
    @Test func theFooterNamesAMasterListAndItsSigningTime() throws {
        guard let emrtd = CLITests.emrtd(),
            let list = Prerequisites.shared("data/gmrtd/master_list/DE_ML_2026-05-28-08-28-45.ml"),
            let root = Prerequisites.shared("data/gmrtd/master_list/DE_ROOT_CA_CSCA07.cer")
        else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        let report = directory.appendingPathComponent("r.html")
        let made = try Subprocess.run(
            emrtd, ["read", "--simulator", "--no-render", "--mrz", "L898902C", "690806", "940623", "--out", dump.path])
        try #require(made.status == 0, "\(made.combinedOutput)")
        let reported = try Subprocess.run(
            emrtd,
            [
                "report", dump.path, "--no-builtin", "--masterlist", list.path, "--ml-root", root.path, "--report",
                report.path,
            ])
        #expect(reported.status == 0, "\(reported.combinedOutput)")
        let page = try String(contentsOf: report, encoding: .utf8)
        #expect(
            page.contains(
                "<li>master list (--masterlist) \(list.path) (588 certificates, signed 2026-05-28T06:28:45Z, file written "
            ))
        #expect(!page.contains("default CSCA bundle"), "--no-builtin trusts no default bundle")
    }
}
