import CodedErrors

/// Why a message or a connection of the validation protocol failed: the package's one error, a
/// code and a sentence for people (never an MRZ or a CAN).
public typealias ConnectorError = PackageError<ConnectorErrorCode>

/// What went wrong, for `ConnectorError`.
public enum ConnectorErrorCode: String, ErrorCode {
    /// A wrong argument of the caller (a server URL).
    case invalidArgument
    /// A message that breaks the protocol (not JSON, wrong type, out of order, too large).
    case malformedMessage
    /// A socket, TLS or HTTP failure.
    case io
}
