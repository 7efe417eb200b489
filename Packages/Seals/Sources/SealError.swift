/// The one error this package throws: a machine-readable `code` and a reason that says which
/// part of the seal was wrong and how.
public struct SealError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The bytes or the JSON are not a seal this package reads (a wrong length, tag, date, …).
        case malformed
        /// A well-formed seal using a version or an algorithm this package does not know.
        case unsupported
        /// The input is larger than any seal a barcode can carry.
        case tooLarge
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "SealError.\(code.rawValue): \(reason)" }
}
