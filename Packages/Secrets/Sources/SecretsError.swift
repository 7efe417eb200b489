import CodedErrors

/// Why secret bytes could not be produced.
public typealias SecretsError = PackageError<SecretsErrorCode>

/// What went wrong, for `SecretsError`.
public enum SecretsErrorCode: String, ErrorCode {
    /// A count out of range, or a source that returned another count.
    case invalidCount
}
