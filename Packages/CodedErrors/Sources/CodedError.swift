/// What went wrong, as a package names it: the cases a program branches on, its raw value the
/// stable name in descriptions and JSON.
public protocol ErrorCode: RawRepresentable<String>, Hashable, Sendable {
    /// Whether a description starts with the code: off where the reason alone is the sentence
    /// people read (a path and what happened to it).
    static var showsCodeInDescription: Bool { get }
}

extension ErrorCode {
    public static var showsCodeInDescription: Bool { true }
}

/// The shape of every package's error: a code to branch on and a reason for people (never a
/// secret), so that callers read every package's failures the same way.
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    associatedtype Code: ErrorCode
    var code: Code { get }
    var reason: String { get }
}

extension CodedError {
    /// `code: reason`, or the reason alone where the code says so.
    public var description: String { Code.showsCodeInDescription ? "\(code.rawValue): \(reason)" : reason }
}

/// The error of a package whose failures are a code and a reason alone: the package names it
/// (`public typealias LDSError = PackageError<LDSErrorCode>`), and `LDSError(.malformed, "…")`
/// builds one.
public struct PackageError<Code: ErrorCode>: CodedError, Hashable {
    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
