import CodedErrors

/// The one error the MRZ package throws: a machine readable zone or an access-key input that
/// cannot be used. Reasons name lines, columns and rules, never the characters themselves,
/// because MRZ text is access-key material.
public typealias MRZError = PackageError<MRZErrorCode>

/// What went wrong, for `MRZError`; the reader maps `invalidArgument` to its own `InvalidArgument`.
public enum MRZErrorCode: String, ErrorCode {
    case invalidArgument
}

extension MRZError {
    static func invalidArgument(_ reason: String) -> MRZError {
        MRZError(.invalidArgument, reason)
    }
}
