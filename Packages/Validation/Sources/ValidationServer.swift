import Connector
import Emrtd
import Foundation
import JSON
import LDS
import Synchronization

/// How `ValidationServer` serves.
public struct ValidationServerConfig: Sendable {
    /// The one address listened on: IPv4, or IPv6 without brackets (`0.0.0.0`, `::`: every
    /// address of the family); `port` 0 lets the kernel pick (see `ValidationServer.port`).
    public var host: String
    public var port: Int
    /// PEM certificate chain and key files: wss:// instead of ws://.
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?
    public var tenants: Tenants
    /// The trust anchors and the per-APDU deadline of every read (`timeoutMs` is raised to
    /// above `stepTimeout`, so that the relay's own timeout fires first and is reported as such).
    public var reader: ReaderConfig
    /// The longest wait for one message of the client: the handshake, the access key, each
    /// APDU answer.
    public var stepTimeout: Duration
    /// The longest whole session, however fast each step is (a slow client cannot hold a session).
    public var sessionTimeout: Duration
    /// The longest wait for the result server's answer.
    public var postTimeout: Duration
    /// Sessions beyond this many at once are closed with `busy` at once. A connection becomes
    /// a session with its valid `hello`; until then it holds one of the waiting places below.
    public var maximumSessions: Int
    /// The longest wait for a new connection's `hello` (then `timeout`): short, so that silent
    /// connections cannot hold the server's places.
    public var helloTimeout: Duration
    /// Connections waiting for their `hello`, per source address and in all; more are closed
    /// with `busy` at once. Their own budget: they never take a session's place.
    public var maximumWaitingPerAddress: Int
    public var maximumWaiting: Int
    /// The durable outbox's folder; nil for `defaultOutboxDirectory`.
    public var outboxDirectory: String?
    /// How long the outbox's deliverer keeps trying a result after it was stored (then it is set
    /// aside in the outbox's `undeliverable/`).
    public var deliveryRetry: Duration = .seconds(24 * 3600)
    /// The wait before the first retry; it doubles each time, up to 5 minutes.
    public var deliveryBackoff: Duration = .seconds(1)

    /// `$XDG_STATE_HOME/emrtd/outbox`, `~/.local/state/emrtd/outbox` without it; nil when the
    /// environment names neither (the caller must then say where).
    public static func defaultOutboxDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/emrtd/outbox" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/emrtd/outbox" }
        return nil
    }

    public init(
        host: String = "127.0.0.1", port: Int, tenants: Tenants,
        reader: ReaderConfig = ReaderConfig(renderImages: false),
        stepTimeout: Duration = .seconds(10), sessionTimeout: Duration = .seconds(120),
        postTimeout: Duration = .seconds(10), maximumSessions: Int = 32, helloTimeout: Duration = .seconds(2),
        maximumWaitingPerAddress: Int = 32, maximumWaiting: Int = 256
    ) {
        self.host = host
        self.port = port
        self.tenants = tenants
        self.reader = reader
        self.stepTimeout = stepTimeout
        self.sessionTimeout = sessionTimeout
        self.postTimeout = postTimeout
        self.maximumSessions = maximumSessions
        self.helloTimeout = helloTimeout
        self.maximumWaitingPerAddress = maximumWaitingPerAddress
        self.maximumWaiting = maximumWaiting
    }
}

/// The server of `emrtd serve`: accepts WebSocket sessions on `ValidationProtocol.path`, runs
/// each on a thread of its own (the read is blocking), and keeps nothing between sessions, so
/// that more processes behind a proxy serve more clients.
public final class ValidationServer: Sendable {
    private let endpoint: WebSocketEndpoint
    private let state: Shared

