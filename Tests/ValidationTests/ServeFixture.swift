import ChipSimulator
import Connector
import Foundation
import Glibc
import TestSupport
import Testing

/// A specimen chip (its face as large as asked), a result server that accepts, a tenant `acme`
/// that receives its result, and `emrtd serve` processes started on any `--listen` address:
/// for the tests of the listener, the admission of connections and large results.
final class ServeFixture: Sendable {
    let emrtd: String
    let directory: URL
    /// The specimen's files and keys, for `relay --simulator`.
    let chip: URL
    /// The specimen's DG2 as the chip holds it.
    let face: [UInt8]
    private let tenants: URL
    private let csca: URL
    private let resultServer: Background

    static func make(faceSize: Int = 0) throws -> ServeFixture? {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let python = Prerequisites.tool("python3", package: "python3")
        else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emrtd-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let specimen = try Specimen.generate(faceSize: faceSize)
        let chip = directory.appendingPathComponent("chip")
        try specimen.files.write(to: chip)
        try Data(try specimen.credentials.keysFile()).write(to: chip.appendingPathComponent(Credentials.keysFileName))
        let csca = directory.appendingPathComponent("csca.pem")
        try Data(specimen.countrySigningCertificatePEM.utf8).write(to: csca)
        let log = directory.appendingPathComponent("posted.jsonl").path
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/result-server.py").path
        let resultServer = try Background(python, [script, "--log", log], directory: directory, name: "results")
        guard let resultPort = resultServer.wait(for: "^(\\d+)", in: resultServer.outputPath) else {
            resultServer.stop()
            Issue.record("the result server did not start")
            return nil
        }
        let tenants = directory.appendingPathComponent("tenants.json")
        try Data(
            #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/results", "receiveResult": true, "open": true}}}"#
                .utf8
        ).write(to: tenants)
        chmod(tenants.path, 0o600)
        return ServeFixture(
            emrtd: emrtd, directory: directory, chip: chip,
            face: specimen.files.application[ChipFiles.dataGroupIdentifier(2)] ?? [], tenants: tenants, csca: csca,
            resultServer: resultServer)
    }

    private init(
        emrtd: String, directory: URL, chip: URL, face: [UInt8], tenants: URL, csca: URL, resultServer: Background
    ) {
        self.emrtd = emrtd
        self.directory = directory
        self.chip = chip
        self.face = face
        self.tenants = tenants
        self.csca = csca
        self.resultServer = resultServer
    }

    /// The arguments of `emrtd serve` on `listen` for this fixture's (open) tenant and CSCA, with
    /// an outbox of its own (one server per outbox).
    func serveArguments(listen: String, _ extra: [String] = []) -> [String] {
        let outbox = directory.appendingPathComponent("outbox-\(UUID().uuidString)").path
        return [
            "serve", "--listen", listen, "--tenants", tenants.path, "--csca", csca.path, "--no-builtin", "--outbox",
            outbox,
        ]
            + extra
    }

    /// `emrtd serve` running on `listen`; nil (after recording why) when it did not start.
    func serve(listen: String, _ extra: [String] = []) throws -> ServeProcess? {
        let server = try ServeProcess(emrtd, serveArguments(listen: listen, extra), directory: directory)
        guard server.port != nil else {
            Issue.record("emrtd serve did not start: \(server.log)")
            server.stop()
            return nil
        }
        return server
    }

    /// `emrtd relay` of the fixture's chip to `url` as tenant `acme`, with the CAN.
    func relay(_ url: String, validationId: String, _ extra: [String] = []) throws -> Subprocess.Result {
        try Subprocess.run(
            emrtd,
            [
                "relay", "--simulator", chip.path, "--server", url, "--client-id", "acme", "--validation-id",
                validationId, "--can", "123456", "--json", "--server-timeout", "30",
            ] + extra)
    }

    func stop() {
        resultServer.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// `emrtd serve` as a process: its pid (to find its sockets), its log, and the port it logged.
final class ServeProcess: Sendable {
    private let process: Process
    private let errorPath: String
    /// The port of the `listening` line; nil when the server exited first.
    let port: Int?

    init(_ executable: String, _ arguments: [String], directory: URL) throws {
        errorPath = directory.appendingPathComponent("serve-\(UUID().uuidString).err").path
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        var port: Int?
        // A cap against a hang: the line comes as soon as the server listens.
        for _ in 0..<300 where port == nil && process.isRunning {
            let log = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            if let range = log.range(of: #""port":(\d+)"#, options: .regularExpression) {
                port = Int(log[range].dropFirst(7))
            } else {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        self.port = port
    }

    var pid: pid_t { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var log: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The addresses the process listens on (TCP, from /proc/net/tcp and tcp6 for its sockets),
    /// as `ADDRESS:PORT` (IPv6 in brackets).
    func listeningAddresses() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(
            descriptors.compactMap { name -> String? in
                guard
                    let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)"),
                    target.hasPrefix("socket:[")
                else { return nil }
                return String(target.dropFirst(8).dropLast())
            })
        return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { table in
            let lines = ((try? String(contentsOfFile: table, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst()
            return lines.compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])) else { return nil }
                return Self.decode(String(fields[1]))
            }
        }
    }

    /// `0100007F:1F90` → `127.0.0.1:8080`; an IPv6 address is four little-endian words.
    private static func decode(_ field: String) -> String? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1], radix: 16) else { return nil }
        let hex = Array(parts[0])
        var bytes: [UInt8] = stride(from: 0, to: hex.count - 1, by: 2).compactMap {
            UInt8(String(hex[$0...$0 + 1]), radix: 16)
        }
        for word in stride(from: 0, to: bytes.count, by: 4) { bytes[word..<word + 4].reverse() }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes, &text, socklen_t(text.count)) != nil else { return nil }
        let address = String(cString: text)
        return family == AF_INET ? "\(address):\(port)" : "[\(address)]:\(port)"
    }

    /// SIGTERM, then SIGKILL after 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
