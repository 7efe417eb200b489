import CodedErrors
import JSON

/// Why a file or an image could not be parsed: one error type for the whole package, with a
/// machine-readable code and a reason for people.
public typealias LDSError = PackageError<LDSErrorCode>

/// What went wrong, for `LDSError`.
public enum LDSErrorCode: String, ErrorCode, JSONEnum {
    /// The bytes do not follow the structure (bad TLV, truncated, missing mandatory element).
    case malformed
    /// The outer tag is not the one the file kind requires.
    case unexpectedTag
    /// A declared length or count is above the package's caps.
    case tooLarge
    /// A structurally valid value this package cannot interpret.
    case unsupported
    /// OpenJPEG refused the image, or its PNG could not be written.
    case imageDecoding
}
