/// The one error the MRZ package throws: a machine readable zone or an access-key input that
/// cannot be used. Reasons name lines, columns and rules, never the characters themselves,
/// because MRZ text is access-key material.
public struct MRZError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is; the reader maps `invalidArgument` to its own `InvalidArgument`.
    public enum Code: String, Sendable, Hashable {
        case invalidArgument
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    static func invalidArgument(_ reason: String) -> MRZError {
        MRZError(.invalidArgument, reason)
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
