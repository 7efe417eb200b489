import Connector
import Foundation
import JSON
import TestSupport
import Testing

@testable import Validation

/// Results are never lost: the outbox's files, retries until a result server confirms, and a
/// restart after SIGKILL resuming what the outbox holds.
@Suite struct DeliveryTests {
    static func entry(_ validationId: String, clientId: String = "acme") -> OutboxEntry {
        OutboxEntry(
            validationId: validationId, clientId: clientId, resultURL: URL(string: "http://127.0.0.1:9/r")!,
            headers: ["X-Trace": "t"], storedAt: 1_800_000_000, body: #"{"validationId":"\#(validationId)","x":[1,2]}"#)
    }

    @Test func outboxFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emrtd-outbox-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let outbox = try Outbox(directory: directory)
            // A client-chosen id never reaches a path: the name is a digest.
            let hostile = Self.entry("../../x/..\\\u{7F}")
            let name = try outbox.store(hostile)
            #expect(name.count == 64 + ".result".count && name.hasSuffix(".result"))
            #expect(name.dropLast(7).allSatisfy { "0123456789abcdef".contains($0) })
            #expect(try outbox.load(name) == hostile)
            // The same validationId of another tenant is another entry; a second result of one
            // still pending is refused (the first stands).
            let other = try outbox.store(Self.entry(hostile.validationId, clientId: "other"))
            #expect(other != name)
            #expect(throws: ValidationError.self) { try outbox.store(hostile) }
            // One process per folder.
            #expect(throws: ValidationError.self) { try Outbox(directory: directory) }
            outbox.remove(other)
            #expect(outbox.names == [name])
        }
        // Reopened (the first released its lock): the entry is still there, a crash's temporary
        // file is gone, and a file that is no entry is set aside, not lost.
        try Data("half".utf8).write(to: URL(fileURLWithPath: directory + "/.x.result.emrtd-0"))
        try Data("not an entry".utf8).write(
            to: URL(fileURLWithPath: directory + "/" + String(repeating: "0", count: 64) + ".result"))
        let reopened = try Outbox(directory: directory)
        #expect(reopened.names.count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory + "/.x.result.emrtd-0"))
        let broken = String(repeating: "0", count: 64) + ".result"
        #expect(throws: ValidationError.self) { try reopened.load(broken) }
        reopened.setAside(broken)
        #expect(FileManager.default.fileExists(atPath: directory + "/undeliverable/" + broken))
        #expect(reopened.names.count == 1)
    }

    /// A result server that answers 503 three times, then 200: the session closes 4008, the
    /// deliverer retries, the result is received exactly once by its Idempotency-Key, and the
    /// outbox ends empty.
    @Test func retriedUntilConfirmedExactlyOnce() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard let (_, resultPort) = try harness.resultServer(log: "posts.jsonl", ["--fail-first", "3"], name: "flaky"),
            let (server, port) = try harness.server(
                tenants: #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/r", "open": true}}}"#,
                outbox: "outbox", ["--delivery-backoff-ms", "50"], name: "serve")
        else { return }
        let (outcome, run) = try harness.relay(port: port, client: "acme", validationId: "d-flaky", token: nil)
        #expect(outcome?["code"] == .integer(Int(CloseCode.storedPendingDelivery.rawValue)), "\(run.combinedOutput)")
        #expect(run.status == 0)
        // The server logs the delivery after it removed the entry: waited for too.
        let confirmed = harness.eventually {
            harness.pending("outbox").isEmpty && harness.posts("posts.jsonl").contains { $0["status"] == .integer(200) }
                && harness.log(of: server).contains("\"event\":\"delivered\",\"validationId\":\"d-flaky\"")
        }
        #expect(confirmed, "not delivered: \(harness.log(of: server))")
        let posts = harness.posts("posts.jsonl")
        #expect(posts.map { $0["status"] } == [503, 503, 503, 200].map { .integer($0) })
        #expect(
            posts.allSatisfy { $0["idempotencyKey"] == .string("d-flaky") && $0["validationId"] == .string("d-flaky") })
        #expect(posts.filter { $0["status"] == .integer(200) }.count == 1)
    }

    /// The server is killed (SIGKILL) while its deliverer waits on a result server that does not
    /// answer; restarted on the same outbox with the result server back, it delivers the result.
    @Test func deliveredAfterSIGKILLAndRestart() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard let (slow, resultPort) = try harness.resultServer(log: "slow.jsonl", ["--delay", "60"], name: "slow")
        else { return }
        let tenants = #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/r", "open": true}}}"#
        guard
            let (first, port) = try harness.server(
                tenants: tenants, outbox: "outbox", ["--post-timeout", "1", "--delivery-backoff-ms", "50"],
                name: "first")
        else { return }
        let (outcome, run) = try harness.relay(port: port, client: "acme", validationId: "d-killed", token: nil)
        #expect(outcome?["code"] == .integer(Int(CloseCode.storedPendingDelivery.rawValue)), "\(run.combinedOutput)")
        first.crash()
        #expect(harness.pending("outbox").count == 1)
        slow.stop()

        guard try harness.resultServer(log: "posts.jsonl", ["--port", String(resultPort)], name: "back") != nil,
            let (second, _) = try harness.server(tenants: tenants, outbox: "outbox", name: "second")
        else { return }
        let delivered = harness.eventually {
            harness.pending("outbox").isEmpty && harness.posts("posts.jsonl").contains { $0["status"] == .integer(200) }
        }
        #expect(delivered, "not delivered after the restart: \(harness.log(of: second))")
        let received = harness.posts("posts.jsonl").filter { $0["idempotencyKey"] == .string("d-killed") }
        #expect(received.count == 1 && received.first?["status"] == .integer(200))
        #expect(harness.log(of: second).contains("\"event\":\"outboxResumed\",\"pending\":1"))
    }

    /// 4005 only when the result could neither be stored nor confirmed (the outbox's rename is
    /// made to fail: a folder stands where the entry goes); a second server on the same outbox
    /// does not start.
    @Test func neitherStoredNorConfirmedIs4005() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard
            let (_, resultPort) = try harness.resultServer(log: "posts.jsonl", ["--status", "503"], name: "refusing"),
            let (server, port) = try harness.server(
                tenants: #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/r", "open": true}}}"#,
                outbox: "outbox", name: "serve")
        else { return }
        let blocker = harness.path("outbox/" + Outbox.name(clientId: "acme", validationId: "d-unstored") + "/x")
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: true)
        let (outcome, run) = try harness.relay(port: port, client: "acme", validationId: "d-unstored", token: nil)
        #expect(outcome?["code"] == .integer(Int(CloseCode.postFailed.rawValue)), "\(run.combinedOutput)")
        #expect(run.status == 1)
        #expect(harness.log(of: server).contains("\"event\":\"outboxFailed\""))

        let second = try Background(
            harness.emrtd,
            [
                "serve", "--listen", "127.0.0.1:0", "--tenants", harness.path("serve-tenants.json"), "--outbox",
                harness.path("outbox"), "--csca", harness.path("csca.pem"), "--no-builtin",
            ], directory: harness.directory, name: "second")
        #expect(harness.eventually(seconds: 30) { !second.isRunning }, "a second server started on the outbox")
        second.stop()
        #expect(second.exitStatus == 1)
        #expect(harness.log(of: second).contains("in use by another emrtd serve"))
    }

    /// Past --delivery-retry-seconds an entry no result server confirmed is set aside in
    /// `undeliverable/`, kept, and logged.
    @Test func setAsideAfterTheRetryTime() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard
            let (_, resultPort) = try harness.resultServer(log: "posts.jsonl", ["--status", "503"], name: "refusing"),
            let (server, port) = try harness.server(
                tenants: #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/r", "open": true}}}"#,
                outbox: "outbox", ["--delivery-retry-seconds", "1", "--delivery-backoff-ms", "50"], name: "serve")
        else { return }
        let (outcome, run) = try harness.relay(port: port, client: "acme", validationId: "d-late", token: nil)
        #expect(outcome?["code"] == .integer(Int(CloseCode.storedPendingDelivery.rawValue)), "\(run.combinedOutput)")
        let name = Outbox.name(clientId: "acme", validationId: "d-late")
        let setAside = harness.eventually {
            FileManager.default.fileExists(atPath: harness.path("outbox/undeliverable/" + name))
        }
        #expect(setAside, "\(harness.log(of: server))")
        #expect(harness.pending("outbox").isEmpty)
        // The server moves the entry, then logs it: the line may follow the file by a moment.
        #expect(
            harness.eventually {
                harness.log(of: server).contains("\"event\":\"undeliverable\",\"validationId\":\"d-late\"")
            }, "\(harness.log(of: server))")
    }

    /// A result server that answers a redirect did not confirm: the POST is not followed (no
    /// GET, no second POST carrying the key elsewhere), the attempt fails saying so.
    @Test(arguments: [301, 302, 303, 307, 308]) func aRedirectIsAFailedAttempt(status: Int) throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard
            let (_, port) = try harness.resultServer(log: "posts.jsonl", ["--redirect", String(status)], name: "moved")
        else { return }
        let entry = OutboxEntry(
            validationId: "d-moved", clientId: "acme", resultURL: URL(string: "http://127.0.0.1:\(port)/r")!,
            headers: [:], storedAt: 1_800_000_000, body: #"{"validationId":"d-moved"}"#)
        let problem = ResultPoster(timeout: .seconds(10)).post(entry)
        #expect(problem?.contains("\(status), a redirect") == true, "\(problem ?? "confirmed")")
        let requests = harness.posts("posts.jsonl")
        #expect(requests.count == 1 && requests.first?["path"] == .string("/r"), "\(requests)")
        #expect(requests.first?["status"] == .integer(status))
    }

    /// Through `serve`: a session whose result server redirects ends 4008 (stored, pending), the
    /// entry stays in the outbox, and the log says why.
    @Test func aRedirectedResultStaysInTheOutbox() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard
            let (_, resultPort) = try harness.resultServer(log: "posts.jsonl", ["--redirect", "308"], name: "moved"),
            let (server, port) = try harness.server(
                tenants: #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:\#(resultPort)/r", "open": true}}}"#,
                outbox: "outbox", ["--delivery-backoff-ms", "50"], name: "serve")
        else { return }
        let (outcome, run) = try harness.relay(port: port, client: "acme", validationId: "d-moved", token: nil)
        #expect(outcome?["code"] == .integer(Int(CloseCode.storedPendingDelivery.rawValue)), "\(run.combinedOutput)")
        #expect(harness.pending("outbox").count == 1)
        #expect(
            harness.eventually { harness.log(of: server).contains("\"event\":\"deliveryFailed\"") },
            "\(harness.log(of: server))")
        #expect(harness.log(of: server).contains("308, a redirect"))
        #expect(!harness.posts("posts.jsonl").contains { $0["path"] == .string("/moved") })
    }
}
