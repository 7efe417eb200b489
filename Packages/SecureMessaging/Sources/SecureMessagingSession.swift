import CryptoPrimitives
import ICAO
import Secrets
import Transport

/// One secure messaging session (ICAO 9303-11 §9.8): the session keys from BAC,
/// PACE or Chip Authentication and the send sequence counter (SSC).
///
/// A value `SecureChannel` holds and mutates: every
/// protected command and every authenticated response advances the SSC by one,
/// exactly as the chip's does. 3DES sessions use an 8-byte SSC, zero IVs and the
/// ISO/IEC 9797-1 retail MAC; AES sessions a 16-byte SSC, IV = E(KSenc, SSC) and
/// AES-CMAC truncated to 8 bytes.
///
/// Once a response fails verification the session is *broken*: `failure` holds
/// why, and `wrap` refuses every further command, so a reader re-establishes
/// access instead of continuing with a counter it can no longer trust.
///
/// The reader side is `wrap(_:)` / `unwrap(_:)`; the chip side (for the chip
/// simulator) is `unwrapCommand(_:)` / `wrapResponse(_:to:)`.
public struct SecureMessagingSession: Sendable, CustomStringConvertible {
    public let encryptionKey: SymmetricKey
    public let macKey: SymmetricKey
    /// The SSC, big-endian, one cipher block long.
    public var sendSequenceCounter: [UInt8] { counter.bytes }
    /// The SSC as a number, advanced without touching the heap.
    private var counter: SendSequenceCounter
    /// Why the session broke, once it has.
    public private(set) var failure: SecureMessagingError?

    public var cipher: BlockCipher { encryptionKey.cipher }
    public var isBroken: Bool { failure != nil }

    /// A session with both keys for the same cipher and an SSC of one block
    /// (BAC: the last four bytes of RND.IC then of RND.IFD; PACE and CA: zero,
    /// the default).
    public init(
        encryptionKey: SymmetricKey,
        macKey: SymmetricKey,
        sendSequenceCounter: [UInt8]? = nil
    ) throws(SecureMessagingError) {
        guard encryptionKey.cipher == macKey.cipher else {
            throw SecureMessagingError(
                .invalidKeys,
                "encryption key is \(encryptionKey.cipher), MAC key \(macKey.cipher)"
            )
        }
        let blockSize = encryptionKey.cipher.blockSize
        let counter = sendSequenceCounter ?? [UInt8](repeating: 0, count: blockSize)
        guard counter.count == blockSize else {
            throw SecureMessagingError(.invalidKeys, "the SSC must be \(blockSize) bytes, got \(counter.count)")
        }
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.counter = SendSequenceCounter(counter)
    }

    public var description: String {
        "SecureMessagingSession(\(cipher), keys redacted\(isBroken ? ", broken" : ""))"
    }

    // MARK: Reader side

    /// Protects `command`: CLA gets `0C`; data goes encrypted into DO'87' (even
    /// INS) or DO'85' (odd INS, e.g. READ BINARY B1); Le into DO'97'; the MAC
    /// over SSC, padded header and those objects into DO'8E'.
    ///
    /// DO'97' encodes Ne as the unprotected command would: one byte up to 256
    /// (`00` = 256), two bytes above (`0000` = 65536). The protected command
    /// always asks for a response (Le `00`), and uses extended length (Le `0000`)
    /// when the plain command needs it, when the protected data exceeds 255
    /// bytes, or when `extendedLengthAvailable` and the protected answer to Ne
    /// could exceed 256 bytes (a 256-byte INTERNAL AUTHENTICATE signature,
    /// large reads).
    public mutating func wrap(
        _ command: CommandAPDU,
        extendedLengthAvailable: Bool = false
    ) throws(SecureMessagingError) -> CommandAPDU {
        try requireIntact()
        guard command.cla & 0x0C == 0 else {
            throw SecureMessagingError(.invalidCommand, "CLA \(command.cla) is already secure messaging")
        }
        guard command.cla & 0xE0 == 0 else {
            throw SecureMessagingError(.invalidCommand, "CLA \(command.cla) is not an interindustry class")
        }
        let counter = self.counter.incremented()
        let cla = command.cla | 0x0C
        let expectedLength = command.expectedLength.map {
            ExpectedLengthField($0, extended: command.needsExtendedLength)
        }
        let length = protectedLength(
            dataLength: command.data.count, instruction: command.ins,
            statusObjectLength: expectedLength.map { 2 + $0.count } ?? 0)
        guard length <= CommandAPDU.maximumDataLength else {
            throw SecureMessagingError(.invalidCommand, "protected command data of \(length) bytes")
        }
        let objects = try protect(
            command.data, instruction: command.ins, counter: counter, length: length,
            header: (cla, command.ins, command.p1, command.p2)
        ) { buffer, position in
            guard let expectedLength else { return }
            buffer[position] = SecureMessagingTag.expectedLength
            buffer[position + 1] = UInt8(expectedLength.count)
            if expectedLength.count == 2 { buffer[position + 2] = UInt8(truncatingIfNeeded: expectedLength.value >> 8) }
            buffer[position + 1 + expectedLength.count] = UInt8(truncatingIfNeeded: expectedLength.value)
            position += 2 + expectedLength.count
        }
        let extended =
            command.needsExtendedLength || objects.count > 255
            || (extendedLengthAvailable
                && protectedResponseLength(forExpectedLength: command.expectedLength ?? 0) > 256)
        self.counter = counter
        return CommandAPDU(
            cla: cla,
            ins: command.ins,
            p1: command.p1,
            p2: command.p2,
            data: objects,
            expectedLength: extended
                ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength,
            isSecret: false
        )
    }

