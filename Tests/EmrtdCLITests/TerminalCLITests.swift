import Foundation
import JSON
import TestSupport
import Testing

/// The terminal group (`--terminal-certificates`, `--terminal-key`, `--terminal-signer`) on every
/// command that reads a chip, `read` and `dump`, against the simulated chip trusting a test PKI
/// made by `emrtd cvc make-pki`: DG3 read after Terminal Authentication, with the key in a file or
/// behind a signer process (OpenSSL), and each failure a warning, not a failed read.
@Suite struct TerminalCLITests {
    static let mrz = ["--mrz", "L898902C", "690806", "940623"]

    /// A test PKI (brainpoolP256r1, ECDSA-SHA-256) in `directory/pki`.
    static func pki(_ emrtd: String, in directory: URL, _ options: [String] = []) throws -> String {
        let pki = directory.appendingPathComponent("pki").path
        let made = try Subprocess.run(
            emrtd, ["cvc", "make-pki", pki, "--from", "2026-01-01", "--until", "2027-12-31"] + options)
        try #require(made.status == 0, "\(made.combinedOutput)")
        return pki
    }

    /// `read` or `dump` of a BAC chip with Chip Authentication trusting `pki`'s CVCA on 2026-06-01.
    static func command(_ name: String, _ pki: String, _ directory: URL) -> [String] {
        let chip = [
            "--simulator", "--no-pace", "--no-render", "--json", "--terminal-trust-point", pki + "/cvca.cvcert",
            "--chip-date", "2026-06-01",
        ]
        return [name] + chip + mrz + (name == "dump" ? [directory.appendingPathComponent("dump").path] : [])
    }

    static func terminal(_ output: String) throws -> JSONValue? {
        try JSONValue.parse(output)["authenticationStatus"]?["terminal"]
    }

    /// Why Terminal Authentication failed, "" when the JSON says no reason.
    static func reason(_ output: String) throws -> String {
        guard case .string(let reason)? = try terminal(output)?["reason"] else { return "" }
        return reason
    }

    @Test(arguments: ["read", "dump"])
    func withTheKeyInAFile(_ name: String) throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = OptionGroupCLITests.temporaryDirectory("terminal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try Self.pki(emrtd, in: directory)
        let result = try Subprocess.run(
            emrtd,
            Self.command(name, pki, directory) + ["--terminal-certificates", pki, "--terminal-key", pki + "/is.pkcs8"])
        #expect(result.status == 0, "\(result.combinedOutput)")
        let json = try JSONValue.parse(result.output)
        let terminal = json["authenticationStatus"]?["terminal"]
        #expect(terminal?["status"] == "succeeded", "\(String(describing: terminal))")
        #expect(terminal?["certificates"] == .array(["UTDV00001", "UTIS00001"]))
        #expect(json["deniedFiles"] == .array([]) && json["encodedIdentificationFeaturesFinger"] != .null)
        if name == "dump" {
            let written = directory.appendingPathComponent("dump/DG3.bin").path
            #expect(FileManager.default.fileExists(atPath: written))
        }
        // Without the terminal group DG3 stays denied, and the JSON says it was not configured.
        let plain = try Subprocess.run(emrtd, ["read"] + Self.command("read", pki, directory).dropFirst())
        #expect(try Self.terminal(plain.output)?["status"] == "notConfigured")
        #expect(try JSONValue.parse(plain.output)["deniedFiles"] == .array(["dg3"]))
    }

