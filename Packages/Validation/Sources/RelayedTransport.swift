import Connector
import Synchronization
import Transport

/// Why a relayed link failed, kept for the session's close code (the reader sees only a
/// `TransportError`).
enum RelayFailure: Sendable, Equatable {
    /// The client said the chip left, or the connection dropped.
    case chipLost(String)
    /// The client did not answer an APDU in time.
    case timeout
    /// The client sent something else than an APDU answer.
    case malformed(String)
    /// The WebSocket layer closed the connection for a limit (1008 backlog, 1009 size).
    case refused(CloseCode, String)
}

/// The chip of a remote client: each command APDU goes to the client as a binary message, and
/// the client's next binary message is the chip's response. The wait for it is the session's
/// step timeout, and never past the session's deadline.
final class RelayedTransport: APDUTransport {
    private let connection: WebSocketConnection
    private let stepTimeout: Duration
    private let deadline: ContinuousClock.Instant
    private let failure = Mutex<RelayFailure?>(nil)
    private let exchanges = Atomic<Int>(0)
    let supportsExtendedLength: Bool

    init(
        connection: WebSocketConnection, stepTimeout: Duration, deadline: ContinuousClock.Instant,
        supportsExtendedLength: Bool
    ) {
        self.connection = connection
        self.stepTimeout = stepTimeout
        self.deadline = deadline
        self.supportsExtendedLength = supportsExtendedLength
    }

    /// Why the link failed, nil while it works.
    var failed: RelayFailure? { failure.withLock { $0 } }
    /// APDUs answered so far.
    var exchangeCount: Int { exchanges.load(ordering: .relaxed) }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        if let failed { throw Self.error(failed) }
        connection.send(.binary(try command.encoded()))
        let wait = min(stepTimeout, ContinuousClock.now.duration(to: deadline))
        switch connection.receive(timeout: wait) {
        case .message(.binary(let bytes)):
            do throws(TransportError) {
                let response = try ResponseAPDU(encoded: bytes)
                exchanges.add(1, ordering: .relaxed)
                return response
            } catch {
                throw fail(.malformed("an APDU answer of \(bytes.count) bytes has no status word"))
            }
        case .message(.text(let text)):
            if case .chipLost(let reason)? = try? ClientMessage.parse(text) {
                throw fail(.chipLost("the client lost the chip: \(reason)"))
            }
            throw fail(.malformed("a text message where an APDU answer was due"))
        case .closed(let code, let reason)
        where code == CloseCode.messageTooLarge.rawValue || code == CloseCode.policyViolation.rawValue:
            throw fail(.refused(CloseCode(rawValue: code), reason))
        case .closed(let code, _):
            throw fail(.chipLost("the client went away (close \(code)) during the read"))
        case .timeout:
            throw fail(.timeout)
        }
    }

    private func fail(_ reason: RelayFailure) -> TransportError {
        failure.withLock { $0 = $0 ?? reason }
        return Self.error(reason)
    }

    private static func error(_ failure: RelayFailure) -> TransportError {
        switch failure {
        case .chipLost: .TagLost
        case .timeout: .Timeout
        case .malformed(let reason), .refused(_, let reason): .Unexpected(detail: reason)
        }
    }
}