    /// Verifies and decrypts a response to the last wrapped command. The MAC is
    /// checked (in constant time) before anything is decrypted, and no data is
    /// ever returned that the MAC did not cover.
    ///
    /// Policies for what real chips send (not all of it as ICAO 9303-11 says), decided here:
    /// - **Bare status word** (no data, e.g. `6A82` to a SELECT): returned as the
    ///   status alone, unauthenticated. It carries no data, so the worst a forger
    ///   can do is make a file look absent or denied, which cutting the link does
    ///   too. The SSC is *not* advanced: the chip computed no response MAC, and
    ///   the counter moves once per MAC on both sides (the ePass emulator's
    ///   counter advances by one over such an exchange, as does JMRTD's).
    ///   Exceptions: a bare `9000` claims success without proof and breaks the
    ///   session (`macMissing`); a bare `6987`/`6988` is the chip reporting a
    ///   secure messaging error, after which it has dropped its keys
    ///   (`chipEndedSession`).
    /// - **Missing DO'99'** (the ePass never sends it): tolerated. DO'8E' still
    ///   authenticates every data object present, so the data is genuine; the
    ///   status word then comes from the unprotected trailer, which can only
    ///   mislabel authentic data, not alter it. When DO'99' is present it is the
    ///   status word, whatever the trailer says.
    /// - **Data without DO'8E'** (the ePass sends `6282` as DO'87' with no MAC):
    ///   with a warning or error status the data is dropped and the status
    ///   returned alone, SSC not advanced (as for a bare status word); the file
    ///   reader sees `6282` without data and asks again for what remains. With
    ///   `9000` it is unauthenticated success: the session breaks.
    /// - Anything else wrong (MAC mismatch, unknown or repeated data objects,
    ///   bad padding) breaks the session with a typed error.
    public mutating func unwrap(_ response: ResponseAPDU) throws(SecureMessagingError) -> ResponseAPDU {
        try requireIntact()
        do throws(SecureMessagingError) {
            return try unwrapIntact(response)
        } catch {
            if error.breaksSession { failure = error }
            throw error
        }
    }

