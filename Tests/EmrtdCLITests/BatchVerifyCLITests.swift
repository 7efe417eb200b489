import Foundation
import JSON
import TestSupport
import Testing

/// `emrtd verify --batch`: many dumps in one process, one JSON line each in input order, a dump
/// that cannot be loaded as an error line that does not stop the batch, and the exit status of
/// the worst line (1 unreadable, else 3 not accepted, else 0).
@Suite struct BatchVerifyCLITests {
    /// Two simulated reads of the specimen (each signed by its own fresh CSCA), a folder whose
    /// EF.SOD is garbage, and a file beside them that is no dump.
    struct Dumps {
        let root: URL
        let trusted: URL
        let untrusted: URL
        let corrupt: URL
        var csca: String { trusted.appendingPathComponent("CSCA.der").path }
        /// One check time for every run of a test (the verdict states it), inside the fresh
        /// certificates' validity.
        let time = ISO8601DateFormatter().string(from: Date())
    }

    static func makeDumps(_ emrtd: String) throws -> Dumps {
        let root = try VerdictCLITests.temporaryDirectory()
        let dumps = Dumps(
            root: root, trusted: root.appendingPathComponent("a-trusted"),
            untrusted: root.appendingPathComponent("c-untrusted"), corrupt: root.appendingPathComponent("b-corrupt"))
        for folder in [dumps.trusted, dumps.untrusted] {
            let read = try Subprocess.run(
                emrtd,
                ["read", "--simulator", "--no-render", "--mrz", "L898902C", "690806", "940623", "--out", folder.path])
            #expect(read.status == 0, "\(read.combinedOutput)")
        }
        try FileManager.default.createDirectory(at: dumps.corrupt, withIntermediateDirectories: true)
        try Data([0x77, 0x82, 0x40, 0x00, 0x30, 0x01]).write(to: dumps.corrupt.appendingPathComponent("SOD.bin"))
        try Data("not a dump".utf8).write(to: root.appendingPathComponent("notes.txt"))
        return dumps
    }

    static func text(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { text } else { "" }
    }

