import ChipSimulator
import Connector
import Foundation
import JSON
import Synchronization
import TestSupport
import Testing

/// The pieces TokenTests and DeliveryTests put together as they need them: a folder with the
/// specimen chip and its CSCA, result servers (Tools/result-server.py with its options), `emrtd
/// serve` with a given tenants file and outbox, and `emrtd relay`/`emrtd token` runs.
final class ServiceHarness: Sendable {
    let emrtd: String
    let python: String
    let directory: URL
    private let started = Mutex<[Background]>([])

    /// Nil (after recording why) when emrtd or python3 is missing.
    static func make() throws -> ServiceHarness? {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let python = Prerequisites.tool("python3", package: "python3")
        else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emrtd-harness-\(UUID().uuidString)")
        let chip = directory.appendingPathComponent("chip")
        try FileManager.default.createDirectory(at: chip, withIntermediateDirectories: true)
        let specimen = try Specimen.generate()
        try specimen.files.write(to: chip)
        try Data(try specimen.credentials.keysFile()).write(to: chip.appendingPathComponent(Credentials.keysFileName))
        try Data(specimen.countrySigningCertificatePEM.utf8).write(to: directory.appendingPathComponent("csca.pem"))
        return ServiceHarness(emrtd: emrtd, python: python, directory: directory)
    }

    private init(emrtd: String, python: String, directory: URL) {
        self.emrtd = emrtd
        self.python = python
        self.directory = directory
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Tools/result-server.py logging to `log` (a file in the folder), and its port.
    func resultServer(log: String, _ arguments: [String] = [], name: String) throws -> (Background, Int)? {
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/result-server.py").path
        let server = try Background(python, [script, "--log", path(log)] + arguments, directory: directory, name: name)
        started.withLock { $0.append(server) }
        guard let port = server.wait(for: "^(\\d+)", in: server.outputPath).flatMap(Int.init) else {
            Issue.record("the result server \(name) did not start")
            return nil
        }
        return (server, port)
    }

    /// `emrtd serve` on a free port with `tenants` (the file's JSON) and the outbox `outbox`,
    /// trusting the specimen's CSCA; nil after recording why it did not start.
    func server(tenants: String, outbox: String, _ arguments: [String] = [], name: String) throws -> (Background, Int)?
    {
        try Data(tenants.utf8).write(to: directory.appendingPathComponent("\(name)-tenants.json"))
        // As an operator keeps it: the file holds the tenants' secrets (serve warns otherwise).
        chmod(path("\(name)-tenants.json"), 0o600)
        let server = try Background(
            emrtd,
            [
                "serve", "--listen", "127.0.0.1:0", "--tenants", path("\(name)-tenants.json"), "--csca",
                path("csca.pem"), "--no-builtin", "--step-timeout", "5", "--outbox", path(outbox),
            ] + arguments, directory: directory, name: name)
        started.withLock { $0.append(server) }
        guard let port = server.wait(for: "\"port\":(\\d+)", in: server.errorPath).flatMap(Int.init) else {
            Issue.record("emrtd serve did not start: \(log(of: server))")
            return nil
        }
        return (server, port)
    }

    /// `emrtd relay --json` of the specimen chip with the CAN; its JSON outcome (nil when it
    /// printed none) and the run.
    func relay(port: Int, client: String, validationId: String, token: String?) throws -> (
        JSONValue?, Subprocess.Result
    ) {
        let run = try Subprocess.run(
            emrtd,
            [
                "relay", "--simulator", path("chip"), "--server", "ws://127.0.0.1:\(port)\(ValidationProtocol.path)",
                "--client-id", client, "--validation-id", validationId, "--can", "123456", "--json",
                "--server-timeout", "30",
            ] + (token.map { ["--token", $0] } ?? []))
        return (try? JSONValue.parse(run.output), run)
    }

    func log(of process: Background) -> String {
        (try? String(contentsOfFile: process.errorPath, encoding: .utf8)) ?? ""
    }

    /// The lines of a result server's log.
    func posts(_ log: String) -> [JSONValue] {
        let text = (try? String(contentsOfFile: path(log), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    /// The entries waiting in an outbox.
    func pending(_ outbox: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path(outbox))) ?? []).filter { $0.hasSuffix(".result") }
    }

    /// Polls `condition` every 0.1 s for up to `seconds` (a cap against a hang, not a timing).
    func eventually(seconds: Int = 60, _ condition: () -> Bool) -> Bool {
        for _ in 0..<(seconds * 10) {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }

    func stop() {
        for process in started.withLock({ $0 }) { process.stop() }
        try? FileManager.default.removeItem(at: directory)
    }
}
