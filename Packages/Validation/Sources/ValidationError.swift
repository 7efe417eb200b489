import CodedErrors

/// Why a validation server cannot start: a tenants file, a reader configuration, a socket. The
/// package's one error, a code and a sentence for people.
public typealias ValidationError = PackageError<ValidationErrorCode>

/// What went wrong, for `ValidationError`.
public enum ValidationErrorCode: String, ErrorCode {
    /// A wrong argument of the caller (URL, option, file content).
    case invalidArgument
    /// A socket, TLS or HTTP failure.
    case io
}
