import Foundation
import TestSupport
import Testing

/// The command line as a hostile user types it (issues 43 and 44): a stray argument, a number
/// too large for any use, an option given twice, a value that looks like an option. Each is a
/// wrong command line: exit 2 and one line saying what, never exit 0 with the argument dropped,
/// exit 1, or a trap.
@Suite struct HostileCommandLineCLITests {
    static let mrz = ["--mrz", "L898902C", "690806", "940623"]

    /// One command line per command that passes its parsing, by the command's name.
    static let usages: [String: [String]] = [
        "mrz": ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"],
        "parse": ["/dev/null"],
        "read": ["--simulator"] + mrz,
        "simulate": ["/nonexistent-chip"],
        "verify": ["--dir", "/nonexistent-dump", "--no-builtin"],
        "certs": ["/nonexistent.pem"],
        "masterlist": ["/nonexistent.ml"],
        "trust": ["list"],
        "readers": [],
        "dump": ["--simulator"] + mrz + ["/nonexistent-dump"],
        "serve": ["--listen", "127.0.0.1:0", "--tenants", "/nonexistent-tenants.json"],
        "relay": ["--simulator", "--server", "ws://127.0.0.1:9/ws/validate", "--client-id", "acme"] + mrz,
        "token": ["--tenants", "/nonexistent-tenants.json", "--client-id", "acme", "--validation-id", "v1"],
        "report": ["/nonexistent-dump"],
        "cvc": ["make-pki", "/nonexistent-pki"],
        "seal": ["/nonexistent.seal", "--no-builtin"],
        "station": ["--listen", "127.0.0.1:0", "--no-builtin"],
    ]

    /// Runs `emrtd arguments` and checks it is a usage error: exit 2, one line, naming `named`.
    static func expectUsageError(
        _ emrtd: String, _ arguments: [String], naming named: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try Subprocess.run(emrtd, arguments)
        #expect(run.status == 2, "\(arguments): \(run.combinedOutput)", sourceLocation: sourceLocation)
        let lines = run.errorOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(run.errorOutput)", sourceLocation: sourceLocation)
        #expect(run.errorOutput.contains(named), "\(arguments): \(run.errorOutput)", sourceLocation: sourceLocation)
    }

