import CodedErrors

/// The one error this package throws: a machine-readable `code` and a reason that says which
/// part of the seal was wrong and how.
public typealias SealError = PackageError<SealErrorCode>

/// What went wrong, for `SealError`.
public enum SealErrorCode: String, ErrorCode {
    /// The bytes or the JSON are not a seal this package reads (a wrong length, tag, date, …).
    case malformed
    /// A well-formed seal using a version or an algorithm this package does not know.
    case unsupported
    /// The input is larger than any seal a barcode can carry.
    case tooLarge
}