    static func lines(_ output: String) throws -> [JSONValue] {
        try output.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// The `emrtd verify --batch -` command run with `list` on standard input.
    static func runWithList(_ emrtd: String, _ list: [String], _ arguments: [String]) throws -> Subprocess.Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("batch-list-\(UUID().uuidString)")
        try Data(list.joined(separator: "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Subprocess.run(
            "/bin/sh", ["-c", "exec \"$@\" < \"$BATCH_LIST\"", "sh", emrtd, "verify", "--batch", "-"] + arguments,
            environment: ["BATCH_LIST": file.path])
    }

    @Test func aDirectoryGivesOneLinePerDumpInNameOrder() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let dumps = try Self.makeDumps(emrtd)
        defer { try? FileManager.default.removeItem(at: dumps.root) }
        var outputs: [String] = []
        for jobs in ["1", "2", "8"] {
            let result = try Subprocess.run(
                emrtd,
                [
                    "verify", "--batch", dumps.root.path, "--no-builtin", "--csca", dumps.csca, "--at", dumps.time,
                    "--jobs", jobs,
                ])
            // The corrupt dump makes the batch's status 1, after every line was printed.
            #expect(result.status == 1, "\(result.combinedOutput)")
            let lines = try Self.lines(result.output)
            #expect(lines.count == 3, "notes.txt is no dump: \(result.output)")
            guard lines.count == 3 else { return }
            #expect(
                lines.map { $0["path"] } == [dumps.trusted, dumps.corrupt, dumps.untrusted].map { .string($0.path) })
            #expect(lines[0]["status"] == "authenticated" && lines[0]["checks"]?["dataGroupsChecked"] != nil)
            #expect(lines[1]["code"] == "invalid_argument" && lines[1]["status"] == nil)
            #expect(Self.text(lines[1]["reason"]).contains("is not a readable EF.SOD"))
            #expect(lines[2]["status"] == "denied" && lines[2]["certificateChainValid"] == false)
            // The specimen expired in 1994: authenticated or not, no dump is accepted.
            #expect(result.errorOutput.contains("3 dumps: 0 accepted, 2 not accepted, 1 unreadable"))
            outputs.append(result.output)
        }
        // Whatever the parallelism, the same lines in the same order.
        #expect(Set(outputs).count == 1)
    }

    /// The same line for a dump as `verify --dir` prints, with `path` added.
    @Test func aLineIsTheSingleVerdictWithItsPath() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let dumps = try Self.makeDumps(emrtd)
        defer { try? FileManager.default.removeItem(at: dumps.root) }
        let trust = ["--no-builtin", "--csca", dumps.csca, "--at", dumps.time]
        let single = try Subprocess.run(emrtd, ["verify", "--dir", dumps.trusted.path] + trust)
        let batch = try Self.runWithList(emrtd, [dumps.trusted.path], trust)
        #expect(single.status == 0 && batch.status == 0, "\(single.combinedOutput) \(batch.combinedOutput)")
        guard case .object(let members)? = try Self.lines(batch.output).first else {
            Issue.record("no line: \(batch.combinedOutput)")
            return
        }
        #expect(members.first == JSONMember("path", .string(dumps.trusted.path)))
        #expect(JSONValue.object(Array(members.dropFirst())) == (try JSONValue.parse(single.output)))
    }

    /// A list on standard input: its order, a missing path as an error line, blank lines skipped,
    /// and the exit status of the worst line.
    @Test func aListOnStandardInputKeepsItsOrder() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let dumps = try Self.makeDumps(emrtd)
        defer { try? FileManager.default.removeItem(at: dumps.root) }
        let trust = ["--no-builtin", "--csca", dumps.csca]
        let missing = dumps.root.appendingPathComponent("missing").path
        let mixed = try Self.runWithList(
            emrtd, [dumps.untrusted.path, missing, "", dumps.trusted.path, dumps.corrupt.path], trust)
        #expect(mixed.status == 1, "\(mixed.combinedOutput)")
        let lines = try Self.lines(mixed.output)
        #expect(
            lines.map { $0["path"] }
                == [dumps.untrusted.path, missing, dumps.trusted.path, dumps.corrupt.path].map(JSONValue.string))
        #expect(
            lines.map { $0["status"] ?? $0["code"] } == [
                "denied", "invalid_argument", "authenticated", "invalid_argument",
            ])
        let missingReason = Self.text(lines.count > 1 ? lines[1]["reason"] : nil)
        #expect(missingReason.contains("is not a directory"), "\(missingReason)")

        let notAccepted = try Self.runWithList(emrtd, [dumps.trusted.path, dumps.untrusted.path], trust)
        #expect(notAccepted.status == 3, "\(notAccepted.combinedOutput)")
        #expect(try Self.lines(notAccepted.output).count == 2)
        // Strict mode: the specimen expired in 1994, so even the authenticated one is refused.
        let strict = try Self.runWithList(emrtd, [dumps.trusted.path], trust + ["--strict"])
        #expect(strict.status == 3, "\(strict.combinedOutput)")
        #expect(try Self.lines(strict.output).first?["checks"]?["strict"]?["unmet"] == ["the document has expired"])
    }

    @Test func wrongBatchesAreRefused() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let empty = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let noDumps = try Subprocess.run(emrtd, ["verify", "--batch", empty.path, "--no-builtin"])
        #expect(noDumps.status == 1 && noDumps.errorOutput.contains("holds no dump folder"), "\(noDumps.errorOutput)")
        let emptyList = try Self.runWithList(emrtd, ["", "  "], ["--no-builtin"])
        #expect(emptyList.status == 1 && emptyList.errorOutput.contains("standard input lists no dump"))
        let longLine = try Self.runWithList(emrtd, [String(repeating: "x", count: 5000)], ["--no-builtin"])
        #expect(longLine.status == 1 && longLine.errorOutput.contains("longer than a path can be"))
        let notADirectory = try Subprocess.run(emrtd, ["verify", "--batch", "/nonexistent", "--no-builtin"])
        #expect(notADirectory.status == 1)
        for arguments in [
            ["--batch", empty.path, "--dir", empty.path], ["--batch", empty.path, "--jobs", "0"],
            ["--batch", empty.path, "--mrz-lines"] + VerdictCLITests.specimenLines,
            ["--dir", empty.path, "--jobs", "2"],
        ] {
            let result = try Subprocess.run(emrtd, ["verify", "--no-builtin"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.combinedOutput)")
        }
    }
}
