import Synchronization
import Transport

/// Fails every exchange with `TransportError.Cancelled` once the read is cancelled, so
/// `EmrtdReader.cancel()` takes effect before the next APDU (an APDU already on the wire is
/// answered first: a card cannot be interrupted mid-command).
final class CancellableTransport: APDUTransport {
    private let base: any APDUTransport
    private let cancelled = Atomic<Bool>(false)

    init(_ base: any APDUTransport) { self.base = base }

    var supportsExtendedLength: Bool { base.supportsExtendedLength }

    func cancel() { cancelled.store(true, ordering: .sequentiallyConsistent) }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        guard !isCancelled else { throw .Cancelled }
        return try base.transmit(command)
    }
}
