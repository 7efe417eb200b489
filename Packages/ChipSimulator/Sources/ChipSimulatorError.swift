import CodedErrors

/// A simulator setup or bridge failure (bad files, a configuration that cannot work, a lost
/// vpcd connection). Chip-side protocol errors are status words, never this.
public typealias ChipSimulatorError = PackageError<ChipSimulatorErrorCode>

/// What went wrong, for `ChipSimulatorError`: one code, the reason says the rest.
public enum ChipSimulatorErrorCode: String, ErrorCode {
    /// The simulator cannot be set up or bridged as asked.
    case setup

    /// The reason alone: it is the sentence people read.
    public static var showsCodeInDescription: Bool { false }
}

extension ChipSimulatorError {
    /// A setup or bridge failure, said in `reason`.
    public init(_ reason: String) { self.init(.setup, reason) }
}
