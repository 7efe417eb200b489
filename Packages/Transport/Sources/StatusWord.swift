/// The two status bytes SW1 SW2 that end every response (ISO/IEC 7816-4 §5.6).
///
/// A struct rather than an enum because chips answer with any of 65536 values; the named constants
/// are the ones an eMRTD reader acts on, and the families (61xx, 6Cxx) have accessors.
public struct StatusWord: Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public init(sw1: UInt8, sw2: UInt8) { rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    public var sw2: UInt8 { UInt8(rawValue & 0xFF) }

    /// 9000: normal processing.
    public static let success = StatusWord(0x9000)
    /// 6282: end of file reached before Ne bytes were read (the data that exists is returned).
    public static let endOfFileReached = StatusWord(0x6282)
    /// 6283: selected file invalidated (deactivated).
    public static let selectedFileInvalidated = StatusWord(0x6283)
    /// 6300: verification failed (e.g. a wrong PACE password).
    public static let verificationFailed = StatusWord(0x6300)
    /// 6700: wrong length (Lc or Le).
    public static let wrongLength = StatusWord(0x6700)
    /// 6982: security status not satisfied (access denied).
    public static let securityStatusNotSatisfied = StatusWord(0x6982)
    /// 6984: reference data not usable.
    public static let referenceDataNotUsable = StatusWord(0x6984)
    /// 6985: conditions of use not satisfied.
    public static let conditionsNotSatisfied = StatusWord(0x6985)
    /// 6986: command not allowed (no current EF).
    public static let commandNotAllowed = StatusWord(0x6986)
    /// 6987: expected secure messaging data objects missing.
    public static let secureMessagingDataObjectsMissing = StatusWord(0x6987)
    /// 6988: secure messaging data objects incorrect (also what the ePass answers to a wrong BAC key).
    public static let secureMessagingDataObjectsIncorrect = StatusWord(0x6988)
    /// 6A80: incorrect parameters in the command data field.
    public static let incorrectData = StatusWord(0x6A80)
    /// 6A82: file or application not found.
    public static let fileNotFound = StatusWord(0x6A82)
    /// 6A86: incorrect parameters P1-P2.
    public static let incorrectParameters = StatusWord(0x6A86)
    /// 6A88: referenced data not found.
    public static let referencedDataNotFound = StatusWord(0x6A88)
    /// 6B00: wrong parameters P1-P2 (for READ BINARY: offset beyond the end of the file).
    public static let wrongParameters = StatusWord(0x6B00)
    /// 6D00: instruction not supported.
    public static let instructionNotSupported = StatusWord(0x6D00)
    /// 6E00: class not supported.
    public static let classNotSupported = StatusWord(0x6E00)
    /// 6F00: no precise diagnosis.
    public static let noPreciseDiagnosis = StatusWord(0x6F00)

    /// 9000.
    public var isSuccess: Bool { self == .success }
    /// 62xx and 63xx: processed, with a warning (data may still be present).
    public var isWarning: Bool { sw1 == 0x62 || sw1 == 0x63 }
    /// 6300 or 63Cx (x tries left): the chip verified a password and rejected it. Only these
    /// mean a wrong MRZ or CAN; a chip that refuses the command itself (6D00, 6985…) does not.
    public var isPasswordRejection: Bool { self == .verificationFailed || sw1 == 0x63 && sw2 & 0xF0 == 0xC0 }
    /// 6D00, 6E00 or 6A81: the chip does not run this command at all (a PACE-only chip asked for BAC).
    public var isUnsupportedCommand: Bool {
        self == .instructionNotSupported || self == .classNotSupported || self == StatusWord(0x6A81)
    }
    /// 61xx: more response bytes are waiting for GET RESPONSE; the count (00 means 256 or more).
    public var bytesRemaining: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }
    /// 6Cxx: wrong Le, the card names the exact length to ask for (00 means 256).
    public var exactLength: Int? { sw1 == 0x6C ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    /// Four hex digits and, when known, what they mean: `6982 (security status not satisfied)`.
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        let digits = String(repeating: "0", count: 4 - hex.count) + hex
        return meaning.map { "\(digits) (\($0))" } ?? digits
    }

    private var meaning: String? {
        if let bytesRemaining { return "\(bytesRemaining) bytes remaining" }
        if let exactLength { return "wrong Le, exact length \(exactLength)" }
        return Self.meanings[rawValue]
    }

    private static let meanings: [UInt16: String] = [
        0x9000: "success",
        0x6282: "end of file reached before Ne bytes",
        0x6283: "selected file invalidated",
        0x6300: "verification failed",
        0x6581: "memory failure",
        0x6700: "wrong length",
        0x6882: "secure messaging not supported",
        0x6982: "security status not satisfied",
        0x6983: "authentication method blocked",
        0x6984: "reference data not usable",
        0x6985: "conditions of use not satisfied",
        0x6986: "command not allowed",
        0x6987: "expected secure messaging data objects missing",
        0x6988: "secure messaging data objects incorrect",
        0x6A80: "incorrect data",
        0x6A82: "file not found",
        0x6A86: "incorrect parameters P1-P2",
        0x6A88: "referenced data not found",
        0x6B00: "wrong parameters P1-P2",
        0x6D00: "instruction not supported",
        0x6E00: "class not supported",
        0x6F00: "no precise diagnosis",
    ]
}
