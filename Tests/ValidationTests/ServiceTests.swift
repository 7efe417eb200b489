import ChipSimulator
import Connector
import Foundation
import JSON
import Synchronization
import TestSupport
import Testing
import Validation

/// `emrtd serve` as a process, `emrtd relay` as client processes (and raw WebSocket clients in
/// this process for what `relay` never sends), Tools/result-server.py as the tenants' result
/// servers: every ending of a session, and the server still serving after each.
@Suite(.serialized) struct ServiceTests {
    @Test func everyEndingHasItsCodeAndTheServerKeepsServing() throws {
        guard let rig = try Rig.start() else { return }
        defer { rig.stop() }

        // A full validation with the MRZ: confirmed, posted once with the forwarded header.
        let mrz = try rig.relay(
            "v-mrz", client: "acme", key: ["--mrz", "L898902C", "690806", "940623"], extra: ["--header", "X-Trace: t1"])
        #expect(mrz.status == 0, "\(mrz.combinedOutput)")
        let outcome = try JSONValue.parse(mrz.output)
        #expect(outcome["code"] == .integer(1000))
        #expect(outcome["postConfirmed"] == .bool(true))
        #expect(outcome["result"]?["validationId"] == .string("v-mrz"))
        #expect(outcome["result"]?["authenticationStatus"]?["data"]?["status"] == .string("authenticated"))
        #expect(outcome["result"]?["additionalPersonalDetails"] != .null)
        // The chip's evidence travels with the result: the access protocol that opened the chip.
        #expect(
            outcome["result"]?["evidence"]?["version"] == .integer(1),
            "\(String(describing: outcome["result"]?["evidence"]))")
        #expect(outcome["result"]?["evidence"]?["access"] != nil)

        // With the CAN (PACE), DG1 and DG2 only; this tenant does not get the result back.
        let can = try rig.relay("v-can", client: "quiet", key: ["--can", "123456"], extra: ["--files", "minimalKYC"])
        #expect(can.status == 0, "\(can.combinedOutput)")
        #expect(try JSONValue.parse(can.output)["result"] == .null)

        // A wrong CAN: the chip refuses it; nothing is posted.
        let wrong = try rig.relay("v-wrong", client: "acme", key: ["--can", "654321"])
        #expect(wrong.status == 1)
        #expect(try JSONValue.parse(wrong.output)["code"] == .integer(Int(CloseCode.accessDenied.rawValue)))

        // An unknown tenant: refused before the key is sent.
        let unknown = try rig.relay("v-unknown", client: "nobody", key: ["--can", "123456"])
        #expect(try JSONValue.parse(unknown.output)["code"] == .integer(Int(CloseCode.unknownTenant.rawValue)))
        #expect(try JSONValue.parse(unknown.output)["apdus"] == .integer(0))

        // A client that vanishes mid-read (the process exits after 12 APDUs).
        let vanished = try rig.relay(
            "v-vanish", client: "acme", key: ["--can", "123456"], extra: ["--drop-after", "12"])
        #expect(vanished.status == 3)

