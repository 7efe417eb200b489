/// What crossed the simulated link.
public struct LinkStatistics: Sendable, Hashable {
    public var exchanges = 0
    /// Command and response bytes on the wire.
    public var bytes = 0
    /// The time the link model charges for the exchanges (zero without a link model).
    public var linkTime = Duration.zero
}
