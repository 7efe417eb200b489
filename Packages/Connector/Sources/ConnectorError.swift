/// Why a message or a connection of the validation protocol failed: the package's one error, a
/// code and a sentence for people (never an MRZ or a CAN).
public struct ConnectorError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A wrong argument of the caller (a server URL).
        case invalidArgument
        /// A message that breaks the protocol (not JSON, wrong type, out of order, too large).
        case malformedMessage
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