        // A result server that refuses the POST: the result is stored, delivery pending.
        let refused = try rig.relay("v-refused", client: "refused", key: ["--can", "123456"])
        #expect(refused.status == 0)
        #expect(
            try JSONValue.parse(refused.output)["code"] == .integer(Int(CloseCode.storedPendingDelivery.rawValue)))

        // A flood of malformed messages on many connections while a validation runs beside it.
        let during = RelayInBackground(rig: rig, validationId: "v-during-flood")
        let floodCodes = try rig.flood(connections: 24)
        // 1006: a flooder whose oversized frame the server cut off mid-send sees the socket close
        // before the close frame (seen under load); never a success or another session's code.
        #expect(floodCodes.allSatisfy { [4000, 1006, 1008, 1009].contains($0) }, "\(floodCodes)")
        #expect(floodCodes.contains(1009))
        let beside = try during.result()
        #expect(beside.status == 0, "\(beside.combinedOutput)")

        // A client that stops talking after hello: closed after the step timeout.
        #expect(try rig.silentClient() == CloseCode.timeout.rawValue)

        // Still serving.
        let after = try rig.relay("v-after", client: "acme", key: ["--mrz", "L898902C", "690806", "940623"])
        #expect(after.status == 0, "\(after.combinedOutput)")

        // Each confirmed result posted exactly once, nothing for the others; the refused one is
        // tried again and again (DeliveryTests follow retries to the end); the server's log names
        // every session by validationId and codes it.
        let posted = try rig.posts(rig.acceptedLog)
        #expect(posted.sorted() == ["v-after", "v-can", "v-during-flood", "v-mrz"])
        let retried = try rig.posts(rig.refusedLog)
        #expect(!retried.isEmpty && retried.allSatisfy { $0 == "v-refused" })
        let headers = try String(contentsOfFile: rig.acceptedLog, encoding: .utf8)
        #expect(headers.contains("\"X-Trace\": \"t1\""))
        let sessions = [
            ("v-mrz", 1000), ("v-wrong", 4002), ("v-unknown", 4001), ("v-vanish", 4003), ("v-refused", 4008),
        ]
        let log = rig.serverLog { log in sessions.allSatisfy { log.contains(code: $0.1, for: $0.0) } }
        for (id, code) in sessions {
            #expect(
                log.contains("\"validationId\":\"\(id)\",\"clientId\"") && log.contains(code: code, for: id),
                "no session line for \(id) with \(code)")
        }
        #expect(log.contains("\"code\":1009,"), "no session line for the oversized message")
        #expect(!log.contains("L898902C"), "the server logged a document number")
        #expect(!log.contains("654321"), "the server logged a CAN")
        #expect(rig.server.isRunning)
    }

    /// Wrong command lines are usage errors (2), files that cannot serve are failures (1).
    @Test func commandLineErrors() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emrtd-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tenants = directory.appendingPathComponent("tenants.json")
        try Data(#"{"tenants": {"a": {"resultURL": "ftp://x/"}}}"#.utf8).write(to: tenants)
        let usages = [
            ["serve", "--tenants", tenants.path], ["serve", "--listen", "127.0.0.1", "--tenants", tenants.path],
            ["serve", "--listen", "127.0.0.1:0", "--tenants", tenants.path, "--tls-cert", "c.pem"],
            ["relay", "--simulator", "--client-id", "a", "--can", "123456"],
            ["relay", "--simulator", "--server", "ws://127.0.0.1:1/ws/validate", "--can", "123456"],
            [
                "relay", "--reader", "x", "--server", "ws://h/ws/validate", "--client-id", "a", "--can", "123456",
                "--files",
                "x",
            ],
        ]
        for arguments in usages {
            let run = try Subprocess.run(emrtd, arguments)
            #expect(run.status == 2, "\(arguments): \(run.combinedOutput)")
        }
        let badTenants = try Subprocess.run(emrtd, ["serve", "--listen", "127.0.0.1:0", "--tenants", tenants.path])
        #expect(badTenants.status == 1 && badTenants.errorOutput.contains("resultURL must be an http(s) URL"))
        let specimen = try Subprocess.run(
            emrtd, ["relay", "--simulator", "--specimen-out", directory.appendingPathComponent("chip").path])
        #expect(specimen.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("chip/csca.pem").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("chip/DG1.bin").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("chip/chip-keys.der").path))
    }

    /// wss:// with the server's certificate trusted by --ca, refused without it; beyond
    /// --max-sessions a session is closed `busy` at once, and served again once there is room.
    @Test func tlsAndTheSessionCap() throws {
        // The silent session holds the one place for 20 s: long enough for the busy relay (a
        // process started meanwhile, slow on a loaded machine) to reach the server while it does.
        guard let rig = try Rig.start(tls: true, stepTimeout: 20, serveArguments: ["--max-sessions", "1"]) else {
            return
        }
        defer { rig.stop() }
        let over = try rig.silentClient {
            let busy = try rig.relay("v-busy", client: "acme", key: ["--can", "123456"])
            #expect(try JSONValue.parse(busy.output)["code"] == .integer(Int(CloseCode.busy.rawValue)))
        }
        #expect(over == CloseCode.timeout.rawValue)
        // The slot is free once the server has ended the silent session, which may be just after
        // its close frame left: a relay that still meets `busy` tries again.
        var served = try rig.relay("v-tls", client: "acme", key: ["--can", "123456"])
        for _ in 0..<100 where (try? JSONValue.parse(served.output)["code"]) == .integer(Int(CloseCode.busy.rawValue)) {
            Thread.sleep(forTimeInterval: 0.1)
            served = try rig.relay("v-tls", client: "acme", key: ["--can", "123456"])
        }
        #expect(served.status == 0, "\(served.combinedOutput)")
        let untrusted = try Subprocess.run(
            rig.emrtd,
            [
                "relay", "--simulator", rig.directory.appendingPathComponent("chip").path, "--server",
                rig.url.absoluteString, "--client-id", "acme", "--can", "123456", "--json",
            ])
        #expect(try JSONValue.parse(untrusted.output)["code"] == .integer(Int(CloseCode.connectionLost.rawValue)))
        #expect(try rig.posts(rig.acceptedLog) == ["v-tls"])

        // SIGTERM mid-session: the session is closed with 1001 and the server exits 0.
        let stopped = try rig.silentClient { rig.server.stop() }
        #expect(stopped == CloseCode.goingAway.rawValue)
        #expect(rig.server.exitStatus == 0)
    }
}