    private mutating func unwrapIntact(_ response: ResponseAPDU) throws(SecureMessagingError) -> ResponseAPDU {
        let trailer = response.statusWord
        guard !response.data.isEmpty else {
            if trailer == .secureMessagingDataObjectsMissing || trailer == .secureMessagingDataObjectsIncorrect {
                throw SecureMessagingError(.chipEndedSession, "the chip answered \(trailer) without secure messaging")
            }
            guard !trailer.isSuccess else {
                throw SecureMessagingError(.macMissing, "the chip answered 9000 without secure messaging")
            }
            return ResponseAPDU(statusWord: trailer)
        }
        guard let layout = DataObjectLayout(response.data) else {
            throw SecureMessagingError(.malformedMessage, "response data is not a sequence of data objects")
        }
        guard layout.last.tag == SecureMessagingTag.checksum else {
            guard !trailer.isSuccess, !layout.containsChecksum else {
                throw SecureMessagingError(.macMissing, "response with status \(trailer) has no DO'8E' at the end")
            }
            return ResponseAPDU(statusWord: trailer)
        }
        let counter = self.counter.incremented()
        let content = try ProtectedContent(response.data, before: layout.last, inCommand: false)
        try verify(layout.last, in: response.data, counter: counter, header: nil)
        self.counter = counter
        var statusWord = trailer
        if let status = content.processingStatus {
            guard status.count == 2 else {
                throw SecureMessagingError(.malformedMessage, "DO'99' of \(status.count) bytes")
            }
            statusWord = StatusWord(sw1: response.data[status.lowerBound], sw2: response.data[status.lowerBound + 1])
        }
        return ResponseAPDU(
            data: try content.plaintext(of: response.data, session: self, counter: counter), statusWord: statusWord)
    }

    // MARK: Chip side

    /// The chip's view of a protected command: checks CLA, the MAC over SSC,
    /// padded header, DO'85'/'87' and DO'97', then decrypts. Returns the plain
    /// command (CLA without the SM bits, data, Ne from DO'97'). Any failure
    /// breaks the session; a chip then answers `6988` in plain.
    public mutating func unwrapCommand(_ command: CommandAPDU) throws(SecureMessagingError) -> CommandAPDU {
        try requireIntact()
        do throws(SecureMessagingError) {
            guard command.cla & 0x0C == 0x0C else {
                throw SecureMessagingError(.macMissing, "command CLA \(command.cla) is not secure messaging")
            }
            guard let layout = DataObjectLayout(command.data), layout.last.tag == SecureMessagingTag.checksum else {
                throw SecureMessagingError(.macMissing, "protected command without a final DO'8E'")
            }
            let counter = self.counter.incremented()
            let content = try ProtectedContent(command.data, before: layout.last, inCommand: true)
            try verify(
                layout.last, in: command.data, counter: counter,
                header: (command.cla, command.ins, command.p1, command.p2))
            self.counter = counter
            var expectedLength: Int?
            if let field = content.expectedLength {
                expectedLength = try Self.decodeExpectedLength(command.data[field])
            }
            return CommandAPDU(
                cla: command.cla & ~0x0C,
                ins: command.ins,
                p1: command.p1,
                p2: command.p2,
                data: try content.plaintext(of: command.data, session: self, counter: counter),
                expectedLength: expectedLength
            )
        } catch {
            failure = error
            throw error
        }
    }

    /// The chip's protected response to `command` (the plain command
    /// `unwrapCommand` returned): data into DO'87' (DO'85' for an odd INS), the
    /// status into DO'99' (left out with `includeProcessingStatus: false`, as the
    /// ePass does), the MAC into DO'8E'; the trailer repeats the status word.
    public mutating func wrapResponse(
        _ response: ResponseAPDU,
        to command: CommandAPDU,
        includeProcessingStatus: Bool = true
    ) throws(SecureMessagingError) -> ResponseAPDU {
        try requireIntact()
        let counter = self.counter.incremented()
        let statusWord = response.statusWord
        let objects = try protect(
            response.data, instruction: command.ins, counter: counter,
            length: protectedLength(
                dataLength: response.data.count, instruction: command.ins,
                statusObjectLength: includeProcessingStatus ? 4 : 0),
            header: nil
        ) { buffer, position in
            guard includeProcessingStatus else { return }
            buffer[position] = SecureMessagingTag.processingStatus
            buffer[position + 1] = 2
            buffer[position + 2] = statusWord.sw1
            buffer[position + 3] = statusWord.sw2
            position += 4
        }
        self.counter = counter
        return ResponseAPDU(data: objects, statusWord: statusWord)
    }

    // MARK: Cryptography

    /// Records a failure found outside the session (a lost link mid-exchange).
    mutating func markBroken(_ error: SecureMessagingError) {
        if failure == nil { failure = error }
    }

    private func requireIntact() throws(SecureMessagingError) {
        if let failure {
            throw SecureMessagingError(.sessionBroken, "the session broke earlier: \(failure.reason)")
        }
    }

