import Foundation
import JSON
import TestSupport
import Testing

/// One "accepted" rule (`DocumentChecks.accepted`, the rules of `--strict`) said alike by every
/// command that says it: `read`'s text summary and `--json`, the HTML report of `read --report`
/// and of `report DIR`, `verify --dir` (its `checks` and its `--strict` exit status) and the
/// tally of `verify --batch`, over dumps that are accepted or not for different reasons. (`serve`
/// is `ValidationTests`' `VerdictAgreementTests`, the C ABI `EmrtdCTests`, Python its tests.)
@Suite struct AcceptedAgreementCLITests {
    /// Inside the specimen's validity (it expires on 1994-06-23) and its certificates', when the
    /// simulator signs it at that time.
    static let inside = ["--at", "1993-06-01"]

    /// A dump and how it is judged.
    struct Case: Sendable {
        let name: String
        /// The dump: signed in 1993 (`inside`) or now.
        let signedInside: Bool
        /// Trust, time and page options for every command.
        let options: @Sendable (_ csca: String) -> [String]
        /// What is done to the dump's files first.
        var change: @Sendable (URL) throws -> Void = { _ in }
        /// The reason expected among the unmet requirements; nil when it is accepted.
        let reason: String?
    }

    static let cases: [Case] = [
        Case(
            name: "accepted", signedInside: true,
            options: { ["--no-builtin", "--csca", $0, "--mrz-lines"] + VerdictCLITests.specimenLines + inside },
            reason: nil),
        Case(
            name: "expired", signedInside: false, options: { ["--no-builtin", "--csca", $0] },
            reason: "the document has expired"),
        Case(
            name: "page-differs", signedInside: true,
            options: { ["--no-builtin", "--csca", $0, "--mrz-lines"] + VerdictCLITests.otherHolderLines + inside },
            reason: "the printed MRZ differs from the chip's"),
        Case(
            name: "no-trust", signedInside: true, options: { _ in ["--no-builtin"] + inside },
            reason: "the data is authorityCertificatesNotProvided, not authenticated"),
        // The dump carries its own CSCA (CSCA.der): lying in the folder, it is trusted nowhere.
        Case(
            name: "forged-csca", signedInside: true, options: { _ in inside },
            reason: "not authenticated"),
        Case(
            name: "tampered-dg11", signedInside: true, options: { ["--no-builtin", "--csca", $0] + inside },
            change: { folder in
                let url = folder.appendingPathComponent("DG11.bin")
                var bytes = [UInt8](try Data(contentsOf: url))
                if !bytes.isEmpty { bytes[bytes.count / 2] ^= 0x01 }
                try Data(bytes).write(to: url)
            },
            reason: "the data is denied, not authenticated"),
    ]

    static func makeDump(_ emrtd: String, at folder: URL, signedInside: Bool) throws {
        let read = try Subprocess.run(
            emrtd,
            ["read", "--simulator", "--no-render", "--mrz", "L898902C", "690806", "940623", "--out", folder.path]
                + (signedInside ? inside : []))
        try #require(read.status == 0, "\(read.combinedOutput)")
    }

