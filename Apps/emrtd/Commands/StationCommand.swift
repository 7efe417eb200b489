import Connector
import Emrtd
import Foundation
import JSON
import LDS
import MRZ
import Output
import PCSC
import Secrets
import Synchronization
import Transport

/// `emrtd station`: a reading station in the browser. The page (`Apps/emrtd/Station/`, inside
/// the binary) talks to this process over one WebSocket per tab; the process alone touches the
/// reader, one read at a time.
enum StationCommand: Command {
    static let name = "station"
    static let summary = "a reading station in the browser: put a document on the reader, see the answer"
    static let usage = """
        usage: emrtd station [--listen ADDRESS:PORT] [--token SECRET] [--reader NAME] [--timeout MS]
                             [--csca FILE]... [--crl FILE]... [--masterlist FILE.ml --ml-root CERT]...
                             [--deviation-list FILE]... [--no-builtin] [--at ISO8601] [--strict] [--out DIR]
                             [--terminal-certificates DIR|FILE... (--terminal-key FILE | --terminal-signer COMMAND)]

        Serves a page at http://ADDRESS:PORT/ (default 127.0.0.1:8080; every file of the page is
        inside emrtd, nothing is fetched elsewhere) that reads documents one after the other:
        Waiting (put the document on the reader; type, paste or scan its MRZ lines, or the
        document number, date of birth and date of expiry, or the CAN; check digits are checked,
        and OCR confusions put right where only one reading is valid, before any APDU), Reading
        (the progress bar over the whole read, the step in words, Cancel), Answer (the face, the
        holder, the document, and on top Accepted or Not accepted with every reason, the rules of
        --strict: data authenticated, chip not denied, page = chip, valid and not expired; the
        data and chip verdicts and every warning; Print; Next document). Taking the card away
        after the answer, or Next document, clears the screen and the holder's data.
        The page's elements carry data-emrtd hooks for tests (Apps/emrtd/README.md).
        An address other than loopback (127.0.0.0/8, ::1) needs --token: the page is then opened
        as http://ADDRESS:PORT/#token=SECRET and a WebSocket without it is refused. One read runs
        at a time: another tab sees "busy". Nothing about the holder is written to disk unless
        --out DIR asks for each read's dump (DIR/1, DIR/2…); the MRZ and CAN are never logged.
        --reader NAME reads that PC/SC reader (default: the one reader holding a card); --timeout
        is the longest wait for one answer of the chip (default 5000). The trust options are
        read's. --strict is the answer's rule either way; it also keeps the holder's data off the
        answer of a document that is not accepted.
        \(TerminalOptions.usage)
        Exit status: 0 stopped by Ctrl-C, 1 cannot listen, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let listen = try arguments.option("--listen") ?? "127.0.0.1:8080"
        let token = try arguments.option("--token")
        let readerOptions = try ReaderOptions.read(&arguments, defaultWait: .zero)
        let trust = try TrustOptions.read(&arguments, builtIn: false)
        let terminal = try TerminalOptions.read(&arguments)
        let strict = try StrictOption.read(&arguments)
        let output = try arguments.option("--out")
        try arguments.noPositionals()
        let (host, port) = try ArgumentReader.listenAddress(listen, examplePort: 8080)
        guard isLoopback(host) || token != nil else {
            throw UsageError("--listen on \(host), not loopback, needs --token SECRET")
        }
        guard token.map({ !$0.isEmpty }) ?? true else { throw UsageError("--token must not be empty") }
        let config = ReaderConfig(
            useBuiltInAuthorityCertificates: trust.trustsDefaultBundle,
            authorityCertificates: trust.authorityCertificates.map { Data($0) },
            timeoutMs: readerOptions.timeoutMilliseconds, debug: true, terminal: try terminal.configuration())
        let reader: EmrtdReader
        do throws(ReadError) {
            reader = try EmrtdReader(config: config, clock: trust.clock)
        } catch {
            throw CommandFailure(readErrorMessage(error: error))
        }
        if let warning = reader.trustStoreWarning { printError("emrtd station: warning: \(warning)") }
        let desk = StationDesk(
            reader: reader, readerOptions: readerOptions, token: token, strict: strict, output: output,
            trust: trust.sources, clock: trust.clock)
        var stopSignals = blockStopSignals()
        let endpoint: WebSocketEndpoint
        do throws(ConnectorError) {
            endpoint = try WebSocketEndpoint(
                serverOn: host, port: port, path: StationPage.socketPath, protocolName: StationPage.protocolName,
                tls: nil, limits: WebSocketLimits(maximumMessageSize: 4096), pages: StationPage.files
            ) { connection in
                let thread = Thread { StationSession(connection: connection, desk: desk).run() }
                thread.name = "emrtd.station"
                thread.start()
            }
        } catch {
            throw CommandFailure(error.reason)
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        printError(
            "emrtd station: open http://\(shown):\(endpoint.port)/\(token == nil ? "" : "#token=…") (Ctrl-C stops)")
        fflush(nil)
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        endpoint.stop()
        return 0
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.split(separator: ".").first == "127"
    }

    /// SIGINT and SIGTERM blocked in this thread and every thread started after it, so that
    /// `sigwait` alone takes them.
    private static func blockStopSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        return signals
    }
}

/// What every tab shares: the reader, whose one read at a time a tab holds while it reads.
final class StationDesk: Sendable {
    let reader: EmrtdReader
    let readerOptions: ReaderOptions
    let token: String?
    let strict: Bool
    let output: String?
    let trust: [TrustSource]
    let clock: @Sendable () -> Date
    /// The session reading now, if any.
    private let holder = Mutex<ObjectIdentifier?>(nil)
    /// Reads done, numbering the dumps of `--out`.
    private let count = Atomic<Int>(0)

    init(
        reader: EmrtdReader, readerOptions: ReaderOptions, token: String?, strict: Bool, output: String?,
        trust: [TrustSource], clock: @escaping @Sendable () -> Date
    ) {
        self.reader = reader
        self.readerOptions = readerOptions
        self.token = token
        self.strict = strict
        self.output = output
        self.trust = trust
        self.clock = clock
    }

    /// Takes the reader for `session`; false when another session reads.
    func take(for session: ObjectIdentifier) -> Bool {
        holder.withLock { current in
            guard current == nil || current == session else { return false }
            current = session
            return true
        }
    }

    func release(from session: ObjectIdentifier) {
        holder.withLock { if $0 == session { $0 = nil } }
    }

    func nextNumber() -> Int { count.add(1, ordering: .sequentiallyConsistent).newValue }
}

/// One tab: its messages in, the card's presence and the read's events out. Messages are JSON
/// objects with a `type` (`Apps/emrtd/README.md`, "emrtd station").
final class StationSession: Sendable {
    let connection: WebSocketConnection
    let desk: StationDesk
    private let reading = Atomic<Bool>(false)

    init(connection: WebSocketConnection, desk: StationDesk) {
        self.connection = connection
        self.desk = desk
    }

    func run() {
        var authorized = desk.token == nil
        var presence: Bool?
        var context: PCSCContext?
        while true {
            switch connection.receive(timeout: .milliseconds(250)) {
            case .closed:
                if reading.load(ordering: .sequentiallyConsistent) { desk.reader.cancel() }
                return
            case .timeout:
                guard authorized, !reading.load(ordering: .sequentiallyConsistent) else { continue }
                if context == nil { context = try? PCSCContext() }
                let present = context.map { cardPresent($0) } ?? false
                if present != presence {
                    presence = present
                    send(["type": "card", "present": .bool(present)])
                }
            case .message(.binary):
                connection.close(code: 1003, reason: "text messages only")
            case .message(.text(let text)):
                guard let message = try? JSONValue.parse(text), let type = message.string("type") else {
                    connection.close(code: 1007, reason: "not a JSON message")
                    continue
                }
                if type == "hello" {
                    authorized = authorized || tokenMatches(message.string("token"))
                    guard authorized else {
                        connection.close(code: 4002, reason: "the station's token is missing or wrong")
                        continue
                    }
                    send(["type": "ready", "reader": .string(desk.readerOptions.name ?? "")])
                    presence = nil
                    continue
                }
                guard authorized else {
                    connection.close(code: 4002, reason: "say hello with the station's token first")
                    continue
                }
                handle(type, message, presenceChanged: { presence = nil })
            }
        }
    }

    private func handle(_ type: String, _ message: JSONValue, presenceChanged: () -> Void) {
        switch type {
        case "check":
            send(StationKey.check(message).json)
        case "start":
            let key = StationKey.check(message)
            guard let password = key.password else {
                send(key.json)
                return
            }
            start(password, printedZone: key.zone)
        case "cancel":
            if reading.load(ordering: .sequentiallyConsistent) { desk.reader.cancel() }
        case "next":
            // The holder's data lives in the page only; the read's document was let go of when
            // the answer was sent. The card's presence is said again for the fresh screen.
            presenceChanged()
        default:
            send(["type": "error", "key": "badMessage"])
        }
    }

    /// Runs the read on its own thread, so that Cancel and a closed tab still arrive.
    private func start(_ password: AccessPassword, printedZone: MachineReadableZone?) {
        let identity = ObjectIdentifier(self)
        guard !reading.load(ordering: .sequentiallyConsistent), desk.take(for: identity) else {
            send(["type": "error", "key": "busy"])
            return
        }
        reading.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            defer {
                desk.release(from: identity)
                reading.store(false, ordering: .sequentiallyConsistent)
            }
            read(password, printedZone: printedZone)
        }
        thread.name = "emrtd.station.read"
        thread.start()
    }

    private func read(_ password: AccessPassword, printedZone: MachineReadableZone?) {
        send(["type": "reading"])
        let document: TravelDocument
        let transport: PCSCTransport
        do throws(ReadError) {
            transport = try desk.readerOptions.connect()
        } catch {
            send(["type": "error", "key": .string(StationAnswer.errorKey(error, connected: false))])
            return
        }
        defer { transport.disconnect() }
        do throws(ReadError) {
            document = try desk.reader.read(
                transport: transport, accessPassword: password, listener: StationProgress(session: self))
        } catch {
            send(["type": "error", "key": .string(StationAnswer.errorKey(error, connected: true))])
            printError("emrtd station: a read failed: \(StationAnswer.errorKey(error, connected: true))")
            return
        }
        let checks = DocumentChecks(document: document, printedZone: printedZone, at: desk.clock())
        let number = desk.nextNumber()
        var saved: JSONValue = .null
        if let output = desk.output {
            let folder = URL(fileURLWithPath: output).appendingPathComponent("\(number)").path
            do throws(OutputError) {
                try DumpLayout.write(document, to: folder, replacing: .sameDocument)
                saved = .string(folder)
            } catch {
                printError("emrtd station: read \(number): the dump was not written: \(error.reason)")
            }
        }
        let answer = StationAnswer(document: document, checks: checks, strict: desk.strict, trust: desk.trust)
        send(adding(["saved": saved], to: answer.json))
        printError("emrtd station: read \(number): \(checks.accepted ? "accepted" : "not accepted")")
    }

    func send(_ message: JSONValue) {
        connection.send(.text(message.serialized(.compact)))
    }

    private func tokenMatches(_ given: String?) -> Bool {
        guard let expected = desk.token, let given else { return false }
        return constantTimeEquals(Array(expected.utf8), Array(given.utf8))
    }

    private func cardPresent(_ context: PCSCContext) -> Bool {
        do throws(TransportError) {
            _ = try context.waitForCard(in: desk.readerOptions.pcscName, timeout: .zero)
            return true
        } catch {
            return false
        }
    }
}

/// The read's events as the page's progress messages: the reference's percentages, the step
/// as a key of the messages file.
final class StationProgress: ReadListener {
    let session: StationSession

    init(session: StationSession) { self.session = session }

    func onAccessEstablishmentStarted() {
        session.send(["type": "progress", "percent": 0, "step": "stepAccess"])
    }

    func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32) {
        session.send([
            "type": "progress", "percent": .integer(Int(totalProgressPercentage)), "step": "stepFile",
            "file": .string(id.rawValue),
        ])
    }

    func onDataAuthenticationStarted() {
        session.send(["type": "progress", "percent": 100, "step": "stepVerify"])
    }
}

extension JSONValue {
    /// The member `key` when it is a string.
    func string(_ key: String) -> String? {
        if case .string(let text)? = self[key] { text } else { nil }
    }
}