    /// Every command `emrtd --help` lists, given one argument it does not use, refuses it by name.
    @Test func everyCommandRefusesAStrayArgument() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let help = try Subprocess.run(emrtd, ["--help"]).output
        let listed = help.split(separator: "\n").drop { $0 != "commands:" }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Set(listed) == Set(Self.usages.keys), "commands without a walk: \(listed)")
        for (command, usage) in Self.usages.sorted(by: { $0.key < $1.key }) {
            try Self.expectUsageError(emrtd, [command] + usage + ["stray-argument"], naming: "'stray-argument'")
        }
        // B of `--terminal-certificates A B` is one too (issue 44): it was dropped, then the read failed.
        let directory = OptionGroupCLITests.temporaryDirectory("stray")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try TerminalCLITests.pki(emrtd, in: directory)
        try Self.expectUsageError(
            emrtd,
            ["read", "--simulator", "--terminal-certificates", pki + "/cvca.cvcert", pki + "/is.cvcert"]
                + ["--terminal-key", pki + "/is.pkcs8"] + Self.mrz,
            naming: "'\(pki)/is.cvcert'")
        try Self.expectUsageError(emrtd, ["--version", "extra"], naming: "'extra'")
        try Self.expectUsageError(emrtd, ["--help", "extra"], naming: "'extra'")
    }

    /// Numbers a deadline is computed from are bounded (9223372036854775807 trapped, exit 132),
    /// signs and empty values refused.
    @Test func everyNumberIsRangeChecked() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let huge = "9223372036854775807"
        let serve = ["serve", "--listen", "127.0.0.1:0", "--tenants", "/nonexistent-tenants.json"]
        for option in [
            "--step-timeout", "--session-timeout", "--post-timeout", "--max-sessions", "--delivery-retry-seconds",
            "--delivery-backoff-ms",
        ] {
            try Self.expectUsageError(emrtd, serve + [option, huge], naming: option)
            try Self.expectUsageError(emrtd, serve + [option, "0"], naming: option)
        }
        let relay = Array(Self.usages["relay"] ?? [])
        try Self.expectUsageError(emrtd, ["relay"] + relay + ["--server-timeout", huge], naming: "--server-timeout")
        try Self.expectUsageError(emrtd, ["relay"] + relay + ["--drop-after", "-1"], naming: "--drop-after")
        for wait in [huge, "inf", "nan", "-1"] {
            try Self.expectUsageError(emrtd, ["read", "--reader", "", "--wait", wait] + Self.mrz, naming: "--wait")
        }
        try Self.expectUsageError(emrtd, ["read", "--reader", "", "--timeout", huge] + Self.mrz, naming: "--timeout")
        try Self.expectUsageError(emrtd, ["simulate", "--max-read", "0"], naming: "--max-read")
        try Self.expectUsageError(emrtd, ["simulate", "--port", "+80"], naming: "--port")
        let token = ["token", "--tenants", "/nonexistent-tenants.json", "--client-id", "acme", "--validation-id", "v"]
        try Self.expectUsageError(emrtd, token + ["--ttl", "+5"], naming: "--ttl")
        try Self.expectUsageError(emrtd, token + ["--ttl", huge], naming: "--ttl")
        let pki = ["cvc", "make-pki", "/nonexistent-pki"]
        try Self.expectUsageError(emrtd, pki + ["--from", "2025-01-+1"], naming: "--from")
        try Self.expectUsageError(emrtd, pki + ["--rights", ""], naming: "--rights")
        try Self.expectUsageError(
            emrtd, pki + ["--from", "2026-01-01", "--until", "2027-01-01", "--terminal-until", "2025-06-01"],
            naming: "--terminal-until")
    }

    /// The exit statuses the hostile user found wrong, each now a usage error in one line.
    @Test func wrongCommandLinesAreExitTwo() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        try Self.expectUsageError(
            emrtd, ["read", "--simulator", "--challenge", "0011"] + Self.mrz, naming: "--challenge")
        try Self.expectUsageError(emrtd, ["read", "--simulator", "--out", ""] + Self.mrz, naming: "--out")
        try Self.expectUsageError(
            emrtd,
            ["relay", "--simulator", "--server", "http://127.0.0.1:9/ws/validate", "--client-id", "a"] + Self.mrz,
            naming: "ws://")
        try Self.expectUsageError(
            emrtd,
            ["relay", "--simulator", "--server", "ws://127.0.0.1:9/ws/validate", "--client-id", "a", "s1", "s2"]
                + Self.mrz, naming: "'s1'")
        try Self.expectUsageError(
            emrtd, ["read", "--simulator"] + Self.mrz + Self.mrz, naming: "--mrz may be given only once")
    }

    /// A value may begin with one `-`: `--validation-id -abc` is that id, not an unknown option.
    @Test func aValueMayStartWithADash() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tenants = directory.appendingPathComponent("tenants.json")
        try Data(
            #"{"tenants": {"acme": {"resultURL": "https://a.example/r", "secret": "q83vEjRWeJq7zN7/ASNFZ4mrze8BI0VniavN7wEjRWc="}}}"#
                .utf8
        ).write(to: tenants)
        // A tenants file others can read is used, with a warning.
        chmod(tenants.path, 0o644)
        let exposed = try Subprocess.run(
            emrtd, ["token", "--tenants", tenants.path, "--client-id", "acme", "--validation-id", "v"])
        #expect(exposed.status == 0 && exposed.errorOutput.contains("can be read by others"), "\(exposed.errorOutput)")
        chmod(tenants.path, 0o600)
        let token = try Subprocess.run(
            emrtd, ["token", "--tenants", tenants.path, "--client-id", "acme", "--validation-id", "-abc"])
        #expect(token.status == 0, "\(token.combinedOutput)")
        #expect(!token.output.isEmpty)
    }

    /// A file system failure in a user's words, never Foundation's "NSCocoaErrorDomain … 516":
    /// a file where `cvc make-pki` is to make its folder.
    @Test func fileSystemFailuresAreSaidInWords() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("in-the-way-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Subprocess.run(emrtd, ["cvc", "make-pki", file.path])
        #expect(run.status == 1, "\(run.combinedOutput)")
        #expect(run.errorOutput.contains("cannot create \(file.path)"), "\(run.errorOutput)")
        #expect(!run.errorOutput.contains("Domain"), "\(run.errorOutput)")
        #expect(run.errorOutput.split(separator: "\n").count == 1, "\(run.errorOutput)")
    }
}
