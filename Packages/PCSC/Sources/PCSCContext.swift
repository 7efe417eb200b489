import CPCSCLite
import Glibc
import Synchronization
import Transport

/// A PC/SC reader as pcscd reports it.
public struct PCSCReader: Sendable, Hashable {
    public let name: String
    public let isCardPresent: Bool
    /// The card's Answer-to-Reset when a card is present.
    public let answerToReset: [UInt8]
}

/// A connection to the PC/SC service (pcscd): lists readers, waits for a card, connects.
///
/// Creating one fails with `TransportError.Io` naming pcscd when the service is not running.
/// `cancel()` may be called from any thread: it ends a `waitForCard` in progress and every later
/// one (a cancel that arrives just before the wait starts is not lost); make a new context to wait
/// again.
public final class PCSCContext: Sendable {
    let context: SCARDCONTEXT
    private let isCancelled = Atomic<Bool>(false)

    public init() throws(TransportError) {
        var context: SCARDCONTEXT = 0
        let code = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context)
        guard code == SCARD_S_SUCCESS else {
            if code == SCARD_E_NO_SERVICE {
                throw .Io(detail: "the PC/SC service is not running: start pcscd (pcsc-lite) and try again")
            }
            throw transportError(code, while: "connecting to the PC/SC service")
        }
        self.context = context
    }

    deinit {
        SCardReleaseContext(context)
    }

    /// Every reader pcscd knows, with whether it holds a card.
    public func readers() throws(TransportError) -> [PCSCReader] {
        let names = try readerNames()
        guard !names.isEmpty else { return [] }
        var states = try currentStates(of: names)
        defer { states.release() }
        return states.readers
    }

    /// Waits until a card is present and returns its reader: the reader named `reader`, or, when
    /// nil, the only reader holding a card. Throws `.Timeout` when none arrives in time,
    /// `.Cancelled` after `cancel()`, `.Io` when the named reader does not exist, no reader is
    /// connected, or several readers hold a card and none was named.
    /// `waiting` is called once, when no card is there yet and the wait begins (a terminal says
    /// so rather than staying silent).
    public func waitForCard(
        in reader: String? = nil, timeout: Duration, waiting: (() -> Void)? = nil
    ) throws(TransportError) -> PCSCReader {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var saidWaiting = false
        while true {
            let names = try readerNames()
            guard !names.isEmpty else { throw .Io(detail: "no PC/SC reader is connected") }
            var watched = names
            if let reader {
                guard names.contains(reader) else {
                    throw .Io(detail: "no PC/SC reader named '\(reader)' (readers: \(names.joined(separator: ", ")))")
                }
                watched = [reader]
            }
            var states = try currentStates(of: watched)
            defer { states.release() }
            let withCard = states.readers.filter(\.isCardPresent)
            if withCard.count > 1 {
                throw .Io(
                    detail:
                        "several readers hold a card (\(withCard.map(\.name).joined(separator: ", "))): name one")
            }
            if let found = withCard.first { return found }
            guard !isCancelled.load(ordering: .relaxed) else { throw .Cancelled }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw .Timeout }
            if !saidWaiting {
                saidWaiting = true
                waiting?()
            }
            // Blocks until a watched reader changes (a card arrives), in slices: each one re-checks the
            // cancel flag (an SCardCancel just before the wait would be lost) and the reader list.
            do throws(TransportError) {
                try states.waitForChange(
                    context: context, milliseconds: Self.milliseconds(min(remaining, Self.waitSlice)))
            } catch .Timeout {
                continue
            }
        }
    }

    /// Waits until reader `reader` holds no card (a kiosk waits for the document to be taken
    /// away before it reads the next one). Throws `.Timeout` when the card is still there at the
    /// end, `.Cancelled` after `cancel()`, `.Io` when the reader is gone.
    public func waitForRemoval(from reader: String, timeout: Duration) throws(TransportError) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let names = try readerNames()
            guard names.contains(reader) else { throw .Io(detail: "the PC/SC reader '\(reader)' is gone") }
            var states = try currentStates(of: [reader])
            defer { states.release() }
            guard states.readers.contains(where: \.isCardPresent) else { return }
            guard !isCancelled.load(ordering: .relaxed) else { throw .Cancelled }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw .Timeout }
            do throws(TransportError) {
                try states.waitForChange(
                    context: context, milliseconds: Self.milliseconds(min(remaining, Self.waitSlice)))
            } catch .Timeout {
                continue
            }
        }
    }

    /// Ends a `waitForCard` in progress and refuses later ones (they throw `.Cancelled`).
    public func cancel() {
        isCancelled.store(true, ordering: .relaxed)
        SCardCancel(context)
    }

    /// Connects to the card in `reader` (exclusively: a secure-messaging session must not be
    /// interleaved with another program's commands).
    public func connect(
        reader: String, protocols: PCSCProtocols = [.t1, .t0], extendedLength: PCSCTransport.ExtendedLength = .fromCard,
        timeout: Duration = .seconds(5)
    ) throws(TransportError) -> PCSCTransport {
        try PCSCTransport(
            context: self, reader: reader, protocols: protocols, extendedLength: extendedLength, timeout: timeout)
    }

    private func readerNames() throws(TransportError) -> [String] {
        var length: DWORD = 0
        var code = SCardListReaders(context, nil, nil, &length)
        if code == SCARD_E_NO_READERS_AVAILABLE { return [] }
        guard code == SCARD_S_SUCCESS else { throw transportError(code, while: "listing readers") }
        var buffer = [CChar](repeating: 0, count: Int(length))
        code = SCardListReaders(context, nil, &buffer, &length)
        if code == SCARD_E_NO_READERS_AVAILABLE { return [] }
        guard code == SCARD_S_SUCCESS else { throw transportError(code, while: "listing readers") }
        // A multi-string: names separated by NUL, ended by an empty name.
        return buffer.split(separator: 0).map { name in
            String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    private func currentStates(of names: [String]) throws(TransportError) -> ReaderStates {
        var states = ReaderStates(names: names)
        do throws(TransportError) {
            try states.waitForChange(context: context, milliseconds: 0)
        } catch .Timeout {
            // No change against "unaware" is still a current answer.
        } catch {
            states.release()
            throw error
        }
        return states
    }

    static let waitSlice = Duration.milliseconds(250)

    static func milliseconds(_ duration: Duration) -> DWORD {
        let (seconds, attoseconds) = duration.components
        let total = max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return DWORD(min(total, Int64(UInt32.max - 1)))
    }
}

/// The `SCARD_READERSTATE` array for `SCardGetStatusChange`, owning the C strings it points to.
private struct ReaderStates {
    private var states: [SCARD_READERSTATE]

    init(names: [String]) {
        states = names.map { name in
            var state = SCARD_READERSTATE()
            state.szReader = UnsafePointer(strdup(name))
            state.dwCurrentState = DWORD(SCARD_STATE_UNAWARE)
            return state
        }
    }

    mutating func release() {
        for state in states { free(UnsafeMutablePointer(mutating: state.szReader)) }
        states = []
    }

    /// Waits for a change against the states last seen (or reads them, with 0 ms).
    mutating func waitForChange(context: SCARDCONTEXT, milliseconds: DWORD) throws(TransportError) {
        let code = states.withUnsafeMutableBufferPointer { buffer in
            SCardGetStatusChange(context, milliseconds, buffer.baseAddress, DWORD(buffer.count))
        }
        guard code == SCARD_S_SUCCESS else { throw transportError(code, while: "waiting for a card") }
        for index in states.indices {
            states[index].dwCurrentState = states[index].dwEventState & ~DWORD(SCARD_STATE_CHANGED)
        }
    }

    var readers: [PCSCReader] {
        states.map { state in
            let present = state.dwEventState & DWORD(SCARD_STATE_PRESENT) != 0
            let atr = withUnsafeBytes(of: state.rgbAtr) { Array($0.prefix(min(Int(state.cbAtr), Int(MAX_ATR_SIZE)))) }
            return PCSCReader(
                name: state.szReader.map { String(cString: $0) } ?? "", isCardPresent: present,
                answerToReset: present ? atr : [])
        }
    }
}
