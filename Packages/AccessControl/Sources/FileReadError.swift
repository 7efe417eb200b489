import CodedErrors
import LDS
import SecureMessaging
import Transport

/// What reading one file gave (`FileReader.read`): its bytes, or the chip's answer that there are
/// none for this reader, or why the read stopped. Nothing is thrown: the caller decides whether
/// the read of the document goes on.
public enum FileReadOutcome: Sendable, Hashable {
    /// The whole file, outer tag and length included.
    case read([UInt8])
    /// 6A82: the chip has no such file.
    case absent
    /// 6982: the chip refuses it (DG3/DG4 without Extended Access Control).
    case denied
    /// The read stopped: the error says why (the channel's typed failure for a broken link or
    /// session) and keeps the bytes read before (`bytesRead`).
    case failed(FileReadError)

    /// The file's bytes, when it was read whole.
    public var bytes: [UInt8]? {
        if case .read(let bytes) = self { return bytes }
        return nil
    }

    /// Why the read stopped, for `.failed`.
    public var failure: FileReadError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// Why a file could not be read.
public struct FileReadError: CodedError, Hashable {
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
        /// The link failed (`channelError` is `.transport`).
        case transport
        /// Secure messaging failed (`channelError` is `.secureMessaging`): the session is broken,
        /// no data of the failed exchange was returned. Access must be established again.
        case secureMessaging
    }

    public let code: Code
    public let file: LDSFileKind?
    public let reason: String
    public let statusWord: StatusWord?
    /// The channel's failure, for `.transport` and `.secureMessaging`.
    public let channelError: ChannelError?
    /// The file's bytes read before the failure (its first bytes; empty when none came).
    public internal(set) var bytesRead: [UInt8] = []

    public init(
        _ code: Code, file: LDSFileKind?, _ reason: String, statusWord: StatusWord? = nil,
        channelError: ChannelError? = nil
    ) {
        self.code = code
        self.file = file
        self.reason = reason
        self.statusWord = statusWord
        self.channelError = channelError
    }

    /// The failure of `action` on `file` that `channelError` reports.
    init(_ channelError: ChannelError, file: LDSFileKind, action: String) {
        switch channelError {
        case .transport(let error):
            self.init(.transport, file: file, "\(action): \(error)", channelError: channelError)
        case .secureMessaging(let error):
            self.init(.secureMessaging, file: file, "\(action): \(error)", channelError: channelError)
        }
    }

    public var description: String {
        "reading \(file.map { "\($0.rawValue)" } ?? "a file") failed (\(code.rawValue)): \(reason)"
    }
}
