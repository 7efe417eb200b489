/// When a fault strikes.
public enum FaultTrigger: Sendable, Hashable {
    /// The n-th command (1-based) sent under secure messaging.
    case secureCommand(Int)
    /// Every READ BINARY of the file with this identifier (in the current application).
    case readOf(UInt16)
    /// READ BINARY of the file at a non-zero offset: past the header a reader reads first, so a
    /// reader that sizes files before reading them meets the fault in the middle of the file.
    case readPastHeaderOf(UInt16)
    /// Every command with this instruction byte (and P1, when given), plain or under secure
    /// messaging: a chip refusing one protocol (GET CHALLENGE 84 on a PACE-only chip, INTERNAL
    /// AUTHENTICATE 88, Chip Authentication's MSE 22 with P1 41, which PACE's, C1, is not).
    case instruction(UInt8, p1: UInt8? = nil)
    /// Every SELECT of the file with this identifier; 3F00 is the MF in both forms (by identifier
    /// and with no data), as chips that refuse one or both answer.
    case selectOf(UInt16)
    /// Every command.
    case always
}