extension String {
    fileprivate func contains(code: Int, for validationId: String) -> Bool {
        split(separator: "\n").contains {
            $0.contains("\"validationId\":\"\(validationId)\"") && $0.contains("\"code\":\(code),")
        }
    }
}

/// A relay run on another thread, for a validation beside something else.
private final class RelayInBackground: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Subprocess.Result, any Error>?>(nil)

    init(rig: Rig, validationId: String) {
        Thread.detachNewThread { [self] in
            let result = Result { try rig.relay(validationId, client: "acme", key: ["--can", "123456"]) }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    func result() throws -> Subprocess.Result {
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }
}

/// A long-running process of the test, its output in files, stopped with SIGTERM.
final class Background: Sendable {
    private let process: Process
    let errorPath: String
    let outputPath: String

    init(_ executable: String, _ arguments: [String], directory: URL, name: String) throws {
        outputPath = directory.appendingPathComponent("\(name).out").path
        errorPath = directory.appendingPathComponent("\(name).err").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
    }

    var isRunning: Bool { process.isRunning }
    /// The exit status once stopped, nil while running.
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// The first line of `path` matching `pattern`'s first group, waiting up to 20 s.
    func wait(for pattern: String, in path: String) -> String? {
        let expression = try? NSRegularExpression(pattern: pattern)
        for _ in 0..<200 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let range = NSRange(text.startIndex..., in: text)
            if let match = expression?.firstMatch(in: text, range: range),
                let group = Range(match.range(at: 1), in: text)
            {
                return String(text[group])
            }
            guard process.isRunning else { return nil }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// SIGKILL (a crash), waiting up to 5 s for the process to be gone.
    func crash() {
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
    }

    /// SIGTERM, then SIGKILL after 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The server, two result servers (one refusing) and the specimen chip the relays use.
final class Rig: Sendable {
    let emrtd: String
    let directory: URL
    let server: Background
    let port: Int
    let acceptedLog: String
    let refusedLog: String
    private let resultServers: [Background]

    /// With `tls`, a self-signed certificate for 127.0.0.1 (openssl) and wss://; the relays
    /// trust it with --ca.
    /// `stepTimeout`: the server's wait for each client message (short, so that timeouts end
    /// tests soon; long where another process must reach the server while a session waits).
    static func start(tls: Bool = false, stepTimeout: Int = 2, serveArguments: [String] = []) throws -> Rig? {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let python = Prerequisites.tool("python3", package: "python3")
        else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emrtd-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let specimen = try Specimen.generate()
        try specimen.files.write(to: directory.appendingPathComponent("chip"))
        // The chip's keys beside its files, so the relays' chips prove themselves (else: clones).
        try Data(try specimen.credentials.keysFile()).write(
            to: directory.appendingPathComponent("chip").appendingPathComponent(Credentials.keysFileName))
        let csca = directory.appendingPathComponent("csca.pem")
        try Data(specimen.countrySigningCertificatePEM.utf8).write(to: csca)
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/result-server.py").path
        let acceptedLog = directory.appendingPathComponent("accepted.jsonl").path
        let refusedLog = directory.appendingPathComponent("refused.jsonl").path
        let accepted = try Background(python, [script, "--log", acceptedLog], directory: directory, name: "accepted")
        let refused = try Background(
            python, [script, "--log", refusedLog, "--status", "503"], directory: directory, name: "refused")
        guard let acceptedPort = accepted.wait(for: "^(\\d+)", in: accepted.outputPath),
            let refusedPort = refused.wait(for: "^(\\d+)", in: refused.outputPath)
        else {
            Issue.record("the result servers did not start")
            return nil
        }
        // Open tenants: these tests are about sessions, TokenTests about tokens.
        let tenants = """
            {"tenants": {
              "acme": {"resultURL": "http://127.0.0.1:\(acceptedPort)/results", "receiveResult": true, "open": true},
              "quiet": {"resultURL": "http://127.0.0.1:\(acceptedPort)/results", "open": true},
              "refused": {"resultURL": "http://127.0.0.1:\(refusedPort)/results", "open": true}
            }}
            """
        let tenantsFile = directory.appendingPathComponent("tenants.json")
        try Data(tenants.utf8).write(to: tenantsFile)
        var tlsArguments: [String] = []
        if tls {
            guard let openssl = Prerequisites.tool("openssl", package: "openssl") else { return nil }
            let made = try Subprocess.run(
                openssl,
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                    directory.appendingPathComponent("key.pem").path, "-out",
                    directory.appendingPathComponent("cert.pem").path, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            guard made.status == 0 else {
                Issue.record("openssl made no certificate: \(made.combinedOutput)")
                return nil
            }
            tlsArguments = [
                "--tls-cert", directory.appendingPathComponent("cert.pem").path, "--tls-key",
                directory.appendingPathComponent("key.pem").path,
            ]
        }
        let server = try Background(
            emrtd,
            [
                "serve", "--listen", "127.0.0.1:0", "--tenants", tenantsFile.path, "--csca", csca.path, "--no-builtin",
                "--step-timeout", String(stepTimeout), "--outbox", directory.appendingPathComponent("outbox").path,
            ] + tlsArguments + serveArguments, directory: directory, name: "serve")
        guard let port = server.wait(for: "\"port\":(\\d+)", in: server.errorPath).flatMap(Int.init) else {
            Issue.record(
                "emrtd serve did not start: \((try? String(contentsOfFile: server.errorPath, encoding: .utf8)) ?? "")")
            return nil
        }
        return Rig(
            emrtd: emrtd, directory: directory, server: server, port: port, tls: tls, acceptedLog: acceptedLog,
            refusedLog: refusedLog, resultServers: [accepted, refused])
    }

    private init(
        emrtd: String, directory: URL, server: Background, port: Int, tls: Bool, acceptedLog: String,
        refusedLog: String, resultServers: [Background]
    ) {
        self.tls = tls
        self.emrtd = emrtd
        self.directory = directory
        self.server = server
        self.port = port
        self.acceptedLog = acceptedLog
        self.refusedLog = refusedLog
        self.resultServers = resultServers
    }

    let tls: Bool

    var url: URL { URL(string: "\(tls ? "wss" : "ws")://127.0.0.1:\(port)\(ValidationProtocol.path)")! }

    func relay(_ validationId: String, client: String, key: [String], extra: [String] = []) throws -> Subprocess.Result
    {
        try Subprocess.run(
            emrtd,
            [
                "relay", "--simulator", directory.appendingPathComponent("chip").path, "--server", url.absoluteString,
                "--client-id", client, "--validation-id", validationId, "--json", "--server-timeout", "20",
            ] + key + extra + (tls ? ["--ca", directory.appendingPathComponent("cert.pem").path] : []))
    }

    /// Opens `connections` connections at once, each sending something the protocol refuses;
    /// returns the close code each got.
    func flood(connections: Int) throws -> [UInt16] {
        let garbage: [[WebSocketMessage]] = [
            [.binary([0x00, 0xA4, 0x04, 0x00])],
            [.text("not json")],
            [
                .text(
                    "{\"type\":\"access\",\"accessKey\":{\"kind\":\"can\",\"password\":\"123456\"},\"filesToRead\":\"all\"}"
                )
            ],
            [.text("{\"type\":\"hello\",\"version\":1,\"validationId\":\"\",\"clientId\":\"acme\"}")],
            [.binary([UInt8](repeating: 0x41, count: ValidationProtocol.maximumMessageSize + 1))],
            // Far more messages than the protocol asks for, faster than they are read.
            [.text(ClientMessage.hello(ValidationHello(validationId: "f2", clientId: "acme")).text)]
                + Array(repeating: .text("{}"), count: 200),
            [
                .text("{\"type\":\"hello\",\"version\":1,\"validationId\":\"f\",\"clientId\":\"acme\"}"),
                .text("[1,2,3]"),
            ],
        ]
        let limits = WebSocketLimits(maximumMessageSize: 4 * ValidationProtocol.maximumMessageSize)
        let endpoints = try (0..<connections).map { _ in
            try WebSocketEndpoint(
                clientTo: url, protocolName: ValidationProtocol.subprotocol, caFile: nil, limits: limits)
        }
        defer { for endpoint in endpoints { endpoint.stop() } }
        for (index, endpoint) in endpoints.enumerated() {
            for message in garbage[index % garbage.count] { endpoint.client?.send(message) }
        }
        return endpoints.map { endpoint in
            while true {
                switch endpoint.client?.receive(timeout: .seconds(10)) {
                case .closed(let code, _)?: return code
                case .message?: continue
                case .timeout?, nil: return 0
                }
            }
        }
    }

    /// A client that says hello and then nothing: the close code it gets (`meanwhile` runs
    /// once the server answered the hello).
    func silentClient(meanwhile: () throws -> Void = {}) throws -> UInt16 {
        let endpoint = try WebSocketEndpoint(
            clientTo: url, protocolName: ValidationProtocol.subprotocol,
            caFile: tls ? directory.appendingPathComponent("cert.pem").path : nil,
            limits: WebSocketLimits(maximumMessageSize: ValidationProtocol.maximumMessageSize))
        defer { endpoint.stop() }
        endpoint.client?.send(
            .text(ClientMessage.hello(ValidationHello(validationId: "v-silent", clientId: "acme")).text))
        guard case .message(.text(let ready))? = endpoint.client?.receive(timeout: .seconds(30)),
            case .ready? = try? ServerMessage.parse(ready)
        else { return 0 }
        try meanwhile()
        while true {
            // A cap against a hang, past any step timeout a rig sets.
            switch endpoint.client?.receive(timeout: .seconds(60)) {
            case .closed(let code, _)?: return code
            case .message?: continue
            case .timeout?, nil: return 0
            }
        }
    }

    /// The validationIds a result server received, in order.
    func posts(_ log: String) throws -> [String] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { line in
            guard case .string(let id)? = try JSONValue.parse(String(line))["validationId"] else { return "" }
            return id
        }
    }

    func serverLog() -> String { (try? String(contentsOfFile: server.errorPath, encoding: .utf8)) ?? "" }

    /// The server's log once `complete` holds for it, or as it is after 30 s (a cap against a
    /// hang: the server writes a session's line as the session ends, not when its client has).
    func serverLog(until complete: (String) -> Bool) -> String {
        for _ in 0..<300 {
            let log = serverLog()
            if complete(log) { return log }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return serverLog()
    }

    func stop() {
        server.stop()
        for resultServer in resultServers { resultServer.stop() }
        try? FileManager.default.removeItem(at: directory)
    }
}
