import CPCSCLite
import Dispatch
import Glibc
import Synchronization
import Transport

/// The transmission protocols a connection may use.
public struct PCSCProtocols: OptionSet, Sendable {
    public let rawValue: DWORD
    public init(rawValue: DWORD) { self.rawValue = rawValue }
    public static let t0 = PCSCProtocols(rawValue: DWORD(SCARD_PROTOCOL_T0))
    public static let t1 = PCSCProtocols(rawValue: DWORD(SCARD_PROTOCOL_T1))
}

/// A card in a PC/SC reader, as a `APDUTransport`.
///
/// Beyond passing APDUs through, it does what ISO 7816-4 leaves to the terminal: a 61xx answer is
/// followed by GET RESPONSE until the whole response is in, a 6Cxx answer to a plain command is
/// re-issued once with the exact Le the card named. Each exchange has a deadline (`timeout`): pcsc-lite cannot abort
/// a transmit, so the exchange runs on the transport's own queue and, when the deadline passes
/// or `cancel()` is called, the caller gets `.Timeout`/`.Cancelled` and the transport refuses
/// further commands (the card may still be working on the abandoned one, so any later answer
/// would be out of step). A card that leaves (`.TagLost`) breaks the transport the same way.
///
/// `disconnect()` (or the last reference going away) lets go of the card before it returns, so a
/// program that reads card after card (`emrtd read --watch`) never leaves a handle of an earlier
/// read open in pcscd while it waits for the next card.
public final class PCSCTransport: APDUTransport {
    /// Where `supportsExtendedLength` comes from.
    public enum ExtendedLength: Sendable {
        /// The card capabilities in the ATR (ISO 7816-4 §8.1.1.2.7): what a careful reader trusts.
        case fromCard
        /// Always extended (for cards that accept it without announcing it).
        case enabled
        /// Never.
        case disabled
    }

    public let readerName: String
    public let answerToReset: AnswerToReset
    /// The protocol pcscd negotiated: `.t1` or `.t0`.
    public let activeProtocol: PCSCProtocols
    public let supportsExtendedLength: Bool
    /// How long one exchange may take before it fails with `.Timeout`.
    public let timeout: Duration

    private let context: PCSCContext
    private let handle: SCARDHANDLE
    private let queue: DispatchQueue
    /// Why the link can no longer be used, once it cannot.
    private let broken = Mutex<TransportError?>(nil)
    private let isCancelled = Atomic<Bool>(false)
    /// Set by the first `disconnect()`: the handle is let go exactly once.
    private let isDisconnected = Atomic<Bool>(false)

    /// The longest response accepted through GET RESPONSE chaining: an extended Ne plus room for
    /// secure-messaging framing. A card sending more is not answering the command.
    static let maximumResponseLength = 65536 + 64

    /// How long a connection waits for another program to let go of the card.
    static let sharingGracePeriod = Duration.seconds(2)

    init(
        context: PCSCContext, reader: String, protocols: PCSCProtocols, extendedLength: ExtendedLength,
        timeout: Duration
    ) throws(TransportError) {
        var handle: SCARDHANDLE = 0
        var active: DWORD = 0
        var code = SCardConnect(
            context.context, reader, DWORD(SCARD_SHARE_EXCLUSIVE), protocols.rawValue, &handle, &active)
        // pcscd releases a card a moment after the program that held it ends: wait that long.
        let clock = ContinuousClock()
        let deadline = clock.now + Self.sharingGracePeriod
        while code == SCARD_E_SHARING_VIOLATION, clock.now < deadline {
            usleep(50_000)
            code = SCardConnect(
                context.context, reader, DWORD(SCARD_SHARE_EXCLUSIVE), protocols.rawValue, &handle, &active)
        }
        guard code == SCARD_S_SUCCESS else { throw transportError(code, while: "connecting to '\(reader)'") }
        self.context = context
        self.handle = handle
        readerName = reader
        activeProtocol = PCSCProtocols(rawValue: active)
        answerToReset = AnswerToReset(Self.answerToReset(handle))
        switch extendedLength {
        case .fromCard: supportsExtendedLength = answerToReset.announcesExtendedLength
        case .enabled: supportsExtendedLength = true
        case .disabled: supportsExtendedLength = false
        }
        self.timeout = timeout
        queue = DispatchQueue(label: "emrtd.pcsc.\(reader)")
    }

    deinit {
        disconnect()
    }

