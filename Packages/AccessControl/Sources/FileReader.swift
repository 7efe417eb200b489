import ASN1
import LDS
import SecureMessaging
import Transport

/// How the file reader addresses files and asks for their first bytes. The fastest way is the
/// default; a chip that refuses a part of it turns that part off for the rest of the session
/// (`FileReader.strategy` tells what is left).
public struct FileReadStrategy: Sendable, Hashable {
    /// READ BINARY with the file's short EF identifier in P1 (ICAO 9303-10 Table 34): no SELECT.
    public var shortFileIdentifiers: Bool
    /// The first READ BINARY of a file asks for as much as the link allows (the whole file when
    /// it fits one answer) rather than the 4 bytes of its TLV header.
    public var wholeFirstRead: Bool

    public init(shortFileIdentifiers: Bool, wholeFirstRead: Bool) {
        self.shortFileIdentifiers = shortFileIdentifiers
        self.wholeFirstRead = wholeFirstRead
    }

    /// One READ BINARY per file that fits one answer.
    public static let fewestCommands = FileReadStrategy(shortFileIdentifiers: true, wholeFirstRead: true)
    /// SELECT, then the 4-byte header, then the rest (ICAO 9303-11 App. D.4; what JMRTD does).
    public static let selectThenHeader = FileReadStrategy(shortFileIdentifiers: false, wholeFirstRead: false)
}

/// Selects and reads elementary files, in the fewest APDUs the chip allows, surviving what real
/// chips do: each rule below is one behaviour seen on real chips or emulators.
///
/// - Addressing: READ BINARY with the short EF identifier (P1 = 80 | SFI, offset 0), which
///   selects the file as it reads. A chip that refuses it (6A86, 6B00, 6D00, 6981, 6986, …, or
///   6A82 for a file that a SELECT then finds) is read with SELECT (P2=0C, no Le) from then on.
///   A 6A82 is trusted once a short-identifier read has worked on the chip.
/// - The first read of a file asks for the whole Le, so a file that fits one answer takes one
///   APDU; its TLV header then says how much is left, and the reader never asks past that. A chip
///   that answers the first read with 6700, 6282 without data (the ePass emulator), 6B00
///   (chips refusing offset + Le past the end) or 9000 without data is asked for the 4-byte
///   header instead: when the file turns out shorter than the refused Le, the chip refuses
///   reading past a file's end, and every later file starts with its header; otherwise the Le
///   was too large and steps down as below. A 6B00 to the header read by short identifier then
///   is the identifier's refusal (SELECT, as above).
/// - Le: the largest that works. With extended length it starts at 65280 (then 4096, 1024);
///   otherwise at the most a short answer carries: 255 in plain, and under secure messaging the
///   most whose protected answer fits 256 bytes (231 for 3DES, 223 for AES), stepping down 223,
///   192, 160, 128 when the chip answers 6700, fewer bytes than asked or 9000 with none
///   (chips that cannot serve an Le, an extended one on some), and remembering the
///   step for every later read of this reader (one reader per session). A 6Cxx names the length
///   that works: it is asked for at once (a first read too, without the header read), and kept
///   as the Le for the rest of the file and the next files unless that answer reached the file's
///   end (where xx may only tell what was left): one extra APDU, once. An answer of 6282
///   without data (the ePass emulator's 6282 carries no MAC, so secure messaging drops its data)
///   means fewer bytes remain than asked: the reader asks again for fewer, halving below 128,
///   without changing the remembered Le.
/// - 6282 with data is accepted (end of file reached). A file of indefinite length (BER, as US
///   EF.SODs) ends where its outer TLV does, found once its end-of-contents is read; a 6B00
///   before that asks again for less (a chip refusing reads past the end), down to one byte,
///   where it ends the file.
/// - Offsets above 32767 use READ BINARY with odd INS (B1, offset in DO'54', data in DO'53') on
///   the same ladder: Ne counts the DO'53' header, and on a short step Ne stays within what a
///   short answer carries (plain 256; under secure messaging the same limit as B0, with DO'85'),
///   so a chip without extended length never sees an extended APDU or a 2-byte DO'97'.
/// - Declared lengths are capped (`LDSFileKind.maximumSize`: 10 MB for DG2–DG7, 64 KB for the
///   rest) before anything is allocated.
///
/// The channel is what access control produced: a `SecureChannel` after BAC or PACE, or a
/// `PlainChannel` (EF.CardAccess before access control, a chip without it).
public struct FileReader: Sendable {
    public let channel: any CommandChannel
    /// The Le used for the next read, after any steps down.
    public private(set) var expectedLength: Int
    /// What is left of the fastest way after the chip's refusals.
    public private(set) var strategy: FileReadStrategy
    /// Whether a read by short EF identifier has worked on this chip (its 6A82 is then trusted).
    private var shortIdentifiersProven = false
    private var ladder: [Int]

