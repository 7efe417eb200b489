import LDS
import SecureMessaging
import Transport

/// Selects and reads elementary files, surviving what real chips do: each rule below is one
/// behaviour seen on real chips or emulators.
///
/// - SELECT by file identifier with P2=0C and no Le (case 3).
/// - READ BINARY reads the TLV header first (4 bytes, 8 when the header is longer) and then never
///   asks past the length the file declares, so a well-formed file needs no 6282/6B00 at all.
/// - Le: the largest that works. With extended length it starts at 65280 (then 4096, 1024);
///   otherwise at 255, stepping down 223, 192, 160, 128 when the chip answers 6700, 6Cxx or
///   fewer bytes than asked, and remembers the step for every later read of this reader
///   (one reader per session). An answer of 6282 without data (the ePass emulator's 6282 carries
///   no MAC, so secure messaging drops its data) means fewer bytes remain than asked: the reader
///   asks again for fewer, halving below 128, without changing the remembered Le.
/// - 6282 with data is accepted (end of file reached), 6B00 ends a file of indefinite length.
/// - Offsets above 32767 use READ BINARY with odd INS (B1, offset in DO'54', data in DO'53').
/// - Declared lengths are capped (`LDSFileKind.maximumSize`: 10 MB for DG2–DG7, 64 KB for the
///   rest) before anything is allocated.
///
/// The transport is what access control produced: a `SecureChannel` after BAC or PACE, or the
/// plain link (for EF.CardAccess before access control).
public struct FileReader: Sendable {
    public let transport: any CardTransport
    /// The Le used for the next read, after any steps down.
    public private(set) var expectedLength: Int
    private var ladder: [Int]

    /// Le steps when only short length is available (255 is the largest a 3DES SM answer fits with).
    public static let shortLadder = [255, 223, 192, 160, 128]
    /// Le steps with extended length, before falling back to the short ones.
    public static let extendedLadder = [65280, 4096, 1024]
    /// The offsets READ BINARY B0 can address (P1 bit 8 clear).
    static let maximumEvenOffset = 0x7FFF
    /// The last ladder step; below it, 6282 answers halve the Le.
    static let smallestStep = 128
    /// The first read: a 1-byte tag and up to 2 length bytes after 82, which covers every LDS file
    /// up to 64 KB (ICAO 9303-11 App. D.4 reads EF.COM the same way: 4 bytes, then the rest).
    static let headerProbeLength = 4
    /// When the header is longer (a length over 64 KB, a multi-byte tag): enough for a 3-byte tag
    /// and a 4-byte length.
    static let longestHeader = 8

    public init(transport: any CardTransport) {
        self.transport = transport
        ladder = (transport.supportsExtendedLength ? Self.extendedLadder : []) + Self.shortLadder
        expectedLength = ladder[0]
    }

    /// SELECTs `file` (in the current DF: the eMRTD application, or the MF for EF.CardAccess) and
    /// reads it whole: outer tag and length included.
    public mutating func read(_ file: LDSFileKind) throws(FileReadError) -> [UInt8] {
        try select(file)
        return try readSelected(file)
    }