    /// The 4 header bytes of a command (CLA with the SM bits, INS, P1, P2).
    typealias Header = (UInt8, UInt8, UInt8, UInt8)

    /// The length of a protected message carrying `dataLength` plain bytes: the cryptogram object
    /// (none for no data), a status object of `statusObjectLength` bytes (DO'97' or DO'99'), DO'8E'.
    private func protectedLength(dataLength: Int, instruction: UInt8, statusObjectLength: Int) -> Int {
        guard dataLength > 0 else { return statusObjectLength + 10 }
        let cryptogram = (dataLength / cipher.blockSize + 1) * cipher.blockSize + (instruction & 1 == 1 ? 0 : 1)
        return 1 + lengthFieldSize(cryptogram) + cryptogram + statusObjectLength + 10
    }

    /// A protected message of `length` bytes, written once into the array that is sent: `data`
    /// padded and encrypted in place into DO'85' for an odd instruction (BER-TLV data, no
    /// padding-content indicator) or DO'87' otherwise (nothing for no data), then the status
    /// object `writeStatus` adds, then DO'8E' with the MAC over the SSC, the padded `header`
    /// (commands) and the objects before it, fed to the MAC from where they lie.
    private func protect(
        _ data: [UInt8], instruction: UInt8, counter: SendSequenceCounter, length: Int, header: Header?,
        writeStatus: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void
    ) throws(SecureMessagingError) -> [UInt8] {
        let blockSize = cipher.blockSize
        var failure: SecureMessagingError?
        let objects = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            do throws(SecureMessagingError) {
                var position = 0
                if !data.isEmpty {
                    let padded = (data.count / blockSize + 1) * blockSize
                    let odd = instruction & 1 == 1
                    writeDataObjectHeader(
                        tag: odd ? SecureMessagingTag.oddInstructionCryptogram : SecureMessagingTag.cryptogram,
                        length: padded + (odd ? 0 : 1), into: buffer, at: &position)
                    if !odd {
                        buffer[position] = SecureMessagingTag.paddingIndicator
                        position += 1
                    }
                    let cryptogram = UnsafeMutableBufferPointer(rebasing: buffer[position..<(position + padded)])
                    _ = cryptogram.initialize(from: data)
                    cryptogram[data.count] = 0x80
                    cryptogram[(data.count + 1)...].initialize(repeating: 0)
                    do {
                        try withIV(counter) { iv in
                            try encryptionKey.cbc(
                                UnsafeRawBufferPointer(cryptogram), into: UnsafeMutableRawBufferPointer(cryptogram),
                                iv: iv, encrypt: true)
                        }
                    } catch {
                        throw SecureMessagingError(.malformedMessage, "cryptogram: \(error)")
                    }
                    position += padded
                }
                writeStatus(buffer, &position)
                let covered = UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<position]))
                buffer[position] = SecureMessagingTag.checksum
                buffer[position + 1] = 8
                do {
                    try authenticationCode(
                        counter: counter, header: header, covered,
                        into: UnsafeMutableRawBufferPointer(
                            UnsafeMutableBufferPointer(rebasing: buffer[(position + 2)..<(position + 10)])))
                } catch {
                    throw SecureMessagingError(.invalidKeys, "MAC computation failed: \(error)")
                }
                initialized = position + 10
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return objects
    }

    /// Decrypts and unpads a cryptogram, straight from the message into the array returned,
    /// under KSenc with the IV for `counter`.
    func decrypt(_ message: [UInt8], _ cryptogram: Range<Int>, counter: SendSequenceCounter)
        throws(SecureMessagingError) -> [UInt8]
    {
        guard !cryptogram.isEmpty, cryptogram.count % cipher.blockSize == 0 else {
            throw SecureMessagingError(.malformedMessage, "cryptogram of \(cryptogram.count) bytes is not whole blocks")
        }
        var failure: (any Error)?
        let plaintext = message.withUnsafeBytes { bytes in
            [UInt8](unsafeUninitializedCapacity: cryptogram.count) { buffer, initialized in
                do {
                    let output = UnsafeMutableRawBufferPointer(buffer)
                    try withIV(counter) { iv in
                        try encryptionKey.cbc(
                            UnsafeRawBufferPointer(rebasing: bytes[cryptogram]), into: output, iv: iv, encrypt: false)
                    }
                    initialized = try ISO7816Padding.unpaddedCount(UnsafeBufferPointer(buffer))
                } catch {
                    failure = error
                    initialized = 0
                }
            }
        }
        if let failure {
            throw SecureMessagingError(.malformedMessage, "cryptogram: \(failure)")
        }
        return plaintext
    }

    /// Runs `body` with the CBC IV for `counter`: zero for 3DES, E(KSenc, SSC) for AES.
    private func withIV(_ counter: SendSequenceCounter, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var block: (UInt64, UInt64) = (0, 0)
        try withUnsafeMutableBytes(of: &block) { bytes in
            let iv = UnsafeMutableRawBufferPointer(rebasing: bytes[..<cipher.blockSize])
            if cipher != .tripleDES {
                try counter.withBytes { try encryptionKey.encryptECB($0, into: iv) }
            }
            try body(UnsafeRawBufferPointer(iv))
        }
    }

    /// The 8-byte MAC over `counter || padded header || message`, padded (ISO/IEC 7816-4), into `output`.
    private func authenticationCode(
        counter: SendSequenceCounter, header: Header?, _ message: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws {
        let blockSize = cipher.blockSize
        // The header and its padding: at most one 16-byte block.
        var paddedHeader: (UInt64, UInt64) = (0, 0)
        if let header {
            withUnsafeMutableBytes(of: &paddedHeader) { block in
                block[0] = header.0
                block[1] = header.1
                block[2] = header.2
                block[3] = header.3
                block[4] = 0x80
            }
        }
        try counter.withBytes { counterBytes in
            try withUnsafeBytes(of: &paddedHeader) { block in
                try macKey.paddedMAC(into: output) { update in
                    update(counterBytes)
                    if header != nil { update(UnsafeRawBufferPointer(rebasing: block[..<blockSize])) }
                    update(message)
                }
            }
        }
    }

    /// Checks the 8-byte value of DO'8E' (`checksum`) against the MAC over the SSC, the padded
    /// `header` (commands) and everything in `message` before DO'8E', in constant time.
    private func verify(
        _ checksum: DataObjectLocation, in message: [UInt8], counter: SendSequenceCounter, header: Header?
    ) throws(SecureMessagingError) {
        let mac = checksum.value
        guard mac.count == 8 else {
            throw SecureMessagingError(.malformedMessage, "DO'8E' of \(mac.count) bytes, expected 8")
        }
        var expected: UInt64 = 0
        let matches: Bool
        do {
            matches = try message.withUnsafeBytes { bytes in
                try withUnsafeMutableBytes(of: &expected) { output in
                    try authenticationCode(
                        counter: counter, header: header, UnsafeRawBufferPointer(rebasing: bytes[..<checksum.start]),
                        into: output)
                    return constantTimeEquals(
                        UnsafeRawBufferPointer(output), UnsafeRawBufferPointer(rebasing: bytes[mac]))
                }
            }
        } catch {
            throw SecureMessagingError(.invalidKeys, "MAC computation failed: \(error)")
        }
        guard matches else {
            throw SecureMessagingError(
                .macInvalid, "the MAC does not match (wrong keys, a counter out of step, or tampering)")
        }
    }

    /// The size of a protected response carrying `expectedLength` plain bytes
    /// (DO'87', DO'99', DO'8E'): above 256 it needs extended length.
    public func protectedResponseLength(forExpectedLength expectedLength: Int) -> Int {
        let blockSize = cipher.blockSize
        let cryptogram = expectedLength == 0 ? 0 : 1 + (expectedLength / blockSize + 1) * blockSize
        let cryptogramObject =
            cryptogram == 0 ? 0 : 1 + (cryptogram < 0x80 ? 1 : cryptogram < 0x100 ? 2 : 3) + cryptogram
        return cryptogramObject + 4 + 10
    }

    static func decodeExpectedLength(_ field: ArraySlice<UInt8>) throws(SecureMessagingError) -> Int {
        let first = field.startIndex
        switch field.count {
        case 1: return field[first] == 0 ? 256 : Int(field[first])
        case 2:
            let value = Int(field[first]) << 8 | Int(field[first + 1])
            return value == 0 ? 65536 : value
        default: throw SecureMessagingError(.malformedMessage, "DO'97' of \(field.count) bytes")
        }
    }
}