    /// Le steps when only short length is available, below the first (the most a short answer
    /// carries: `shortAnswerCapacity`).
    public static let shortLadder = [255, 223, 192, 160, 128]
    /// Le steps with extended length, before falling back to the short ones.
    public static let extendedLadder = [65280, 4096, 1024]
    /// The offsets READ BINARY B0 can address (P1 bit 8 clear).
    static let maximumEvenOffset = 0x7FFF
    /// The last ladder step; below it, 6282 answers halve the Le.
    static let smallestStep = 128
    /// The header read: a 1-byte tag and up to 2 length bytes after 82, which covers every LDS
    /// file up to 64 KB (ICAO 9303-11 App. D.4 reads EF.COM the same way: 4 bytes, then the rest).
    static let headerProbeLength = 4
    /// When the header is longer (a length over 64 KB, a multi-byte tag): enough for a 3-byte tag
    /// and a 4-byte length.
    static let longestHeader = 8

    public init(channel: any CommandChannel, strategy: FileReadStrategy = .fewestCommands) {
        self.channel = channel
        self.strategy = strategy
        let shortSteps = Self.shortSteps(below: Self.shortAnswerCapacity(of: channel, oddInstruction: false))
        ladder = (channel.supportsExtendedLength ? Self.extendedLadder : []) + shortSteps
        expectedLength = ladder[0]
    }

    /// The most plain bytes a READ BINARY answer can carry in a short APDU (Le `00`, 256 bytes on
    /// the wire): 255 in plain (B0; some chips mishandle Le `00`) or 256 (B1's whole DO'53'); under
    /// secure messaging what fits once padded to the cipher's block inside DO'87' (B0: tag, two
    /// length bytes, the padding indicator) or DO'85' (B1), with DO'99' (4) and DO'8E' (10).
    static func shortAnswerCapacity(of channel: any CommandChannel, oddInstruction: Bool) -> Int {
        guard let blockSize = channel.answerBlockSize else {
            return oddInstruction ? CommandAPDU.maximumShortExpectedLength : shortLadder[0]
        }
        let overhead = 3 + (oddInstruction ? 0 : 1) + 4 + 10
        return (CommandAPDU.maximumShortExpectedLength - overhead) / blockSize * blockSize - 1
    }

    /// `capacity` then the short ladder's steps below it.
    static func shortSteps(below capacity: Int) -> [Int] {
        [capacity] + shortLadder.filter { $0 < capacity }
    }

    /// The size of DO'53''s tag and length for `count` bytes of data.
    static func oddHeaderLength(_ count: Int) -> Int {
        1 + (count < 0x80 ? 1 : count < 0x100 ? 2 : count < 0x10000 ? 3 : 4)
    }

    /// The most data bytes a B1 answer carries when its whole DO'53' must fit `capacity` bytes.
    static func oddDataLength(within capacity: Int) -> Int {
        var count = capacity - 2
        while count + oddHeaderLength(count) > capacity { count -= 1 }
        return max(count, 1)
    }

    /// Reads `file` whole (outer tag and length included), by its short EF identifier or SELECTed
    /// first (in the current DF: the eMRTD application, or the MF for EF.CardAccess), and says how
    /// it went: the bytes, 6A82, 6982, or the failure (a malformed or oversized file, a broken link
    /// or secure messaging session) with the bytes read before it.
    public mutating func read(_ file: LDSFileKind) -> FileReadOutcome {
        var content: [UInt8] = []
        do throws(FileReadError) {
            if !strategy.shortFileIdentifiers { try select(file) }
            try readContent(file, into: &content, byShortIdentifier: strategy.shortFileIdentifiers)
            return .read(content)
        } catch {
            switch error.code {
            case .notFound: return .absent
            case .accessDenied: return .denied
            case .empty, .tooLarge, .malformed, .truncated, .unexpectedStatus, .transport, .secureMessaging:
                var failure = error
                failure.bytesRead = content
                return .failed(failure)
            }
        }
    }