    /// What the sessions share: the configuration, the sessions' connections, and idle
    /// readers per selection (an `EmrtdReader` builds its trust store once, when made, and reads
    /// one document at a time; its read plan carries the selection).
    final class Shared: Sendable {
        let config: ValidationServerConfig
        let log: @Sendable (JSONValue) -> Void
        let authenticator: TenantAuthenticator
        let outbox: Outbox
        let poster: ResultPoster
        let delivery: ResultDelivery
        /// Every open connection (so that `stop` can close them) and what each holds.
        let admission = Mutex(Admission())
        let idleReaders = Mutex<[FilesToRead: [EmrtdReader]]>([:])

        init(config: ValidationServerConfig, outbox: Outbox, log: @escaping @Sendable (JSONValue) -> Void) {
            self.config = config
            self.log = log
            self.outbox = outbox
            authenticator = TenantAuthenticator(tenants: config.tenants)
            poster = ResultPoster(timeout: config.postTimeout)
            delivery = ResultDelivery(
                outbox: outbox, poster: poster, retryFor: config.deliveryRetry, initialBackoff: config.deliveryBackoff,
                log: log)
        }

        func takeReader(for files: FilesToRead) throws(ReadError) -> EmrtdReader {
            if let reader = idleReaders.withLock({ $0[files]?.popLast() }) { return reader }
            return try EmrtdReader(config: config.reader, dataGroups: files.dataGroups)
        }

        func give(back reader: EmrtdReader, for files: FilesToRead) {
            idleReaders.withLock { $0[files, default: []].append(reader) }
        }

        /// A new connection takes a waiting place, or gets why not.
        func admit(_ connection: WebSocketConnection) -> String? {
            admission.withLock { admission in
                let address = connection.peerAddress
                guard admission.waiting < config.maximumWaiting else {
                    return "\(config.maximumWaiting) connections are waiting for their hello"
                }
                guard admission.waitingByAddress[address, default: 0] < config.maximumWaitingPerAddress else {
                    return
                        "\(config.maximumWaitingPerAddress) connections from this address are waiting for their hello"
                }
                admission.waiting += 1
                admission.waitingByAddress[address, default: 0] += 1
                admission.open[ObjectIdentifier(connection)] = connection
                return nil
            }
        }

        /// After a valid `hello`: the connection gives back its waiting place and takes a
        /// session's, or gets false when every session's place is taken.
        func promote(_ connection: WebSocketConnection) -> Bool {
            admission.withLock { admission in
                admission.release(waitingFrom: connection.peerAddress)
                guard admission.sessions < config.maximumSessions else { return false }
                admission.sessions += 1
                return true
            }
        }

        /// The connection ended: the place it held is free.
        func leave(_ connection: WebSocketConnection, holding place: Admission.Place) {
            admission.withLock { admission in
                admission.open[ObjectIdentifier(connection)] = nil
                switch place {
                case .waiting: admission.release(waitingFrom: connection.peerAddress)
                case .session: admission.sessions -= 1
                case .none: break
                }
            }
        }
    }

    /// What the connections hold: a waiting place from upgrade to `hello`, then a session's.
    struct Admission {
        enum Place { case waiting, session, none }

        var open: [ObjectIdentifier: WebSocketConnection] = [:]
        var waiting = 0
        var waitingByAddress: [String: Int] = [:]
        var sessions = 0

        mutating func release(waitingFrom address: String) {
            waiting -= 1
            let left = waitingByAddress[address, default: 1] - 1
            waitingByAddress[address] = left > 0 ? left : nil
        }
    }