    /// SELECT EF by file identifier, no answer data asked.
    public func select(_ file: LDSFileKind) throws(FileReadError) {
        let identifier = file.fileIdentifier
        let answer = try exchange(
            CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]),
            file: file, action: "SELECT")
        switch answer.statusWord {
        case .success: return
        case .fileNotFound: throw FileReadError(.notFound, file: file, "not on the chip", statusWord: answer.statusWord)
        case .securityStatusNotSatisfied:
            throw FileReadError(.accessDenied, file: file, "SELECT refused", statusWord: answer.statusWord)
        default:
            throw FileReadError(
                .unexpectedStatus, file: file, "SELECT answered \(answer.statusWord)", statusWord: answer.statusWord)
        }
    }

    /// Reads the currently selected file.
    public mutating func readSelected(_ file: LDSFileKind) throws(FileReadError) -> [UInt8] {
        try readSelected(file, headerOnly: false).content
    }

    /// SELECTs `file` and reads only its TLV header: the whole size of the file (tag and length
    /// included; nil for a BER indefinite length), checked against the cap. For progress reports
    /// before the read.
    public mutating func declaredLength(of file: LDSFileKind) throws(FileReadError) -> Int? {
        try select(file)
        return try readSelected(file, headerOnly: true).total
    }

    private mutating func readSelected(_ file: LDSFileKind, headerOnly: Bool) throws(FileReadError) -> (
        content: [UInt8], total: Int?
    ) {
        var content: [UInt8] = []
        var total: Int?  // known once the header is parsed; nil for a BER indefinite length
        var headerParsed = false
        // Below the remembered Le, after a 6282 without data.
        var fewerThan: Int?
        while total.map({ content.count < $0 }) ?? true {
            let wanted =
                headerParsed
                ? (total.map { $0 - content.count } ?? file.maximumSize - content.count)
                : (content.count < Self.headerProbeLength ? Self.headerProbeLength : Self.longestHeader)
                    - content.count
            guard wanted > 0 else {
                throw FileReadError(.tooLarge, file: file, "longer than \(file.maximumSize) bytes without an end")
            }
            let length = min(wanted, expectedLength, fewerThan.map { $0 - 1 } ?? Int.max)
            let answer = try readBinary(file: file, offset: content.count, length: length)
            let status = answer.statusWord
            if status.isSuccess || status == .endOfFileReached, !answer.data.isEmpty {
                content += answer.data.prefix(wanted)
                fewerThan = nil
                // A short answer inside the declared length shows the chip's real limit.
                if status.isSuccess, answer.data.count < length, total != nil {
                    stepDown(below: answer.data.count + 1)
                }
            } else if status == .wrongParameters, headerParsed, total == nil {
                break  // the end of a file of indefinite length
            } else if status == .endOfFileReached, length > 1 {
                // Fewer bytes remain than asked (and the chip's data, if any, was not authenticated).
                fewerThan = length > Self.smallestStep ? Self.smallestStep + 1 : length / 2 + 1
                continue
            } else if status == .endOfFileReached || status == .wrongParameters {
                if content.isEmpty {
                    throw FileReadError(
                        .empty, file: file, "selected, but holds no data (\(status))", statusWord: status)
                }
                throw FileReadError(
                    .truncated, file: file,
                    "the chip reports the end (\(status)) at \(content.count) of \(total.map(String.init) ?? "?") bytes",
                    statusWord: status)
            } else if let exact = status.exactLength, exact < length {
                // 6Cxx names the length that works: remembered when it limits the normal Le.
                if length == expectedLength { expectedLength = exact } else { fewerThan = exact + 1 }
                continue
            } else if status == .wrongLength, stepDown(below: length) {
                continue
            } else if status == .securityStatusNotSatisfied {
                throw FileReadError(.accessDenied, file: file, "READ BINARY refused", statusWord: status)
            } else if status.isSuccess {
                throw FileReadError(
                    .malformed, file: file, "READ BINARY returned 9000 without data at \(content.count)")
            } else {
                throw FileReadError(
                    .unexpectedStatus, file: file,
                    "READ BINARY of \(length) bytes at \(content.count) answered \(status)",
                    statusWord: status)
            }
            if !headerParsed {
                switch TLVHeader.parse(content) {
                case .needMore:
                    guard status.isSuccess else {
                        throw FileReadError(.malformed, file: file, "the file ends inside its TLV header")
                    }
                case .invalid(let reason):
                    throw FileReadError(.malformed, file: file, reason)
                case .header(let header):
                    headerParsed = true
                    if let valueLength = header.valueLength {
                        let declared = header.headerLength + valueLength
                        guard declared <= file.maximumSize else {
                            throw FileReadError(
                                .tooLarge, file: file,
                                "declares \(declared) bytes, above the \(file.maximumSize)-byte cap for this file")
                        }
                        total = declared
                        content = Array(content.prefix(declared))
                    }
                    if headerOnly { return (content, total) }
                }
            }
        }
        return (content, total)
    }

    /// Moves the remembered Le to the largest step below `limit`; false when none is left.
    @discardableResult
    private mutating func stepDown(below limit: Int) -> Bool {
        guard let next = ladder.first(where: { $0 < min(limit, expectedLength) }) else { return false }
        expectedLength = next
        return true
    }

    private func readBinary(file: LDSFileKind, offset: Int, length: Int) throws(FileReadError) -> ResponseAPDU {
        if offset <= Self.maximumEvenOffset {
            return try exchange(
                CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), expectedLength: length),
                file: file, action: "READ BINARY")
        }
        // Odd INS: the offset in DO'54', the answer wrapped in DO'53' (up to 4 bytes of header).
        let offsetBytes = [UInt8(offset >> 16), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)]
        let answer = try exchange(
            CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: [0x54, 0x03] + offsetBytes, expectedLength: length + 4),
            file: file, action: "READ BINARY (B1)")
        guard !answer.data.isEmpty else { return answer }
        guard case .header(let header) = TLVHeader.parse(answer.data), header.tag == [0x53] else {
            throw FileReadError(.malformed, file: file, "READ BINARY (B1) answer is not a DO'53'")
        }
        // A DO'53' cut short by Le keeps what came.
        let value = answer.data.dropFirst(header.headerLength).prefix(header.valueLength ?? Int.max)
        return ResponseAPDU(data: Array(value), statusWord: answer.statusWord)
    }

    private func exchange(_ command: CommandAPDU, file: LDSFileKind, action: String) throws(FileReadError)
        -> ResponseAPDU
    {
        if let channel = transport as? SecureChannel {
            do throws(SecureMessagingError) {
                return try channel.exchange(command)
            } catch {
                if let transportError = error.transportError {
                    throw FileReadError(
                        .transport, file: file, "\(action): \(transportError)", transportError: transportError,
                        secureMessagingError: error)
                }
                throw FileReadError(.secureMessaging, file: file, "\(action): \(error)", secureMessagingError: error)
            }
        }
        do throws(TransportError) {
            return try transport.transmit(command)
        } catch {
            throw FileReadError(.transport, file: file, "\(action): \(error)", transportError: error)
        }
    }
}

