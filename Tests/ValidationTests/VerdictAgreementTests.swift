import ChipSimulator
import Connector
import Foundation
import JSON
import TestSupport
import Testing

/// The read's two halves behind three commands: `emrtd report DIR` and `emrtd verify --dir` make
/// their verdict from a dump folder (`DumpLayout.read`), `emrtd serve` from the same files relayed
/// from a simulated chip (`emrtd relay --simulator DIR`), and all three go through one assembly.
/// Over a dozen dumps of one rich specimen, most of them hostile, the data verdicts agree.
@Suite(.serialized) struct VerdictAgreementTests {
    /// A dump and what is done to it.
    struct Case: Sendable {
        let name: String
        let change: @Sendable (URL, ChipFiles) throws -> Void
    }

    static func remove(_ name: String) -> @Sendable (URL, ChipFiles) throws -> Void {
        { folder, _ in try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }

    static func rewrite(_ name: String, _ edit: @escaping @Sendable ([UInt8]) -> [UInt8])
        -> @Sendable (
            URL, ChipFiles
        ) throws -> Void
    {
        { folder, _ in
            let url = folder.appendingPathComponent(name)
            try Data(edit([UInt8](try Data(contentsOf: url)))).write(to: url)
        }
    }

    static let cases: [Case] = [
        Case(name: "intact", change: { _, _ in }),
        Case(name: "no-dg2", change: remove("DG2.bin")),
        Case(name: "malformed-dg1", change: rewrite("DG1.bin") { _ in [0x61, 0x05, 0x5F, 0x1F, 0x02, 0x50, 0x3C] }),
        Case(name: "tampered-dg11", change: rewrite("DG11.bin") { bytes in Self.flipped(bytes, at: bytes.count / 2) }),
        Case(name: "tampered-dg2", change: rewrite("DG2.bin") { bytes in Self.flipped(bytes, at: bytes.count - 1) }),
        Case(name: "garbage-sod", change: rewrite("SOD.bin") { _ in Array(repeating: 0x5A, count: 300) }),
        Case(name: "truncated-dg12", change: rewrite("DG12.bin") { bytes in Array(bytes.prefix(bytes.count / 2)) }),
        // Well-formed TLV, content no parser takes: served whole, a warning, its hash wrong.
        Case(name: "malformed-dg12", change: rewrite("DG12.bin") { _ in [0x6C, 0x03, 0x01, 0x02, 0x03] }),
        // A file neither EF.COM nor EF.SOD names, beside the others.
        Case(
            name: "unlisted-dg10",
            change: { folder, _ in
                try Data([0x6A, 0x03, 0x01, 0x02, 0x03]).write(to: folder.appendingPathComponent("DG10.bin"))
            }),
        // DG3 stays in the folder: the chip refuses it (no EAC), the dump's verdict hashes it.
        Case(name: "denied-dg3", change: { _, _ in }),
        // What a read's dump of the same chip holds: DG3 refused, so not written.
        Case(name: "dump-without-dg3", change: remove("DG3.bin")),
        Case(name: "no-com", change: remove("COM.bin")),
        Case(name: "no-dg14", change: remove("DG14.bin")),
    ]

    static func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var bytes = bytes
        if bytes.indices.contains(index) { bytes[index] ^= 0x01 }
        return bytes
    }

    /// What one command said about one dump.
    struct Verdict: CustomStringConvertible {
        /// The data verdict, nil when the command made none.
        var status: String?
        /// The data groups whose hash did not match (verify and serve give them).
        var invalid: [Int]?
        /// Why there is no verdict.
        var failure: String?
        /// The one "accepted" rule's answer (`checks.accepted`; report's line), and the strict
        /// requirements unmet (verify and serve give them).
        var accepted: Bool?
        var unmet: [String]?
        var description: String { status.map { "\($0) \(invalid ?? [])" } ?? "failed: \(failure ?? "")" }
    }

    @Test func reportVerifyAndServeGiveTheSameVerdicts() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        let specimen = try Specimen.generate(rich: true)
        let csca = harness.path("csca-rich.pem")
        try Data(specimen.countrySigningCertificatePEM.utf8).write(to: URL(fileURLWithPath: csca))
        let keys = try specimen.credentials.keysFile()
        guard let (_, resultPort) = try harness.resultServer(log: "posts.jsonl", name: "results"),
            let (_, port) = try harness.server(
                tenants:
                    #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/r", "receiveResult": true, "open": true}}}"#,
                outbox: "outbox", ["--csca", csca], name: "serve")
        else { return }
        let trust = ["--csca", csca, "--no-builtin"]

