import CryptoPrimitives
import ICAO
import Secrets
import Transport

/// One secure messaging session (ICAO 9303-11 §9.8): the session keys from BAC,
/// PACE or Chip Authentication and the send sequence counter (SSC).
///
/// A value the file reader (or `SecureChannel`) holds and mutates: every
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
    public private(set) var sendSequenceCounter: [UInt8]
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
        self.sendSequenceCounter = counter
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
        let counter = incremented(sendSequenceCounter)
        let cla = command.cla | 0x0C
        var objects = try cryptogramObject(command.data, counter: counter, instruction: command.ins)
        if let expectedLength = command.expectedLength {
            objects += encodeDataObject(
                tag: SecureMessagingTag.expectedLength,
                value: Self.encodeExpectedLength(expectedLength, extended: command.needsExtendedLength)
            )
        }
        let header = [cla, command.ins, command.p1, command.p2]
        let mac = try authenticationCode(
            counter: counter, ISO7816Padding.pad(header, blockSize: cipher.blockSize) + objects)
        objects += encodeDataObject(tag: SecureMessagingTag.checksum, value: mac)
        guard objects.count <= CommandAPDU.maximumDataLength else {
            throw SecureMessagingError(.invalidCommand, "protected command data of \(objects.count) bytes")
        }
        let extended =
            command.needsExtendedLength || objects.count > 255
            || (extendedLengthAvailable
                && protectedResponseLength(forExpectedLength: command.expectedLength ?? 0) > 256)
        sendSequenceCounter = counter
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
        guard let objects = parseDataObjects(response.data) else {
            throw SecureMessagingError(.malformedMessage, "response data is not a sequence of data objects")
        }
        guard let last = objects.last, last.tag == SecureMessagingTag.checksum else {
            guard !trailer.isSuccess, !objects.contains(where: { $0.tag == SecureMessagingTag.checksum }) else {
                throw SecureMessagingError(.macMissing, "response with status \(trailer) has no DO'8E' at the end")
            }
            return ResponseAPDU(statusWord: trailer)
        }
        let counter = incremented(sendSequenceCounter)
        let content = try ProtectedContent(
            objects.dropLast(),
            allowed: [
                SecureMessagingTag.cryptogram, SecureMessagingTag.oddInstructionCryptogram,
                SecureMessagingTag.processingStatus,
            ]
        )
        try verify(mac: last.value, counter: counter, over: response.data[..<last.encoded.startIndex])
        sendSequenceCounter = counter
        var statusWord = trailer
        if let status = content.processingStatus {
            guard status.count == 2 else {
                throw SecureMessagingError(.malformedMessage, "DO'99' of \(status.count) bytes")
            }
            statusWord = StatusWord(sw1: status[status.startIndex], sw2: status[status.startIndex + 1])
        }
        return ResponseAPDU(data: try content.plaintext(session: self, counter: counter), statusWord: statusWord)
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
            guard let objects = parseDataObjects(command.data), let last = objects.last,
                last.tag == SecureMessagingTag.checksum
            else {
                throw SecureMessagingError(.macMissing, "protected command without a final DO'8E'")
            }
            let counter = incremented(sendSequenceCounter)
            let content = try ProtectedContent(
                objects.dropLast(),
                allowed: [
                    SecureMessagingTag.cryptogram, SecureMessagingTag.oddInstructionCryptogram,
                    SecureMessagingTag.expectedLength,
                ]
            )
            let header = ISO7816Padding.pad(
                [command.cla, command.ins, command.p1, command.p2], blockSize: cipher.blockSize)
            try verify(mac: last.value, counter: counter, over: header + command.data[..<last.encoded.startIndex])
            sendSequenceCounter = counter
            var expectedLength: Int?
            if let field = content.expectedLength {
                expectedLength = try Self.decodeExpectedLength(field)
            }
            return CommandAPDU(
                cla: command.cla & ~0x0C,
                ins: command.ins,
                p1: command.p1,
                p2: command.p2,
                data: try content.plaintext(session: self, counter: counter),
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
        let counter = incremented(sendSequenceCounter)
        var objects = try cryptogramObject(response.data, counter: counter, instruction: command.ins)
        if includeProcessingStatus {
            objects += encodeDataObject(
                tag: SecureMessagingTag.processingStatus,
                value: [response.statusWord.sw1, response.statusWord.sw2]
            )
        }
        objects += encodeDataObject(
            tag: SecureMessagingTag.checksum,
            value: try authenticationCode(counter: counter, objects)
        )
        sendSequenceCounter = counter
        return ResponseAPDU(data: objects, statusWord: response.statusWord)
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

    /// `data` encrypted into DO'85' for an odd instruction (BER-TLV data, no padding-content
    /// indicator) or DO'87' otherwise; nothing for no data. Commands and answers share the rule.
    func cryptogramObject(_ data: [UInt8], counter: [UInt8], instruction: UInt8) throws(SecureMessagingError)
        -> [UInt8]
    {
        guard !data.isEmpty else { return [] }
        let cryptogram = try crypt(data, counter: counter, encrypt: true)
        return instruction & 1 == 1
            ? encodeDataObject(tag: SecureMessagingTag.oddInstructionCryptogram, value: cryptogram)
            : encodeDataObject(
                tag: SecureMessagingTag.cryptogram, value: [SecureMessagingTag.paddingIndicator] + cryptogram)
    }

    /// Pads and encrypts, or decrypts and unpads, under KSenc with the IV for `counter`.
    func crypt<Bytes: Collection<UInt8>>(
        _ input: Bytes,
        counter: [UInt8],
        encrypt: Bool
    ) throws(SecureMessagingError) -> [UInt8] {
        do {
            let iv =
                cipher == .tripleDES
                ? [UInt8](repeating: 0, count: cipher.blockSize) : try encryptionKey.encryptECB(counter)
            if encrypt {
                return try encryptionKey.encryptCBC(ISO7816Padding.pad(input, blockSize: cipher.blockSize), iv: iv)
            }
            guard !input.isEmpty, input.count % cipher.blockSize == 0 else {
                throw SecureMessagingError(.malformedMessage, "cryptogram of \(input.count) bytes is not whole blocks")
            }
            return try ISO7816Padding.unpad(try encryptionKey.decryptCBC(input, iv: iv))
        } catch let error as SecureMessagingError {
            throw error
        } catch {
            throw SecureMessagingError(.malformedMessage, "cryptogram: \(error)")
        }
    }

    /// The 8-byte MAC over `counter || message`, padded (ISO/IEC 7816-4).
    private func authenticationCode(counter: [UInt8], _ message: [UInt8]) throws(SecureMessagingError) -> [UInt8] {
        do {
            let input = counter + message
            if cipher == .tripleDES { return try macKey.retailMAC(input) }
            return try macKey.cmac(ISO7816Padding.pad(input, blockSize: cipher.blockSize), truncatedTo: 8)
        } catch {
            throw SecureMessagingError(.invalidKeys, "MAC computation failed: \(error)")
        }
    }

    private func verify(
        mac: ArraySlice<UInt8>,
        counter: [UInt8],
        over message: ArraySlice<UInt8>
    ) throws(SecureMessagingError) {
        guard mac.count == 8 else {
            throw SecureMessagingError(.malformedMessage, "DO'8E' of \(mac.count) bytes, expected 8")
        }
        guard constantTimeEquals(try authenticationCode(counter: counter, Array(message)), mac) else {
            throw SecureMessagingError(
                .macInvalid, "the MAC does not match (wrong keys, a counter out of step, or tampering)")
        }
    }

    private func incremented(_ counter: [UInt8]) -> [UInt8] {
        var next = counter
        for index in next.indices.reversed() {
            next[index] &+= 1
            if next[index] != 0 { break }
        }
        return next
    }

    /// The size of a protected response carrying `expectedLength` plain bytes
    /// (DO'87', DO'99', DO'8E').
    private func protectedResponseLength(forExpectedLength expectedLength: Int) -> Int {
        let blockSize = cipher.blockSize
        let cryptogram = expectedLength == 0 ? 0 : 1 + (expectedLength / blockSize + 1) * blockSize
        let cryptogramObject =
            cryptogram == 0 ? 0 : 1 + (cryptogram < 0x80 ? 1 : cryptogram < 0x100 ? 2 : 3) + cryptogram
        return cryptogramObject + 4 + 10
    }

    static func encodeExpectedLength(_ expectedLength: Int, extended: Bool) -> [UInt8] {
        if extended || expectedLength > CommandAPDU.maximumShortExpectedLength {
            let field = expectedLength == CommandAPDU.maximumExtendedExpectedLength ? 0 : expectedLength
            return [UInt8(truncatingIfNeeded: field >> 8), UInt8(truncatingIfNeeded: field)]
        }
        return [UInt8(truncatingIfNeeded: expectedLength)]
    }

    static func decodeExpectedLength(_ field: ArraySlice<UInt8>) throws(SecureMessagingError) -> Int {
        let bytes = Array(field)
        switch bytes.count {
        case 1: return bytes[0] == 0 ? 256 : Int(bytes[0])
        case 2:
            let value = Int(bytes[0]) << 8 | Int(bytes[1])
            return value == 0 ? 65536 : value
        default: throw SecureMessagingError(.malformedMessage, "DO'97' of \(bytes.count) bytes")
        }
    }
}

