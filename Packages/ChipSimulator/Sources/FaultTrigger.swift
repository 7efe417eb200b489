/// When a fault strikes.
public enum FaultTrigger: Sendable, Hashable {
    /// The n-th command (1-based) sent under secure messaging.
    case secureCommand(Int)
    /// Every READ BINARY of the file with this identifier (in the current application).
    case readOf(UInt16)
    /// READ BINARY of the file at a non-zero offset: past the header a reader reads first, so a
    /// reader that sizes files before reading them meets the fault in the middle of the file.
    case readPastHeaderOf(UInt16)
    /// Every command.
    case always
}
