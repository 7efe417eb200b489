import AccessControl
import LDS
import MRZ
import SecureMessaging
import Synchronization
import Transport

/// The chip access of the `AccessControl` package (EF.CardAccess, BAC now, PACE later; the READ
/// BINARY ladder) as the read uses it. `EmrtdReader(config:)` reads with this.
public struct StandardChipAccess: ChipAccessProcedure {
    public init() {}

    public func open(
        _ transport: any CardTransport, accessKey: AccessKey, log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip {
        let session: ChipSession
        do throws(AccessControlError) {
            session = try ChipAccess.open(transport, accessKey: accessKey)
        } catch {
            if let transportError = error.transportError {
                throw ReadError(transport: transportError, during: error.description)
            }
            throw ReadError(.accessControl, error.description)
        }
        log("\(session.accessProtocol.displayName) established")
        let protocolUsed: AccessControlProtocol = session.accessProtocol == .pace ? .pace : .bac
        return OpenedChip(
            channel: session.channel, files: SessionFileReader(session.fileReader), protocolUsed: protocolUsed,
            cardAccess: session.cardAccess, warnings: session.warnings)
    }
}

/// `AccessControl.FileReader` behind the `ElementaryFileReader` seam: its Le ladder is state
/// kept for the whole session, so it lives behind a lock.
final class SessionFileReader: ElementaryFileReader {
    private let reader: Mutex<FileReader>

    init(_ reader: FileReader) { self.reader = Mutex(reader) }

    /// SELECT, then the first 4 bytes (and 4 more when the tag or the length is longer, as for
    /// the ePass emulator's DG2 starting 7F61 82…).
    func length(of kind: LDSFileKind) throws(ReadError) -> FileReadResult<Int> {
        let transport = reader.withLock { $0.transport }
        do throws(FileReadError) {
            try reader.withLock { reader throws(FileReadError) in try reader.select(kind) }
        } catch {
            return try Self.result(error)
        }
        var header: [UInt8] = []
        while header.count < Self.longestHeader {
            let answer: ResponseAPDU
            do throws(TransportError) {
                answer = try transport.transmit(
                    CommandAPDU(ins: 0xB0, p1: 0, p2: UInt8(header.count), expectedLength: Self.headerProbe))
            } catch {
                if let failure = (transport as? SecureChannel)?.failure, failure.breaksSession {
                    return .sessionEnded(failure.reason)
                }
                throw Self.transportFailure(error, kind)
            }
            switch answer.statusWord {
            case .success, .endOfFileReached:
                header += answer.data
                if let length = Self.encodedLength(header: header) {
                    guard length <= kind.maximumSize else {
                        return .failed("it declares \(length) bytes, above the cap")
                    }
                    return .success(length)
                }
                if answer.data.count < Self.headerProbe { return .failed("its first bytes are no TLV header") }
            case .securityStatusNotSatisfied:
                return .denied
            case .fileNotFound:
                return .notFound
            default:
                return .failed("READ BINARY answered \(answer.statusWord)")
            }
        }
        return .failed("its first bytes are no TLV header")
    }

    static let headerProbe = 4
    /// A 3-byte tag and a 5-byte length at most.
    static let longestHeader = 8

    func read(_ kind: LDSFileKind) throws(ReadError) -> FileReadResult<[UInt8]> {
        do throws(FileReadError) {
            return .success(try reader.withLock { reader throws(FileReadError) in try reader.read(kind) })
        } catch {
            return try Self.result(error)
        }
    }

    /// The whole size of a BER-TLV from its first bytes (tag of up to 3 bytes, definite length
    /// of up to 4 bytes); nil when `header` is too short or no such header.
    static func encodedLength(header: [UInt8]) -> Int? {
        guard let first = header.first else { return nil }
        var tagLength = 1
        if first & 0x1F == 0x1F {
            while tagLength < header.count, tagLength < 3, header[tagLength] & 0x80 != 0 { tagLength += 1 }
            tagLength += 1
        }
        guard header.count > tagLength else { return nil }
        let lengthByte = header[tagLength]
        if lengthByte < 0x80 { return tagLength + 1 + Int(lengthByte) }
        let count = Int(lengthByte & 0x7F)
        guard (1...4).contains(count), header.count >= tagLength + 1 + count else { return nil }
        let value = header[(tagLength + 1)..<(tagLength + 1 + count)].reduce(0) { $0 << 8 | Int($1) }
        return tagLength + 1 + count + value
    }

    private static func result<Value>(_ error: FileReadError) throws(ReadError) -> FileReadResult<Value> {
        switch error.code {
        case .notFound: return .notFound
        case .accessDenied: return .denied
        case .secureMessaging: return .sessionEnded(error.reason)
        case .transport:
            if let transportError = error.transportError {
                throw transportFailure(transportError, error.file)
            }
            return .failed(error.reason)
        case .tooLarge, .malformed, .truncated, .unexpectedStatus, .empty: return .failed(error.reason)
        }
    }

    private static func transportFailure(_ error: TransportError, _ kind: LDSFileKind?) -> ReadError {
        ReadError(transport: error, during: "reading \(kind?.rawValue ?? "a file")")
    }
}