/// DO'97' as the unprotected command would encode Ne: one byte up to 256 (`00` = 256), two bytes
/// above or for an extended command (`0000` = 65536).
struct ExpectedLengthField {
    let value: UInt16
    let count: Int

    init(_ expectedLength: Int, extended: Bool) {
        if extended || expectedLength > CommandAPDU.maximumShortExpectedLength {
            let field = expectedLength == CommandAPDU.maximumExtendedExpectedLength ? 0 : expectedLength
            (value, count) = (UInt16(truncatingIfNeeded: field), 2)
        } else {
            (value, count) = (UInt16(truncatingIfNeeded: expectedLength & 0xFF), 1)
        }
    }
}

/// The send sequence counter as a number of 8 bytes (3DES) or 16 (AES), big-endian on the wire.
struct SendSequenceCounter: Sendable {
    private var high: UInt64 = 0
    private var low: UInt64 = 0
    private let count: Int

    /// From the SSC's bytes (8 or 16, checked by the session).
    init(_ bytes: [UInt8]) {
        count = bytes.count
        for (index, byte) in bytes.enumerated() {
            if bytes.count - index > 8 {
                high = high << 8 | UInt64(byte)
            } else {
                low = low << 8 | UInt64(byte)
            }
        }
    }

    /// The next value, wrapping around at the block's size as the byte-wise increment does.
    func incremented() -> SendSequenceCounter {
        var next = self
        next.low &+= 1
        if next.low == 0, count == 16 { next.high &+= 1 }
        return next
    }