/// The data objects before DO'8E' in a protected message, each allowed tag at
/// most once and at most one cryptogram.
private struct ProtectedContent {
    var cryptogram: ArraySlice<UInt8>?
    var oddInstructionCryptogram: ArraySlice<UInt8>?
    var expectedLength: ArraySlice<UInt8>?
    var processingStatus: ArraySlice<UInt8>?

    init(_ objects: ArraySlice<ParsedDataObject>, allowed: Set<UInt8>) throws(SecureMessagingError) {
        for object in objects {
            guard allowed.contains(object.tag) else {
                throw SecureMessagingError(.malformedMessage, "unexpected data object \(object.tag) before DO'8E'")
            }
            let slot: WritableKeyPath<ProtectedContent, ArraySlice<UInt8>?> =
                switch object.tag {
                case SecureMessagingTag.cryptogram: \.cryptogram
                case SecureMessagingTag.oddInstructionCryptogram: \.oddInstructionCryptogram
                case SecureMessagingTag.expectedLength: \.expectedLength
                default: \.processingStatus
                }
            guard self[keyPath: slot] == nil else {
                throw SecureMessagingError(.malformedMessage, "data object \(object.tag) appears twice")
            }
            self[keyPath: slot] = object.value
        }
        guard cryptogram == nil || oddInstructionCryptogram == nil else {
            throw SecureMessagingError(.malformedMessage, "both DO'85' and DO'87'")
        }
    }

    /// The decrypted data (empty without a cryptogram). Only called after the MAC verified.
    func plaintext(session: SecureMessagingSession, counter: [UInt8]) throws(SecureMessagingError) -> [UInt8] {
        if let cryptogram {
            guard cryptogram.first == SecureMessagingTag.paddingIndicator else {
                throw SecureMessagingError(.malformedMessage, "DO'87' without padding-content indicator 01")
            }
            return try session.crypt(cryptogram.dropFirst(), counter: counter, encrypt: false)
        }
        if let oddInstructionCryptogram {
            return try session.crypt(oddInstructionCryptogram, counter: counter, encrypt: false)
        }
        return []
    }
}