    /// Lets go of the card (`SCardDisconnect`) and makes later exchanges fail. A card still in
    /// the reader is reset, so the chip drops its session keys and the next session starts from
    /// the MF; a card that left (`.TagLost`) is left as it is: there is nothing to reset, and
    /// pcscd only logs a failed reset. Returns once pcscd has released the handle, except after a
    /// `.Timeout` or `cancel()`: the abandoned transmit still holds the handle (pcsc-lite
    /// serializes the calls on it), so the disconnect follows it on the transport's queue and this
    /// returns without waiting. Later calls do nothing.
    public func disconnect() {
        guard !isDisconnected.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (wasBroken, abandoned) = broken.withLock { failure -> (TransportError?, Bool) in
            let before = failure
            if failure == nil { failure = .Io(detail: "the connection to '\(readerName)' was closed") }
            return (before, before == .Timeout || before == .Cancelled)
        }
        let disposition = DWORD(wasBroken == .TagLost ? SCARD_LEAVE_CARD : SCARD_RESET_CARD)
        let handle = handle
        // The context outlives the handle: pcsc-lite releases a context's handles with it.
        let context = context
        let release: @Sendable () -> Void = {
            SCardDisconnect(handle, disposition)
            _ = context
        }
        if abandoned {
            queue.async(execute: release)
        } else {
            queue.sync(execute: release)
        }
    }

    /// Makes the exchange in progress (if any) and every later one fail with `.Cancelled`.
    public func cancel() {
        isCancelled.store(true, ordering: .relaxed)
    }

    public func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        var response = try exchange(command)
        // Not under secure messaging: the protected command's MAC covers an SSC the chip has
        // already used, so it cannot be sent twice; the 6Cxx goes up to the caller instead.
        let isProtected = command.cla & 0x0C != 0
        if let exact = response.statusWord.exactLength, exact != command.expectedLength, !isProtected {
            var again = command
            again.expectedLength = exact
            response = try exchange(again)
        }
        guard response.statusWord.bytesRemaining != nil else { return response }
        var data = response.data
        while let remaining = response.statusWord.bytesRemaining {
            // GET RESPONSE on the command's logical channel.
            response = try exchange(
                CommandAPDU(cla: command.cla & 0x03, ins: 0xC0, p1: 0, p2: 0, expectedLength: remaining))
            data += response.data
            guard data.count <= Self.maximumResponseLength else {
                throw .Unexpected(detail: "the card chained more than \(Self.maximumResponseLength) response bytes")
            }
        }
        return ResponseAPDU(data: data, statusWord: response.statusWord)
    }

    /// One command on the wire, with the deadline and cancellation.
    private func exchange(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        if let failure = broken.withLock({ $0 }) { throw failure }
        if isCancelled.load(ordering: .relaxed) { throw .Cancelled }
        let bytes = try command.encoded()
        let pending = PendingExchange()
        let handle = handle
        let pci = SCARD_IO_REQUEST(
            dwProtocol: UInt(activeProtocol.rawValue), cbPciLength: UInt(MemoryLayout<SCARD_IO_REQUEST>.size))
        queue.async { pending.finish(Self.transmit(bytes, handle: handle, pci: pci)) }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            // Short waits, so that cancellation is seen promptly.
            if let result = pending.wait(milliseconds: 20) {
                if case .failure(.TagLost) = result { broken.withLock { $0 = .TagLost } }
                let answer = try result.get()
                return try ResponseAPDU(encoded: answer)
            }
            if isCancelled.load(ordering: .relaxed) {
                broken.withLock { $0 = .Cancelled }
                throw .Cancelled
            }
            if clock.now >= deadline {
                broken.withLock { $0 = .Timeout }
                throw .Timeout
            }
        }
    }

    private static func transmit(_ command: [UInt8], handle: SCARDHANDLE, pci: SCARD_IO_REQUEST) -> Result<
        [UInt8], TransportError
    > {
        var pci = pci
        var received = [UInt8](repeating: 0, count: maximumResponseLength + 2)
        var receivedLength = DWORD(received.count)
        let code = command.withUnsafeBufferPointer { sent in
            received.withUnsafeMutableBufferPointer { buffer in
                SCardTransmit(
                    handle, &pci, sent.baseAddress, DWORD(sent.count), nil, buffer.baseAddress, &receivedLength)
            }
        }
        guard code == SCARD_S_SUCCESS else { return .failure(transportError(code, while: "exchanging an APDU")) }
        // Every answer ends in a status word. vsmartcard's vpcd reports a card that went away
        // during the exchange as a successful transmit of no bytes, not SCARD_W_REMOVED_CARD.
        guard receivedLength > 0 else { return .failure(.TagLost) }
        return .success(Array(received.prefix(Int(receivedLength))))
    }

    private static func answerToReset(_ handle: SCARDHANDLE) -> [UInt8] {
        var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
        var atrLength = DWORD(atr.count)
        var readerLength: DWORD = 0
        var state: DWORD = 0
        var activeProtocol: DWORD = 0
        let code = SCardStatus(handle, nil, &readerLength, &state, &activeProtocol, &atr, &atrLength)
        return code == SCARD_S_SUCCESS ? Array(atr.prefix(Int(atrLength))) : []
    }
}

/// The outcome of one transmit, handed from the transport's queue to the waiting caller.
private final class PendingExchange: Sendable {
    private let result = Mutex<Result<[UInt8], TransportError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ outcome: Result<[UInt8], TransportError>) {
        result.withLock { $0 = outcome }
        done.signal()
    }

    func wait(milliseconds: Int) -> Result<[UInt8], TransportError>? {
        guard done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return nil }
        return result.withLock { $0 }
    }
}