    var bytes: [UInt8] { withBytes { Array($0) } }

    /// Runs `body` on the big-endian bytes, from the stack.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let words = (high.bigEndian, low.bigEndian)
        return try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[(16 - count)...])) }
    }
}

/// The data objects before DO'8E' in a protected message, each allowed tag at
/// most once and at most one cryptogram: where their values lie in the message.
private struct ProtectedContent {
    var cryptogram: Range<Int>?
    var oddInstructionCryptogram: Range<Int>?
    var expectedLength: Range<Int>?
    var processingStatus: Range<Int>?

    /// A command may carry DO'85' or DO'87' and DO'97' before DO'8E', a response DO'85' or DO'87'
    /// and DO'99'.
    init(_ message: [UInt8], before checksum: DataObjectLocation, inCommand: Bool) throws(SecureMessagingError) {
        var objects = DataObjectIterator(message, end: checksum.start)
        while let object = objects.next() {
            let isRepeated: Bool
            switch object.tag {
            case SecureMessagingTag.cryptogram:
                isRepeated = cryptogram != nil
                cryptogram = object.value
            case SecureMessagingTag.oddInstructionCryptogram:
                isRepeated = oddInstructionCryptogram != nil
                oddInstructionCryptogram = object.value
            case SecureMessagingTag.expectedLength where inCommand:
                isRepeated = expectedLength != nil
                expectedLength = object.value
            case SecureMessagingTag.processingStatus where !inCommand:
                isRepeated = processingStatus != nil
                processingStatus = object.value
            default:
                throw SecureMessagingError(.malformedMessage, "unexpected data object \(object.tag) before DO'8E'")
            }
            guard !isRepeated else {
                throw SecureMessagingError(.malformedMessage, "data object \(object.tag) appears twice")
            }
        }
        guard cryptogram == nil || oddInstructionCryptogram == nil else {
            throw SecureMessagingError(.malformedMessage, "both DO'85' and DO'87'")
        }
    }

    /// The decrypted data (empty without a cryptogram). Only called after the MAC verified.
    func plaintext(
        of message: [UInt8], session: SecureMessagingSession, counter: SendSequenceCounter
    ) throws(SecureMessagingError) -> [UInt8] {
        if let cryptogram {
            guard cryptogram.first.map({ message[$0] }) == SecureMessagingTag.paddingIndicator else {
                throw SecureMessagingError(.malformedMessage, "DO'87' without padding-content indicator 01")
            }
            return try session.decrypt(message, cryptogram.dropFirst(), counter: counter)
        }
        if let oddInstructionCryptogram {
            return try session.decrypt(message, oddInstructionCryptogram, counter: counter)
        }
        return []
    }
}
