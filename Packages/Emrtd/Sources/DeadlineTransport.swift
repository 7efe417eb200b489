import Dispatch
import Synchronization
import Transport

/// Gives every exchange at most `timeout` (`ReaderConfig.timeoutMs`), whatever the caller's
/// transport does: the exchange runs on a worker queue, and a late answer fails the read with
/// `TransportError.Timeout`. A card cannot be interrupted mid-command, so after a timeout the
/// link is given up: the late answer is dropped and every later exchange fails at once (whether
/// the chip counted the command is unknown, so a secure messaging session could not continue).
final class DeadlineTransport: APDUTransport {
    private let base: any APDUTransport
    private let timeout: Duration
    private let queue = DispatchQueue(label: "emrtd.apdu")
    private let timedOut = Atomic<Bool>(false)

    init(_ base: any APDUTransport, timeout: Duration) {
        self.base = base
        self.timeout = timeout
    }

    var supportsExtendedLength: Bool { base.supportsExtendedLength }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        guard !timedOut.load(ordering: .sequentiallyConsistent) else { throw .Timeout }
        let answer = Mutex<Result<ResponseAPDU, TransportError>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        queue.async { [base] in
            let result: Result<ResponseAPDU, TransportError>
            do throws(TransportError) {
                result = .success(try base.transmit(command))
            } catch {
                result = .failure(error)
            }
            answer.withLock { $0 = result }
            answered.signal()
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard answered.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success,
            let result = answer.withLock({ $0 })
        else {
            timedOut.store(true, ordering: .sequentiallyConsistent)
            throw .Timeout
        }
        return try result.get()
    }
}