    /// The key stays with OpenSSL: it signs what it reads on stdin and prints a DER signature,
    /// which the read turns into r‖s; a signer that fails leaves DG3 denied and says why.
    @Test(arguments: ["read", "dump"])
    func withASignerProcess(_ name: String) throws {
        guard let emrtd = CLITests.emrtd(), let openssl = Prerequisites.tool("openssl", package: "openssl") else {
            return
        }
        let directory = OptionGroupCLITests.temporaryDirectory("signer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try Self.pki(emrtd, in: directory)
        let certificates = ["--terminal-certificates", pki + "/cvca.cvcert", "--terminal-certificates", pki]
        let signer = "\(openssl) dgst -sha256 -sign \(pki)/is.pkcs8 -keyform DER"
        let result = try Subprocess.run(
            emrtd, Self.command(name, pki, directory) + certificates + ["--terminal-signer", signer])
        #expect(result.status == 0, "\(result.combinedOutput)")
        #expect(try Self.terminal(result.output)?["status"] == "succeeded", "\(result.combinedOutput)")

        try? FileManager.default.removeItem(at: directory.appendingPathComponent("dump"))
        let failing = try Subprocess.run(
            emrtd, Self.command(name, pki, directory) + certificates + ["--terminal-signer", "cat >/dev/null; exit 3"])
        #expect(failing.status == 0, "\(failing.combinedOutput)")
        let terminal = try Self.terminal(failing.output)
        #expect(terminal?["status"] == "failed")
        guard case .string(let reason)? = terminal?["reason"] else {
            Issue.record("no reason: \(failing.output)")
            return
        }
        #expect(reason.contains("exited with status 3"), "\(reason)")
        #expect(try JSONValue.parse(failing.output)["deniedFiles"] == .array(["dg3"]))
    }

    /// Hostile signers end in bounded time: one that prints without end is cut at 4 KB; one
    /// whose child keeps its output open is killed at 10 s with that child (its whole group).
    @Test func aHostileSignerIsBounded() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = OptionGroupCLITests.temporaryDirectory("hostile-signer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try Self.pki(emrtd, in: directory)
        let certificates = ["--terminal-certificates", pki]
        let endless = try Subprocess.run(
            emrtd, Self.command("read", pki, directory) + certificates + ["--terminal-signer", "yes; true"])
        #expect(endless.status == 0, "\(endless.combinedOutput)")
        #expect(
            try Self.reason(endless.output).contains("more than 4096 bytes"),
            "\(endless.output)")

        let pidFile = directory.appendingPathComponent("child.pid").path
        let lingering = try Subprocess.run(
            emrtd,
            Self.command("read", pki, directory) + certificates + [
                "--terminal-signer", "sleep 600 & echo $! > \(pidFile); wait",
            ])
        #expect(lingering.status == 0, "\(lingering.combinedOutput)")
        #expect(
            try Self.reason(lingering.output).contains("within 10"),
            "\(lingering.output)")
        let child = try #require(
            Int32(
                String(decoding: FileManager.default.contents(atPath: pidFile) ?? Data(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed with its group; reaped by init at once, so gone (polled: a cap, not a timing).
        var gone = false
        for _ in 0..<100 where !gone {
            gone = kill(child, 0) != 0
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the signer's child \(child) outlived it")
    }

    /// An expired IS certificate: the chip refuses it; the summary names it and the status word.
    @Test func aRefusedCertificateIsNamed() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = OptionGroupCLITests.temporaryDirectory("expired")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try Self.pki(emrtd, in: directory, ["--terminal-until", "2026-03-31"])
        let arguments = Self.command("read", pki, directory).filter { $0 != "--json" }
        let result = try Subprocess.run(
            emrtd, arguments + ["--terminal-certificates", pki, "--terminal-key", pki + "/is.pkcs8"])
        #expect(result.status == 0, "\(result.combinedOutput)")
        #expect(result.output.contains("terminal:  failed: PSO:Verify Certificate of certificate UTIS00001"))
        #expect(result.output.contains("6A80") && result.output.contains("denied:    dg3"), "\(result.output)")
    }

    @Test func usageErrors() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = OptionGroupCLITests.temporaryDirectory("terminal-usage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try Self.pki(emrtd, in: directory)
        let read = Self.command("read", pki, directory)
        for wrong in [
            ["--terminal-key", pki + "/is.pkcs8"], ["--terminal-signer", "true"], ["--terminal-certificates", pki],
            ["--terminal-certificates", pki, "--terminal-key", pki + "/is.pkcs8", "--terminal-signer", "true"],
        ] {
            let result = try Subprocess.run(emrtd, read + wrong)
            #expect(result.status == 2 && result.errorOutput.hasPrefix("emrtd read: --terminal"), "\(wrong)")
        }
        // A key of another PKI, a key file that is no key, a directory without certificates.
        let other = directory.appendingPathComponent("other").path
        #expect(try Subprocess.run(emrtd, ["cvc", "make-pki", other]).status == 0)
        for (certificates, key, message) in [
            (pki, other + "/is.pkcs8", "is not the key of UTIS00001"), (pki, pki + "/is.cvcert", "terminal key"),
            (directory.path, pki + "/is.pkcs8", "holds no *.cvcert"),
        ] {
            let result = try Subprocess.run(
                emrtd, read + ["--terminal-certificates", certificates, "--terminal-key", key])
            #expect(result.status == 1 && result.errorOutput.contains(message), "\(result.errorOutput)")
        }
    }
}
