import CodedErrors
import LDS
import SecureMessaging
import Transport

/// Why a file could not be read.
public struct FileReadError: CodedError {
    public enum Code: String, ErrorCode {
        /// SELECT answered 6A82: the chip has no such file.
        case notFound
        /// 6982: the file exists but the access rights in force do not allow reading it (e.g. DG3
        /// without Extended Access Control).
        case accessDenied
        /// The file exists but holds no byte (the chip reports its end at offset 0; the ePass
        /// emulator has such a file at 010D, DG13's identifier).
        case empty
        /// The file declares a length above the cap for its kind (`LDSFileKind.maximumSize`).
        case tooLarge
        /// The file does not start with a well-formed TLV header, or a READ BINARY answer is malformed.
        case malformed
        /// The chip reports the end of the file before the length the file declares.
        case truncated
        /// A status word the reader cannot continue after.
        case unexpectedStatus
        /// The link failed (`transportError`).
        case transport
        /// Secure messaging failed (`secureMessagingError`): the session is broken, no data of the
        /// failed exchange was returned. Access must be established again.
        case secureMessaging
    }

    public let code: Code
    public let file: LDSFileKind?
    public let reason: String
    public let statusWord: StatusWord?
    public let transportError: TransportError?
    public let secureMessagingError: SecureMessagingError?

    public init(
        _ code: Code, file: LDSFileKind?, _ reason: String, statusWord: StatusWord? = nil,
        transportError: TransportError? = nil, secureMessagingError: SecureMessagingError? = nil
    ) {
        self.code = code
        self.file = file
        self.reason = reason
        self.statusWord = statusWord
        self.transportError = transportError
        self.secureMessagingError = secureMessagingError
    }

    public var description: String {
        "reading \(file.map { "\($0.rawValue)" } ?? "a file") failed (\(code.rawValue)): \(reason)"
    }
}