    /// Listens at once; `log` gets one structured line per event (JSON objects; never a key).
    public init(config: ValidationServerConfig, log: @escaping @Sendable (JSONValue) -> Void) throws(ValidationError) {
        var config = config
        let stepMilliseconds = Int(config.stepTimeout.components.seconds) * 1000
        config.reader.timeoutMs = max(config.reader.timeoutMs, UInt32(clamping: stepMilliseconds + 1000))
        do throws(ReadError) {
            // Checks the trust anchors now, not in the first session.
            _ = try EmrtdReader(config: config.reader)
        } catch {
            throw ValidationError(.invalidArgument, "the reader cannot be made: \(error.reason)")
        }
        guard
            let outboxDirectory = config.outboxDirectory
                ?? ValidationServerConfig.defaultOutboxDirectory(environment: ProcessInfo.processInfo.environment)
        else {
            throw ValidationError(.invalidArgument, "no outbox folder: neither XDG_STATE_HOME nor HOME is set")
        }
        let shared = Shared(config: config, outbox: try Outbox(directory: outboxDirectory), log: log)
        state = shared
        let tls = config.tlsCertificateFile.flatMap { certificate in
            config.tlsKeyFile.map { (certificate: certificate, key: $0) }
        }
        do throws(ConnectorError) {
            endpoint = try WebSocketEndpoint(
                serverOn: config.host, port: config.port, path: ValidationProtocol.path,
                protocolName: ValidationProtocol.subprotocol, tls: tls,
                limits: WebSocketLimits(maximumMessageSize: ValidationProtocol.maximumMessageSize)
            ) { connection in
                Self.accept(connection, shared: shared)
            }
        } catch {
            throw ValidationError(.io, error.reason)
        }
        // Warned once listening, so that a server that cannot listen says that alone.
        for clientId in config.tenants.openClientIds {
            log([
                "event": "openTenant", "level": "warning", "clientId": .string(clientId),
                "warning":
                    "OPEN TENANT: anyone who knows this clientId can run validations that post to its result server",
            ])
        }
        log([
            "event": "listening", "host": .string(config.host), "port": .integer(endpoint.port),
            "tls": .bool(tls != nil), "tenants": .integer(config.tenants.byClientId.count),
            "outbox": .string(outboxDirectory), "outboxPending": .integer(shared.outbox.names.count),
        ])
        shared.delivery.start()
    }

    /// The port listened on.
    public var port: Int { endpoint.port }

    /// Closes every open session with 1001 (waiting up to 2 s for the close frames to go out),
    /// then stops listening.
    public func stop() {
        let open = state.admission.withLock { Array($0.open.values) }
        for connection in open {
            connection.close(code: CloseCode.goingAway.rawValue, reason: "the server is stopping")
        }
        for _ in 0..<200 where !open.allSatisfy(\.isClosed) { Thread.sleep(forTimeInterval: 0.01) }
        endpoint.stop()
        state.delivery.stop()
    }

    private static func accept(_ connection: WebSocketConnection, shared: Shared) {
        if let refusal = shared.admit(connection) {
            connection.close(code: CloseCode.busy.rawValue, reason: "the server is busy; try again")
            shared.log(["event": "refused", "reason": "waiting", "detail": .string(refusal)])
            return
        }
        let thread = Thread {
            let place = ValidationSession(connection: connection, shared: shared).run()
            shared.leave(connection, holding: place)
        }
        thread.name = "emrtd.session"
        // The read's parsers and the JSON writer recurse; 4 MiB is address space, not memory.
        thread.stackSize = 4 << 20
        thread.start()
    }
}

/// One session, start to end: handshake, access key, read, POST, close. Every ending closes
/// the connection with its code and logs one `session` line.
struct ValidationSession {
    let connection: WebSocketConnection
    let shared: ValidationServer.Shared

    /// How a session ended.
    struct Ending: Error {
        let code: CloseCode
        let reason: String
    }

