import Foundation
import JSON
import TestSupport
import Testing

/// The option groups on every command that takes them, as the other suites do not already: the
/// access key and the output group on `read` and on `dump` (the same read), the trust group on
/// `dump` and `--crl` everywhere, option syntax on `dump`, and one JSON layout for every command.
@Suite struct OptionGroupCLITests {
    static let mrz = ["--mrz", "L898902C", "690806", "940623"]

    static func temporaryDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    /// `read` or `dump` of the simulator's specimen; a dump writes into `directory`.
    static func command(_ name: String, _ directory: URL) -> [String] {
        name == "read"
            ? ["read", "--simulator", "--no-render"] : ["dump", "--simulator", "--no-render", directory.path]
    }

    /// The specimen's dump, with its CSCA, in `directory/dump`.
    static func specimenDump(_ emrtd: String, in directory: URL) throws -> URL {
        let dump = directory.appendingPathComponent("dump")
        let made = try Subprocess.run(emrtd, ["read", "--simulator", "--no-render", "--out", dump.path] + Self.mrz)
        try #require(made.status == 0, "\(made.combinedOutput)")
        return dump
    }

    @Test(arguments: ["read", "dump"])
    func accessKeyGroup(_ name: String) throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = Self.temporaryDirectory("access")
        defer { try? FileManager.default.removeItem(at: directory) }
        let command = Self.command(name, directory)
        for key in [Self.mrz, ["--can", "123456"], ["--mrz-lines"] + VerdictCLITests.specimenLines] {
            let result = try Subprocess.run(emrtd, command + key + ["--json"])
            #expect(result.status == 0, "\(name) \(key[0]): \(result.combinedOutput)")
            #expect(try JSONValue.parse(result.output)["accessControlProtocolUsed"] == "pace", "\(name) \(key[0])")
        }
        for wrong in [[], ["--mrz", "L898902C", "690806"], Self.mrz + ["--can", "123456"], ["--mrz-lines", "P<UTO"]] {
            let result = try Subprocess.run(emrtd, command + wrong)
            #expect(result.status == 2, "\(name) \(wrong): \(result.combinedOutput)")
            #expect(result.errorOutput.hasPrefix("emrtd \(name): "), "\(result.errorOutput)")
        }
        let refused = try Subprocess.run(emrtd, command + ["--can", "123457"])
        #expect(refused.status == 1 && refused.errorOutput.contains("emrtd \(name): access control failed"))
        // A read that fails after access control: with --out, the files read before are written.
        let failed = directory.appendingPathComponent("failed")
        let broken = try Subprocess.run(
            emrtd,
            [
                name, "--simulator", "--no-pace", "--chip-authentication", "ECDH-AES-128:13", "--chip-fault",
                "ca-wrong-mac", "--out", failed.path,
            ] + Self.mrz)
        #expect(broken.status == 1 && broken.errorOutput.contains("emrtd \(name): chip authentication failed"))
        #expect(broken.errorOutput.contains("the files read before the failure are in \(failed.path)"))
        let written = try FileManager.default.contentsOfDirectory(atPath: failed.path).sorted()
        #expect(written == ["COM.bin", "DG14.bin", "SOD.bin"])
    }

    /// `--json`, `--out` and `--report` together: the JSON on stdout, the dump that verifies later
    /// against the CSCA written beside it, the page; `dump` takes its directory as `--out` too.
    @Test(arguments: ["read", "dump"])
    func outputGroup(_ name: String) throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = Self.temporaryDirectory("output")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        let report = directory.appendingPathComponent("page.html")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try Subprocess.run(
            emrtd,
            [name, "--simulator", "--no-render", "--json", "--out=\(dump.path)", "--report", report.path] + Self.mrz)
        #expect(result.status == 0, "\(result.combinedOutput)")
        #expect(try JSONValue.parse(result.output)["authenticationStatus"]?["data"]?["status"] == "authenticated")
        let written = try FileManager.default.contentsOfDirectory(atPath: dump.path)
        #expect(["COM.bin", "SOD.bin", "DG1.bin", "DG2.bin", "CSCA.der"].allSatisfy(written.contains), "\(written)")
        #expect(try String(contentsOf: report, encoding: .utf8).contains("ANNA MARIA ERIKSSON"))
        let verified = try Subprocess.run(
            emrtd,
            ["verify", "--dir", dump.path, "--csca", dump.appendingPathComponent("CSCA.der").path, "--no-builtin"])
        #expect(verified.status == 0, "\(verified.combinedOutput)")
        // --out given twice is a usage error, not the last one silently winning.
        let twice = try Subprocess.run(emrtd, [name, "--simulator", "--out", "a", "--out", "b"] + Self.mrz)
        #expect(twice.status == 2 && twice.errorOutput.contains("--out may be given only once"))
    }

    /// `dump`'s own rules: a directory is required (DIR or --out DIR, not both), `--` ends the
    /// options, and it takes the whole trust group as `read` does.
    @Test func dumpTakesItsDirectoryAndTheTrustGroup() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = Self.temporaryDirectory("dump")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first")
        let made = try Subprocess.run(emrtd, ["dump", "--simulator"] + Self.mrz + ["--", first.path])
        try #require(made.status == 0, "\(made.combinedOutput)")
        #expect(made.output.contains("files:     com sod dg1 dg2"))
        let missing = try Subprocess.run(emrtd, ["dump", "--simulator"] + Self.mrz)
        #expect(missing.status == 2 && missing.errorOutput.contains("--out is required"))
        let both = try Subprocess.run(emrtd, ["dump", "--simulator"] + Self.mrz + ["--out", first.path, first.path])
        #expect(both.status == 2 && both.errorOutput.contains("DIR or --out DIR"))
        let csca = first.appendingPathComponent("CSCA.der").path
        let again = ["dump", "--simulator", first.path, "--no-render", "--json"] + Self.mrz
        let second = directory.appendingPathComponent("second").path
        let trusted = try Subprocess.run(emrtd, again + ["--csca", csca, "--no-builtin", second])
        #expect(trusted.status == 0, "\(trusted.combinedOutput)")
        #expect(try JSONValue.parse(trusted.output)["authenticationStatus"]?["data"]?["status"] == "authenticated")
        let early = try Subprocess.run(emrtd, again + ["--csca=\(csca)", "--no-builtin", "--at", "2020-01-01", second])
        #expect(try JSONValue.parse(early.output)["authenticationStatus"]?["data"]?["status"] == "denied")
        let unpaired = try Subprocess.run(emrtd, again + ["--masterlist", "x.ml", second])
        #expect(unpaired.status == 2 && unpaired.errorOutput.contains("--ml-root"))
    }

    /// `--crl` is part of the trust group wherever it is: an unreadable file fails every
    /// verifying command the same way.
    @Test func everyVerifyingCommandTakesCRLs() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = Self.temporaryDirectory("crl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try Self.specimenDump(emrtd, in: directory)
        let absent = directory.appendingPathComponent("absent.crl").path
        for command in [
            ["read", "--simulator", "--no-render"] + Self.mrz, ["dump", "--simulator"] + Self.mrz + [dump.path + "2"],
            ["verify", "--dir", dump.path], ["report", dump.path], ["seal", dump.path + "/DG1.bin"],
        ] {
            let result = try Subprocess.run(emrtd, command + ["--crl", absent])
            #expect(result.status == 1, "\(command[0]): \(result.combinedOutput)")
            #expect(result.errorOutput.contains("absent.crl"), "\(command[0]): \(result.errorOutput)")
        }
    }

    /// `--debug` writes the log to stderr, beside the JSON or the summary on stdout: steps, each
    /// APDU with its time, the plain forms under secure messaging, and no access key.
    @Test(arguments: ["read", "dump"])
    func debugLogOnStandardError(_ name: String) throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = Self.temporaryDirectory("debug")
        defer { try? FileManager.default.removeItem(at: directory) }
        for key in [Self.mrz, ["--can", "123456"]] {
            let result = try Subprocess.run(emrtd, Self.command(name, directory) + key + ["--json", "--debug"])
            #expect(result.status == 0, "\(result.combinedOutput)")
            #expect(try JSONValue.parse(result.output)["debugInfo"]?["events"] != .array([]))
            let log = result.errorOutput
            #expect(log.contains("access control started") && log.contains("passive authentication started"))
            #expect(log.contains(#/plain > 00 B0 81 00 Le=\d+  READ BINARY EF.DG1\n +[\d.]+  > 0C B0 81 00 /#))
            #expect(
                log.contains(#/READ BINARY \(SM\)\n +< [0-9A-F ]+ 9000 \(success\) \(\d+ ms\)\n +[\d.]+  plain < </#))
            for secret in ["L898902C", "4C 38 39 38 39 30 32 43", "123456", "31 32 33 34 35 36"] {
                #expect(!log.contains(secret), "\(name) \(key[0]): the log holds \(secret)")
            }
        }
    }

    /// Every command that prints JSON prints it the same way: the layout `JSONValue`'s pretty
    /// writer gives (two-space indent, `"key": value`, one member a line, keys in the model's
    /// order, one newline at the end), so the text parsed and written again is the same text.
    @Test func everyCommandPrintsJSONTheSameWay() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = Self.temporaryDirectory("json")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try Self.specimenDump(emrtd, in: directory)
        let csca = dump.appendingPathComponent("CSCA.der").path
        var commands: [[String]] = [
            ["read", "--simulator", "--no-render", "--json"] + Self.mrz,
            ["read", "--simulator", "--json", "--can", "123457"],
            ["dump", "--simulator", "--no-render", "--json", directory.appendingPathComponent("again").path] + Self.mrz,
            ["verify", "--dir", dump.path, "--csca", csca, "--no-builtin"],
            ["parse", dump.appendingPathComponent("DG1.bin").path],
            ["certs", csca],
            ["mrz"] + VerdictCLITests.specimenLines,
        ]
        if let lists = Prerequisites.shared("data/gmrtd/master_list") {
            commands.append([
                "masterlist", lists.appendingPathComponent("NL_ML_2026-07-22.ml").path, "--ml-root",
                lists.appendingPathComponent("NL_ROOT_CA.cer").path,
            ])
        }
        for command in commands {
            let result = try Subprocess.run(emrtd, command)
            #expect([0, 1, 3].contains(result.status), "\(command[0]): \(result.combinedOutput)")
            let parsed = try JSONValue.parse(result.output)
            #expect(result.output == parsed.serialized(pretty: true) + "\n", "\(command[0]) prints JSON its own way")
            #expect(result.output.hasPrefix("{\n  \"") || result.output.hasPrefix("[\n  {\n    \""), "\(command[0])")
            // A command that prints only JSON takes --json too, and prints the same way.
            if !command.contains("--json") {
                let withFlag = try Subprocess.run(emrtd, command + ["--json"])
                #expect(withFlag.status == result.status, "\(command[0]) --json: \(withFlag.combinedOutput)")
                let reparsed = try JSONValue.parse(withFlag.output)
                #expect(withFlag.output == reparsed.serialized(pretty: true) + "\n", "\(command[0]) --json")
            }
        }
    }
}