    static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    @Test(arguments: cases.map(\.name)) func everyCommandSaysTheSameAnswer(_ name: String) throws {
        guard let emrtd = CLITests.emrtd(), let item = Self.cases.first(where: { $0.name == name }) else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        try Self.makeDump(emrtd, at: dump, signedInside: item.signedInside)
        // The CSCA named on the command line is a copy outside the folder judged.
        let csca = directory.appendingPathComponent("csca.der")
        try FileManager.default.copyItem(at: dump.appendingPathComponent("CSCA.der"), to: csca)
        try item.change(dump)
        let options = item.options(csca.path)
        let accepted = item.reason == nil
        let label = name

        // verify --dir: checks.accepted, the reason among the unmet, and --strict's exit status.
        let verify = try Subprocess.run(emrtd, ["verify", "--dir", dump.path, "--strict"] + options)
        let verdict = try JSONValue.parse(verify.output)
        #expect(verdict["checks"]?["accepted"] == .bool(accepted), "\(label): \(verify.output)")
        #expect(verify.status == (accepted ? 0 : 3), "\(label): \(verify.combinedOutput)")
        let unmet = Self.strings(verdict["checks"]?["strict"]?["unmet"])
        if let reason = item.reason { #expect(unmet.contains { $0.contains(reason) }, "\(label): \(unmet)") }

        // read --json of the same files (the simulator serving the dump): the same answer and
        // reasons, and every warning of checks in the top-level warnings.
        // The page's lines open the chip too: --mrz only without them.
        let key = options.contains("--mrz-lines") ? [] : ["--mrz", "L898902C", "690806", "940623"]
        let read = ["read", "--simulator", dump.path, "--no-render"] + key
        let json = try Subprocess.run(emrtd, read + ["--json"] + options)
        #expect(json.status == 0, "\(label): \(json.combinedOutput)")
        let document = try JSONValue.parse(json.output)
        #expect(document["checks"]?["accepted"] == .bool(accepted), "\(label)")
        #expect(Self.strings(document["checks"]?["strict"]?["unmet"]) == unmet, "\(label)")
        let topLevel = Self.strings(document["warnings"])
        let checkWarnings = Self.strings(document["checks"]?["warnings"])
        #expect(checkWarnings.allSatisfy { topLevel.contains($0) }, "\(label): \(topLevel)")

        // read's text summary and its HTML report.
        let report = directory.appendingPathComponent("read.html")
        let summary = try Subprocess.run(emrtd, read + ["--report", report.path] + options)
        #expect(summary.status == 0, "\(label): \(summary.combinedOutput)")
        #expect(summary.output.contains(accepted ? "answer:    accepted" : "answer:    not accepted"), "\(label)")
        let answer = accepted ? "class=\"answer accepted\"" : "class=\"answer notAccepted\""
        #expect(try String(contentsOf: report, encoding: .utf8).contains(answer), "\(label)")

        // report DIR: its line and its page.
        let page = directory.appendingPathComponent("report.html")
        let reported = try Subprocess.run(emrtd, ["report", dump.path, "--report", page.path] + options)
        #expect(reported.status == 0, "\(label): \(reported.combinedOutput)")
        #expect(reported.errorOutput.contains(accepted ? ", accepted)" : ", not accepted)"), "\(label)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains(answer), "\(label)")

        // verify --batch: its tally. The page is one document's, not a batch's: without it the
        // page that differs is no reason.
        var batchOptions = options
        if let page = batchOptions.firstIndex(of: "--mrz-lines") { batchOptions.removeSubrange(page...(page + 2)) }
        let batchAccepted = accepted || name == "page-differs"
        let batch = try Subprocess.run(emrtd, ["verify", "--batch", directory.path] + batchOptions)
        #expect(
            batch.errorOutput.contains(batchAccepted ? "1 dump: 1 accepted" : "1 dump: 0 accepted, 1 not accepted"),
            "\(label): \(batch.errorOutput)")
    }

    /// A chip that fails to prove itself (its PACE-CAM data wrong): the data is authenticated, the document is
    /// not accepted, and the summary, `--json` and the report say so alike.
    @Test func aDeniedChipIsNotAccepted() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let read =
            [
                "read", "--simulator", "--no-render", "--chip-fault", "wrong-cam-data", "--mrz-lines",
            ] + VerdictCLITests.specimenLines + Self.inside
        let json = try Subprocess.run(emrtd, read + ["--json"])
        #expect(json.status == 0, "\(json.combinedOutput)")
        let document = try JSONValue.parse(json.output)
        #expect(document["authenticationStatus"]?["chip"]?["status"] == "denied")
        #expect(document["checks"]?["accepted"] == false)
        #expect(Self.strings(document["checks"]?["strict"]?["unmet"]) == ["the chip is denied"])
        let report = directory.appendingPathComponent("r.html")
        let summary = try Subprocess.run(emrtd, read + ["--report", report.path])
        #expect(summary.output.contains("answer:    not accepted: the chip is denied"), "\(summary.output)")
        #expect(try String(contentsOf: report, encoding: .utf8).contains("class=\"answer notAccepted\""))
    }
}