    /// Runs the session to its end; returns the place it held at the end (a waiting one until
    /// a valid hello, then a session's, or none when every session's place was taken).
    func run() -> ValidationServer.Admission.Place {
        let clock = ContinuousClock()
        let start = clock.now
        var hello: ValidationHello?
        var place = ValidationServer.Admission.Place.waiting
        var exchanges = 0
        let ending: Ending
        do throws(Ending) {
            let deadline = start.advanced(by: shared.config.sessionTimeout)
            let received = try handshake(deadline: deadline)
            hello = received
            place = shared.promote(connection) ? .session : .none
            guard place == .session else {
                shared.log(["event": "refused", "reason": "busy", "running": .integer(shared.config.maximumSessions)])
                throw Ending(code: .busy, reason: "the server is busy; try again")
            }
            ending = try validate(hello: received, deadline: deadline, exchanges: &exchanges)
        } catch {
            ending = error
        }
        connection.close(code: ending.code.rawValue, reason: ending.reason)
        let elapsed = start.duration(to: clock.now)
        shared.log([
            "event": "session", "validationId": .optional(hello?.validationId), "clientId": .optional(hello?.clientId),
            "code": .integer(Int(ending.code.rawValue)), "reason": .string(ending.reason),
            "apdus": .integer(exchanges),
            "ms": .integer(
                Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)),
        ])
        return place
    }

    /// The next client message (within `timeout`, the step timeout by default), or the session's end.
    private func next(deadline: ContinuousClock.Instant, expecting: String, timeout: Duration? = nil)
        throws(Ending) -> ClientMessage
    {
        let wait = min(timeout ?? shared.config.stepTimeout, ContinuousClock.now.duration(to: deadline))
        switch connection.receive(timeout: wait) {
        case .message(.text(let text)):
            do throws(ConnectorError) {
                return try ClientMessage.parse(text)
            } catch {
                throw Ending(code: .malformedMessage, reason: error.reason)
            }
        case .message(.binary):
            throw Ending(code: .malformedMessage, reason: "a binary message where \(expecting) was due")
        case .closed(let code, let reason)
        where code == CloseCode.messageTooLarge.rawValue || code == CloseCode.policyViolation.rawValue:
            throw Ending(code: CloseCode(rawValue: code), reason: reason)
        case .closed(let code, _):
            throw Ending(code: .chipLost, reason: "the client went away (close \(code)) before \(expecting)")
        case .timeout:
            throw Ending(code: .timeout, reason: "no \(expecting) in time")
        }
    }

    private func handshake(deadline: ContinuousClock.Instant) throws(Ending) -> ValidationHello {
        guard
            case .hello(let hello) = try next(
                deadline: deadline, expecting: "hello", timeout: shared.config.helloTimeout)
        else {
            throw Ending(code: .malformedMessage, reason: "the session must start with hello")
        }
        return hello
    }

    private func validate(hello: ValidationHello, deadline: ContinuousClock.Instant, exchanges: inout Int)
        throws(Ending) -> Ending
    {
        let admitted: Tenants.Tenant?
        do throws(SessionToken.Rejection) {
            admitted = try shared.authenticator.admit(
                clientId: hello.clientId, validationId: hello.validationId, token: hello.token)
        } catch {
            throw Ending(code: error == .ledgerFull ? .busy : .unknownTenant, reason: error.reason)
        }
        guard let tenant = admitted else { throw Ending(code: .unknownTenant, reason: "unknown clientId") }
        connection.send(.text(ServerMessage.ready.text))
        guard case .access(let accessKey, let files) = try next(deadline: deadline, expecting: "access") else {
            throw Ending(code: .malformedMessage, reason: "access must follow ready")
        }

        let transport = RelayedTransport(
            connection: connection, stepTimeout: shared.config.stepTimeout, deadline: deadline,
            supportsExtendedLength: hello.supportsExtendedLength)
        let document: TravelDocument
        let reader: EmrtdReader
        do throws(ReadError) {
            reader = try shared.takeReader(for: files)
        } catch {
            throw Ending(code: .internalError, reason: "the reader cannot be made")
        }
        do throws(ReadError) {
            defer {
                exchanges = transport.exchangeCount
                shared.give(back: reader, for: files)
            }
            document = try reader.read(
                transport: transport, accessPassword: accessKey, listener: ProgressRelay(connection: connection))
        } catch {
            throw Self.ending(of: error, relay: transport.failed)
        }

        // The result carries the one "accepted" rule's checks, as `read --json` and the C ABI do.
        let checks = DocumentChecks(document: document, printedZone: nil, at: Date())
        guard case .object(let members) = document.json(checks: checks) else {
            throw Ending(code: .internalError, reason: "the document has no JSON object")
        }
        // What the read proved about the chip, so that the tenant can judge it again offline.
        let evidence = document.acquisitionEvidence?.json.map { [JSONMember("evidence", $0)] } ?? []
        let result = JSONValue.object([JSONMember("validationId", .string(hello.validationId))] + members + evidence)
        return deliver(result, of: hello, to: tenant)
    }

    /// Stores the result in the outbox, sends it to a `receiveResult` client once it is safe
    /// (stored, or confirmed when the outbox failed), and tries the first POST: 1000 when it is
    /// confirmed, 4008 when it is stored and left to the deliverer, 4005 when neither.
    private func deliver(_ result: JSONValue, of hello: ValidationHello, to tenant: Tenants.Tenant) -> Ending {
        let entry = OutboxEntry(
            validationId: hello.validationId, clientId: hello.clientId, resultURL: tenant.resultURL,
            headers: hello.headers, storedAt: Int(Date().timeIntervalSince1970), body: result.serialized())
        let stored: String?
        do throws(ValidationError) {
            stored = try shared.outbox.store(entry)
        } catch {
            shared.log([
                "event": "outboxFailed", "validationId": .string(hello.validationId), "reason": .string(error.reason),
            ])
            stored = nil
        }
        // A result over the client's limit is not sent back (the POST carries it whole).
        let sendResult = {
            let message = ServerMessage.result(result).text
            if tenant.receiveResult && message.utf8.count <= ValidationProtocol.maximumResultMessageSize {
                connection.send(.text(message))
            }
        }
        if stored != nil { sendResult() }
        let problem = shared.poster.post(entry)
        switch (stored, problem) {
        case (let name?, nil):
            shared.outbox.remove(name)
            return Ending(code: .confirmed, reason: "the result was posted")
        case (nil, nil):
            sendResult()
            return Ending(code: .confirmed, reason: "the result was posted (the outbox could not store it)")
        case (let name?, let problem?):
            shared.delivery.retry(name)
            return Ending(code: .storedPendingDelivery, reason: "the result is stored; delivery pending: \(problem)")
        case (nil, let problem?):
            return Ending(code: .postFailed, reason: "the result could not be stored, and \(problem)")
        }
    }

    /// The close code of a failed read: the relay's own failure first (the reader sees it only
    /// as a transport error), then the read's kind.
    static func ending(of error: ReadError, relay: RelayFailure?) -> Ending {
        switch relay {
        case .chipLost(let reason)?: return Ending(code: .chipLost, reason: reason)
        case .timeout?: return Ending(code: .timeout, reason: "the client did not relay an APDU answer in time")
        case .malformed(let reason)?: return Ending(code: .malformedMessage, reason: reason)
        case .refused(let code, let reason)?: return Ending(code: code, reason: reason)
        case nil: break
        }
        switch error.kind {
        case .accessControl: return Ending(code: .accessDenied, reason: "the chip refused the access key")
        case .transport(.TagLost), .transport(.Io), .notConnected:
            return Ending(code: .chipLost, reason: error.reason)
        case .transport(.Timeout): return Ending(code: .timeout, reason: error.reason)
        case .cancelled: return Ending(code: .goingAway, reason: "the server is stopping")
        default: return Ending(code: .readFailed, reason: error.reason)
        }
    }
}

/// Tells the client how far the read is (`progress` messages).
private final class ProgressRelay: ReadListener {
    let connection: WebSocketConnection

    init(connection: WebSocketConnection) { self.connection = connection }

    func onAccessEstablishmentStarted() {
        connection.send(.text(ServerMessage.progress(step: "accessControl", percentage: 0).text))
    }

    func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32) {
        connection.send(.text(ServerMessage.progress(step: id.rawValue, percentage: Int(totalProgressPercentage)).text))
    }

    func onDataAuthenticationStarted() {
        connection.send(.text(ServerMessage.progress(step: "dataAuthentication", percentage: 100).text))
    }
}