    /// SELECT EF by file identifier, no answer data asked.
    private func select(_ file: LDSFileKind) throws(FileReadError) {
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

    /// The answers a first READ BINARY gets when the Le, rather than the file, is the problem: too
    /// long for the chip (6700, 6Cxx; 9000 with nothing to the whole first read), or past the end
    /// of a short file (6282 without data; 6B00 to the whole first read, whose offset 0 cannot be
    /// wrong). To a header read, 9000 with nothing or 6B00 says the short identifier is refused.
    private static func isLengthComplaint(_ answer: ResponseAPDU, wholeRead: Bool) -> Bool {
        let status = answer.statusWord
        return status == .wrongLength || status.exactLength != nil
            || (answer.data.isEmpty
                && (status == .endOfFileReached || (wholeRead && (status.isSuccess || status == .wrongParameters))))
    }

    /// Reads `file` into `content`, which keeps what came when the read fails.
    private mutating func readContent(_ file: LDSFileKind, into content: inout [UInt8], byShortIdentifier: Bool)
        throws(FileReadError)
    {
        var byShortIdentifier = byShortIdentifier
        var total: Int?  // known once the header is parsed; nil for a BER indefinite length
        var headerParsed = false
        // Below the remembered Le, after a 6282 without data.
        var fewerThan: Int?
        // For a file of indefinite length: its end lies before this offset (a 6B00 there).
        var endBefore: Int?
        // A whole first read the chip refused (its Le and status), answered by reading the header.
        var refusedFirstRead: (length: Int, status: StatusWord)?
        // The length a 6Cxx named, asked for next: the chip's limit if the file goes on past it.
        var namedLength: Int?
        while total.map({ content.count < $0 }) ?? true {
            let wanted: Int
            if headerParsed {
                wanted = total.map { $0 - content.count } ?? file.maximumSize - content.count
            } else if strategy.wholeFirstRead && refusedFirstRead == nil {
                wanted = file.maximumSize - content.count
            } else {
                wanted =
                    (content.count < Self.headerProbeLength ? Self.headerProbeLength : Self.longestHeader)
                    - content.count
            }
            guard wanted > 0 else {
                throw FileReadError(.tooLarge, file: file, "longer than \(file.maximumSize) bytes without an end")
            }
            // No byte can be left before the offset a 6B00 refused: the file ends here.
            if let endBefore, endBefore - content.count <= 1 { break }
            var length = min(
                wanted, expectedLength, fewerThan.map { $0 - 1 } ?? Int.max,
                endBefore.map { $0 - content.count - 1 } ?? Int.max)
            let shortIdentifier = byShortIdentifier && content.isEmpty
            if !shortIdentifier, content.count > Self.maximumEvenOffset { length = min(length, oddDataLimit) }
            let answer = try readBinary(
                file: file, offset: content.count, length: length, shortIdentifier: shortIdentifier)
            let status = answer.statusWord
            let hasData = (status.isSuccess || status == .endOfFileReached) && !answer.data.isEmpty
            let wholeRead =
                content.isEmpty && !headerParsed && strategy.wholeFirstRead && refusedFirstRead == nil
                && length > Self.headerProbeLength
            if shortIdentifier, !hasData, !shortIdentifiersProven, status != .securityStatusNotSatisfied,
                !Self.isLengthComplaint(answer, wholeRead: wholeRead)
            {
                // Perhaps the chip does not take short EF identifiers: a SELECT tells (and throws
                // when the file is really absent). From here on every file is SELECTed, and the
                // first read starts again (a refusal of the short identifier said nothing of Le).
                try select(file)
                strategy.shortFileIdentifiers = false
                byShortIdentifier = false
                refusedFirstRead = nil
                continue
            }
            if shortIdentifier, hasData { shortIdentifiersProven = true }
            // A 6Cxx names a length that works: asked for at once (below), no header read.
            if wholeRead, status.exactLength == nil, Self.isLengthComplaint(answer, wholeRead: true) {
                refusedFirstRead = (length, status)
                continue
            }
            if hasData {
                content += answer.data.prefix(wanted)
                fewerThan = nil
                // A short answer inside the declared length shows the chip's real limit.
                if status.isSuccess, answer.data.count < length, total.map({ content.count < $0 }) == true {
                    stepDown(below: answer.data.count + 1)
                }
            } else if status == .wrongParameters, headerParsed, total == nil {
                // Past the end of a file of indefinite length whose end-of-contents has not come:
                // a chip refusing offset + Le past the end answers so with bytes still left.
                guard length > 1 else { break }
                endBefore = min(endBefore ?? Int.max, content.count + length)
                fewerThan = length > Self.smallestStep ? Self.smallestStep + 1 : length / 2 + 1
                continue
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
            } else if let exact = status.exactLength.map(oddAware(shortIdentifier, content.count)), exact < length {
                // 6Cxx names the length that works: asked for next, and kept as the Le for the rest
                // of the file and the next files once the file goes on past it (below).
                fewerThan = exact + 1
                namedLength = exact
                continue
            } else if status == .wrongLength || status.isSuccess, stepDown(below: length) {
                // 6700, or 9000 with nothing: the chip cannot serve this Le.
                continue
            } else if status == .securityStatusNotSatisfied {
                throw FileReadError(.accessDenied, file: file, "READ BINARY refused", statusWord: status)
            } else if status == .fileNotFound, shortIdentifier {
                throw FileReadError(.notFound, file: file, "not on the chip", statusWord: status)
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
                        if status.isSuccess, answer.data.count < length, content.count < declared {
                            stepDown(below: answer.data.count + 1)
                        }
                    }
                    if let refused = refusedFirstRead { learn(from: refused, total: total) }
                }
            }
            if headerParsed, total == nil, let end = Self.endOfIndefiniteLength(content) {
                total = end
                content = Array(content.prefix(end))
            }
            // A named length that did not just reach the file's end is the chip's limit (one that
            // did may only have told how much was left).
            if let named = namedLength, hasData {
                namedLength = nil
                if total.map({ content.count < $0 }) ?? true { expectedLength = min(expectedLength, named) }
            }
        }
    }

    /// The data bytes a 6Cxx's length allows: for READ BINARY B1 (above offset 32767) it counts
    /// DO'53''s header too.
    private func oddAware(_ shortIdentifier: Bool, _ offset: Int) -> (Int) -> Int {
        let odd = !shortIdentifier && offset > Self.maximumEvenOffset
        return { odd ? Self.oddDataLength(within: $0) : $0 }
    }

    /// Where a file of indefinite length ends, once its outer TLV is complete in `content` (the
    /// end-of-contents `00 00` read): no read past it is needed.
    static func endOfIndefiniteLength(_ content: [UInt8]) -> Int? {
        guard content.count >= 4, content.suffix(2).allSatisfy({ $0 == 0 }),
            let (_, remainder) = try? ASN1Node.parsePrefix(content, rules: .ber)
        else { return nil }
        return content.count - remainder.count
    }

    /// What a refused whole first read meant, once the header told the file's size: a file at
    /// least as long as the refused Le, or a 6700 to an extended Le, shows the Le was too large
    /// for the chip (stepped down); otherwise the chip refuses reads
    /// past a file's end, so files start with their header from now on.
    private mutating func learn(from refused: (length: Int, status: StatusWord), total: Int?) {
        // A 6700 or an empty 9000 to an extended Le is about extended length, whatever the file's size.
        let tooLong = refused.status == .wrongLength || refused.status.isSuccess
        let extendedRefused = tooLong && refused.length > CommandAPDU.maximumShortExpectedLength
        guard extendedRefused || total.map({ $0 >= refused.length }) == true else {
            strategy.wholeFirstRead = false
            return
        }
        if tooLong || refused.status == .wrongParameters {
            // 6B00 to a read the file is long enough for: the Le itself is refused.
            stepDown(below: refused.length)
        }
    }

    /// Moves the remembered Le to the largest step below `limit`; false when none is left.
    @discardableResult
    private mutating func stepDown(below limit: Int) -> Bool {
        guard let next = ladder.first(where: { $0 < min(limit, expectedLength) }) else { return false }
        expectedLength = next
        return true
    }

    /// The most data bytes one B1 asks for: its whole DO'53' (what the chip's limit and Ne count)
    /// within the Le step, and on a short step within what a short answer carries, so a chip
    /// without extended length never sees an extended APDU or a 2-byte DO'97'.
    private var oddDataLimit: Int {
        let capacity =
            expectedLength > CommandAPDU.maximumShortExpectedLength
            ? expectedLength : min(expectedLength, Self.shortAnswerCapacity(of: channel, oddInstruction: true))
        return Self.oddDataLength(within: capacity)
    }

    /// One READ BINARY of `length` data bytes at `offset`: B0 with the short EF identifier (offset
    /// 0) or the offset in P1-P2, B1 above 32767.
    private func readBinary(file: LDSFileKind, offset: Int, length: Int, shortIdentifier: Bool) throws(FileReadError)
        -> ResponseAPDU
    {
        // The action names the frame, so that an answer refused (a wrong MAC) can be found in the
        // APDU log (`--debug`).
        let action = "READ BINARY of \(length) bytes at offset \(offset)"
        if shortIdentifier {
            return try exchange(
                CommandAPDU(ins: 0xB0, p1: 0x80 | file.shortFileIdentifier, p2: 0, expectedLength: length),
                file: file, action: action)
        }
        if offset <= Self.maximumEvenOffset {
            return try exchange(
                CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), expectedLength: length),
                file: file, action: action)
        }
        // Odd INS: the offset in DO'54', the answer wrapped in DO'53', whose header Ne counts
        // (`length` is within `oddDataLimit`).
        let offsetBytes = [UInt8(offset >> 16), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)]
        let answer = try exchange(
            CommandAPDU(
                ins: 0xB1, p1: 0, p2: 0, data: [0x54, 0x03] + offsetBytes,
                expectedLength: length + Self.oddHeaderLength(length)),
            file: file, action: action + " (B1)")
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
        do throws(ChannelError) {
            return try channel.send(command)
        } catch {
            throw FileReadError(error, file: file, action: action)
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
