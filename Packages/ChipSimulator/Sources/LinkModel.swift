import Glibc

/// The contactless link: a bit rate plus a fixed per-APDU latency (frame overheads, chip
/// processing). The chip waits this long before answering when `waits` is true, and always adds
/// it to its statistics, so the bench can compare a read to the least time the link allows.
public struct LinkModel: Sendable, Hashable {
    public var bitsPerSecond: Int
    public var latencyPerExchange: Duration
    /// Whether answers are really delayed (slow-answer tests) or only accounted (bench).
    public var waits: Bool

    public init(bitsPerSecond: Int = 424_000, latencyPerExchange: Duration = .milliseconds(3), waits: Bool = false) {
        self.bitsPerSecond = bitsPerSecond
        self.latencyPerExchange = latencyPerExchange
        self.waits = waits
    }

    /// The time one exchange of `bytes` (command plus response) takes on this link.
    public func duration(bytes: Int) -> Duration {
        latencyPerExchange + .nanoseconds(Int64(bytes) * 8 * 1_000_000_000 / Int64(max(bitsPerSecond, 1)))
    }
}

/// Blocks the calling thread (the chip answers one command at a time on the caller's thread).
func sleepBlocking(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