        var verdicts: [String: (report: Verdict, verify: Verdict, serve: Verdict)] = [:]
        for item in Self.cases {
            let folder = URL(fileURLWithPath: harness.path("dumps/\(item.name)"))
            try specimen.files.write(to: folder)
            try Data(keys).write(to: folder.appendingPathComponent(Credentials.keysFileName))
            try item.change(folder, specimen.files)

            let report = try Subprocess.run(
                harness.emrtd, ["report", folder.path, "--report", harness.path("\(item.name).html")] + trust)
            let verify = try Subprocess.run(harness.emrtd, ["verify", "--dir", folder.path] + trust)
            let relay = try Subprocess.run(
                harness.emrtd,
                [
                    "relay", "--simulator", folder.path, "--server", "ws://127.0.0.1:\(port)\(ValidationProtocol.path)",
                    "--client-id", "acme", "--validation-id", "agree-\(item.name)", "--can", "123456", "--json",
                    "--server-timeout", "30",
                ])
            verdicts[item.name] = (Self.reportVerdict(report), Self.verifyVerdict(verify), Self.serveVerdict(relay))
        }
        for item in Self.cases {
            guard let (report, verify, serve) = verdicts[item.name] else { continue }
            let all = "\(item.name): report \(report), verify \(verify), serve \(serve)"
            // The chip never gives a file neither list names: serve judges the files it read,
            // the dump's verdicts every file of the folder (an unhashed one denies the data).
            if item.name == "unlisted-dg10" {
                #expect(
                    serve.status == "authenticated" && report.status == "denied" && verify.status == "denied", "\(all)")
                #expect(verify.invalid == [10], "\(all)")
                continue
            }
            // A chip file shorter than its own header says cannot be read whole: the read leaves
            // it out with a warning (its hash `notRead`); a dump holds the short bytes and hashes them.
            if item.name == "truncated-dg12" {
                #expect(serve.status == "authenticated" && serve.invalid == [], "\(all)")
                #expect(report.status == "denied" && verify.status == "denied" && verify.invalid == [12], "\(all)")
                continue
            }
            // Report and serve assemble the same document, or fail on the same rule.
            #expect(report.status == serve.status, "\(all)")
            // One "accepted" rule: the same answer and the same reasons wherever there is a verdict.
            if serve.status != nil {
                #expect(report.accepted == serve.accepted && serve.accepted != nil, "\(all)")
                if verify.status != nil {
                    #expect(verify.accepted == serve.accepted && verify.unmet == serve.unmet, "\(all)")
                }
            }
            #expect((report.failure == nil) == (serve.failure == nil), "\(all)")
            if let status = serve.status {
                // verify refuses an EF.SOD it cannot parse as input; otherwise the same verdict,
                // the same data groups failing.
                if item.name == "garbage-sod" {
                    #expect(
                        verify.failure?.contains("is not a readable EF.SOD") == true && status == "denied", "\(all)")
                } else {
                    #expect(verify.status == status, "\(all)")
                    #expect(verify.invalid == serve.invalid, "\(all)")
                }
            } else {
                // A mandatory file missing or malformed: no document; verify (which takes a
                // partial file set) does not accept it unless what is missing is EF.COM alone.
                #expect(
                    report.failure?.contains("mandatory") == true || report.failure?.contains("malformed") == true,
                    "\(all)")
                if item.name == "no-com" {
                    #expect(verify.status == "authenticated", "\(all)")
                } else {
                    #expect(verify.status != "authenticated", "\(all)")
                }
            }
        }
        // The hostile dumps are not all alike: the intact ones are authenticated, tampered ones
        // denied, the ones without a mandatory file fail.
        #expect(verdicts["intact"]?.serve.status == "authenticated")
        #expect(verdicts["denied-dg3"]?.serve.status == "authenticated")
        #expect(verdicts["tampered-dg11"]?.serve.invalid == [11])
        #expect(verdicts["malformed-dg12"]?.serve.invalid == [12])
        #expect(verdicts["no-dg2"]?.serve.failure != nil)
        #expect(verdicts["malformed-dg1"]?.report.failure?.contains("DG1 is malformed") == true)
    }

    /// `emrtd report`'s last line: "emrtd report: FILE (data STATUS, accepted|not accepted)".
    static func reportVerdict(_ run: Subprocess.Result) -> Verdict {
        guard run.status == 0, let range = run.errorOutput.range(of: "(data ") else {
            return Verdict(failure: run.errorOutput)
        }
        let rest = run.errorOutput[range.upperBound...]
        return Verdict(status: String(rest.prefix { $0 != "," }), accepted: !rest.contains("not accepted"))
    }

    static func verifyVerdict(_ run: Subprocess.Result) -> Verdict {
        guard let json = try? JSONValue.parse(run.output) else { return Verdict(failure: run.errorOutput) }
        return Verdict(
            status: text(json["status"]), invalid: invalid(json), accepted: bool(json["checks"]?["accepted"]),
            unmet: strings(json["checks"]?["strict"]?["unmet"]))
    }

    static func serveVerdict(_ run: Subprocess.Result) -> Verdict {
        guard let outcome = try? JSONValue.parse(run.output) else { return Verdict(failure: run.combinedOutput) }
        guard let data = outcome["result"]?["authenticationStatus"]?["data"] else {
            return Verdict(failure: text(outcome["reason"]) ?? "no result")
        }
        let checks = outcome["result"]?["checks"]
        return Verdict(
            status: text(data["status"]), invalid: invalid(data), accepted: bool(checks?["accepted"]),
            unmet: strings(checks?["strict"]?["unmet"]))
    }

    static func bool(_ value: JSONValue?) -> Bool? {
        if case .bool(let flag)? = value { flag } else { nil }
    }

    static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        return items.compactMap { text($0) }
    }

    static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    /// The numbers of the data groups whose hash is `invalid`.
    static func invalid(_ data: JSONValue) -> [Int] {
        guard case .array(let hashes)? = data["dataGroupHashes"] else { return [] }
        return hashes.compactMap { hash in
            guard hash["status"] == "invalid", case .integer(let number)? = hash["dataGroupNumber"] else { return nil }
            return number
        }
    }
}
