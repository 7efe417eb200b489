/// Why an output could not be written: the one error of this package.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A file or directory could not be created or written.
        case cannotWrite
        /// A dump directory holds no file the report can be made from.
        case cannotRead
    }

    public let code: Code
    /// One sentence for people, naming the path.
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
