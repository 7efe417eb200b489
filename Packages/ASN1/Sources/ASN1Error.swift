import CodedErrors

/// The one error the ASN.1 layer throws: a machine-readable `code` and a
/// human-readable `reason` that says where and why.
public typealias ASN1Error = PackageError<ASN1ErrorCode>

/// What went wrong, for `ASN1Error`.
public enum ASN1ErrorCode: String, ErrorCode {
    /// The input ends inside a tag, a length or a value.
    case truncated
    /// A length that cannot be right: reserved forms, more than 8 length bytes,
    /// non-minimal in DER, or longer than the input.
    case invalidLength
    /// Nesting deeper than the parser's limit.
    case tooDeep
    /// Bytes after the value where none may follow.
    case trailingData
    /// Indefinite length where DER was required, or on a primitive value.
    case indefiniteLengthNotAllowed
    /// A tag number that does not fit or is not minimally encoded.
    case invalidTag
    /// A node with another tag than the one the structure requires.
    case unexpectedTag
    /// A value whose content is not valid for its type.
    case invalidValue
    /// A required element is missing.
    case missingElement
}
