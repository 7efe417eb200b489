/// Why a validation server cannot start: a tenants file, a reader configuration, a socket. The
/// package's one error, a code and a sentence for people.
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A wrong argument of the caller (URL, option, file content).
        case invalidArgument
        /// A socket, TLS or HTTP failure.
        case io
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
