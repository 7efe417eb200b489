/// Why secret bytes could not be produced.
public struct SecretsError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A count out of range, or a source that returned another count.
        case invalidCount
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
