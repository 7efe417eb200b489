/// A simulator setup or bridge failure (bad files, a configuration that cannot work, a lost
/// vpcd connection). Chip-side protocol errors are status words, never this.
public struct ChipSimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