/// The outer tag and length of a BER-TLV, read from the first bytes of a file.
struct TLVHeader: Equatable {
    let tag: [UInt8]
    let headerLength: Int
    /// nil for the indefinite form (0x80).
    let valueLength: Int?

    enum Parse: Equatable {
        case header(TLVHeader)
        case needMore
        case invalid(String)
    }

    /// Tags up to 3 bytes, lengths up to 4 bytes (anything longer exceeds every cap).
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard let first = bytes.first else { return .needMore }
        guard first != 0x00, first != 0xFF else { return .invalid("no TLV starts with \(first)") }
        var index = 1
        if first & 0x1F == 0x1F {
            repeat {
                guard index < bytes.count else { return .needMore }
                guard index < 3 else { return .invalid("a tag longer than 3 bytes") }
                index += 1
            } while bytes[index - 1] & 0x80 != 0
        }
        let tag = Array(bytes[0..<index])
        guard index < bytes.count else { return .needMore }
        let lengthByte = bytes[index]
        index += 1
        if lengthByte < 0x80 {
            return .header(TLVHeader(tag: tag, headerLength: index, valueLength: Int(lengthByte)))
        }
        if lengthByte == 0x80 {
            guard first & 0x20 != 0 else { return .invalid("indefinite length on a primitive tag") }
            return .header(TLVHeader(tag: tag, headerLength: index, valueLength: nil))
        }
        let count = Int(lengthByte & 0x7F)
        guard count <= 4 else { return .invalid("a length of \(count) bytes") }
        guard index + count <= bytes.count else { return .needMore }
        let length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
        return .header(TLVHeader(tag: tag, headerLength: index + count, valueLength: length))
    }
}
