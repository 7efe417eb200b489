import Connector
import Dispatch
import Emrtd
import Foundation
import JSON
import Validation

/// `emrtd serve`: the validation server. Clients relay a chip's APDUs over a WebSocket; the
/// server opens and reads the chip itself, verifies it, and posts the result to the tenant.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "validate documents for remote clients that relay their chip's APDUs (WebSocket)"
    static let usage = """
        usage: emrtd serve --listen ADDRESS:PORT --tenants FILE [--tls-cert FILE --tls-key FILE]
                           [--csca FILE]... [--no-builtin] [--render]
                           [--step-timeout S] [--session-timeout S] [--post-timeout S] [--max-sessions N]
                           [--outbox DIR] [--delivery-retry-seconds S] [--delivery-backoff-ms MS]
                           [--terminal-certificates DIR|FILE... (--terminal-key FILE | --terminal-signer COMMAND)]

        Listens on exactly ADDRESS:PORT, an IPv4 address or a bracketed IPv6 one (127.0.0.1:8443,
        [::1]:8443; 0.0.0.0 or [::] for every address of that family; port 0: any free port, logged)
        for WebSocket sessions on \(ValidationProtocol.path) (subprotocol
        \(ValidationProtocol.subprotocol); the protocol is Packages/Validation/README.md). A session
        names its tenant (clientId) and scan (validationId) with the tenant's session token (emrtd
        token), sends the MRZ or CAN and what to read; the server reads the chip through the client,
        checks it by Passive Authentication against the trusted CSCAs (the built-in bundle unless
        --no-builtin, plus each --csca PEM bundle or DER file), stores the result (the `read --json`
        document plus validationId) in its outbox and POSTs it to the tenant's resultURL with
        Idempotency-Key: <validationId>.
        It closes with 1000 when the result server confirmed it (2xx), 4008 when it is stored and
        delivery goes on in the background (retried with exponential backoff from
        --delivery-backoff-ms, default 1000, for --delivery-retry-seconds, default 86400, then set
        aside in DIR/undeliverable), 4005 when it could be neither stored nor posted. A restarted
        server delivers what its outbox holds. --outbox DIR (default $XDG_STATE_HOME/emrtd/outbox,
        else ~/.local/state/emrtd/outbox): one per server process.
        --tenants FILE: {"tenants": {"CLIENTID": {"resultURL": "https://…", "receiveResult": false,
        "secret": "BASE64 (32-64 bytes: openssl rand -base64 32)"}}}, or "open": true instead of the
        secret for a demo tenant that needs no token (logged as a warning at start).
        --tls-cert/--tls-key (PEM) serve wss://. --render renders JPEG 2000 images to PNG in the
        result (off: the result keeps the images' own bytes). --step-timeout (default 10 s) bounds
        each wait for the client, --session-timeout (120 s) a whole session, --post-timeout (10 s)
        the result server's answer; --max-sessions (32) sessions at once (counted from a valid
        hello), more are closed 4007. A connection has 2 s to send its hello (else 4004); at most
        32 per source address and 256 in all may wait for theirs (more are closed 4007 at once).
        One JSON line per event on standard error (never a key). Runs until SIGINT or SIGTERM.
        The server is the inspection system of every session: a session that asks for every file
        (filesToRead "all") then gets DG3 and DG4 where the chip lets it.
        \(TerminalOptions.usage)
        Exit status: 0 stopped by a signal, 1 cannot listen or bad files, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        guard let listen = try arguments.option("--listen") else {
            throw UsageError("--listen ADDRESS:PORT is required")
        }
        guard let tenantsFile = try arguments.option("--tenants") else {
            throw UsageError("--tenants FILE is required")
        }
        let certificate = try arguments.option("--tls-cert")
        let key = try arguments.option("--tls-key")
        let cscaFiles = try arguments.options("--csca")
        let noBuiltIn = arguments.flag("--no-builtin")
        let render = arguments.flag("--render")
        // Each bounded so that a deadline computed from it cannot overflow (a trap, exit 132).
        let stepTimeout = try arguments.integer("--step-timeout", in: 1...3600, unit: "seconds") ?? 10
        let sessionTimeout = try arguments.integer("--session-timeout", in: 1...86_400, unit: "seconds") ?? 120
        let postTimeout = try arguments.integer("--post-timeout", in: 1...3600, unit: "seconds") ?? 10
        let maximumSessions = try arguments.integer("--max-sessions", in: 1...10_000, unit: "sessions") ?? 32
        let outbox = try arguments.option("--outbox")
        let deliveryRetry =
            try arguments.integer("--delivery-retry-seconds", in: 1...(30 * 86_400), unit: "seconds") ?? 24 * 3600
        let deliveryBackoff =
            try arguments.integer("--delivery-backoff-ms", in: 1...3_600_000, unit: "milliseconds") ?? 1000
        let terminal = try TerminalOptions.read(&arguments)
        try arguments.noPositionals()
        guard (certificate == nil) == (key == nil) else { throw UsageError("give --tls-cert and --tls-key together") }
        let (host, port) = try ArgumentReader.listenAddress(listen, examplePort: 8443)

        let tenants = try readTenants(tenantsFile)
        var config = ValidationServerConfig(
            host: host, port: port, tenants: tenants,
            reader: ReaderConfig(
                useBuiltInAuthorityCertificates: !noBuiltIn,
                authorityCertificates: try cscaFiles.map { Data(try readCertificateFile($0)) },
                renderImages: render, terminal: try terminal.configuration()),
            stepTimeout: .seconds(stepTimeout), sessionTimeout: .seconds(sessionTimeout),
            postTimeout: .seconds(postTimeout), maximumSessions: maximumSessions)
        config.tlsCertificateFile = certificate
        config.tlsKeyFile = key
        config.outboxDirectory = outbox
        config.deliveryRetry = .seconds(deliveryRetry)
        config.deliveryBackoff = .milliseconds(deliveryBackoff)

        // Signals are taken by a dispatch source, not the default handlers, so the server
        // stops in order.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        let server: ValidationServer
        do throws(ValidationError) {
            server = try ValidationServer(config: config, log: logLine)
        } catch {
            throw CommandFailure(error.reason)
        }
        stop.wait()
        logLine(["event": "stopping"])
        server.stop()
        for source in sources { source.cancel() }
        return 0
    }

    /// The tenants file, its bytes zeroed once parsed (it holds the tenants' secrets).
    static func readTenants(_ path: String) throws -> Tenants {
        var bytes = try readFile(path, limit: InputLimit.configuration, what: "a tenants file")
        defer { bytes.wipe() }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o066 != 0 {
            let who = status.st_mode & 0o022 != 0 ? "written" : "read"
            printError(
                "emrtd: warning: \(path) can be \(who) by others (mode \(String(status.st_mode & 0o777, radix: 8))) "
                    + "and holds the tenants' secrets: chmod 600 it")
        }
        do throws(ValidationError) {
            return try Tenants(json: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw CommandFailure("\(path): \(error.reason)")
        }
    }

    /// One line of JSON on standard error, with the time first.
    @Sendable private static func logLine(_ event: JSONValue) {
        guard case .object(let members) = event else { return }
        let time = ISO8601DateFormatter.string(
            from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let line = JSONValue.object([JSONMember("time", .string(time))] + members).serialized() + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
