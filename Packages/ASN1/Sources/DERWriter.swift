import Foundation

/// Building DER (and BER with definite lengths) for tests, the chip simulator and the
/// few places the reader must encode (signed attributes, command data objects).
///
/// Each function returns a complete TLV; compose them by nesting:
/// `DER.sequence([DER.objectIdentifier(oid), DER.integer(1)])`.
public enum DER {
    /// The definite length octets for `length` (short form below 128, else minimal long form).
    public static func length(_ length: Int) -> [UInt8] {
        precondition(length >= 0, "negative length")
        if length < 0x80 { return [UInt8(length)] }
        var bytes: [UInt8] = []
        var rest = length
        while rest != 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// A TLV with `content` under `tag`.
    public static func tlv(_ tag: ASN1Tag, _ content: some Collection<UInt8>) -> [UInt8] {
        tag.encoded + length(content.count) + content
    }

    /// A constructed TLV holding `elements` in the order given.
    public static func constructed(_ tag: ASN1Tag, _ elements: [[UInt8]]) -> [UInt8] {
        tlv(tag, elements.joined())
    }

    public static func sequence(_ elements: [[UInt8]]) -> [UInt8] { constructed(.sequence, elements) }

    /// A SET OF with its elements sorted by their encodings, as DER requires (X.690 §11.6).
    public static func set(_ elements: [[UInt8]]) -> [UInt8] {
        constructed(.set, elements.sorted { $0.lexicographicallyPrecedes($1) })
    }

    public static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = withUnsafeBytes(of: value.bigEndian, Array.init)
        while bytes.count > 1 && ((bytes[0] == 0 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0))
        {
            bytes.removeFirst()
        }
        return tlv(.integer, bytes)
    }

    /// A non-negative INTEGER from its big-endian magnitude (leading zeros trimmed, a zero
    /// byte added where the top bit is set).
    public static func unsignedInteger(_ magnitude: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(.integer, bytes)
    }

    /// A non-negative number in the fewest big-endian bytes (at least one): the content of the
    /// data objects that carry an ID or reference, such as MSE:Set AT's DO'84'. A negative number
    /// (a key ID some chips write in DG14 as a negative INTEGER) gives its fewest two's-complement
    /// bytes, the INTEGER's own content, which such a chip takes as the reference.
    public static func minimalUnsignedBytes(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while value >= 0 ? rest != 0 : (rest != -1 || bytes[0] & 0x80 == 0)
        return bytes
    }

    public static func boolean(_ value: Bool) -> [UInt8] { tlv(.boolean, [value ? 0xFF : 0x00]) }
    public static func null() -> [UInt8] { tlv(.null, []) }
    public static func octetString(_ bytes: some Collection<UInt8>) -> [UInt8] { tlv(.octetString, bytes) }

    public static func bitString(_ bytes: some Collection<UInt8>, unusedBits: Int = 0) -> [UInt8] {
        precondition((0..<8).contains(unusedBits), "unused bits out of range")
        return tlv(.bitString, [UInt8(unusedBits)] + bytes)
    }

    public static func objectIdentifier(_ oid: ASN1ObjectIdentifier) -> [UInt8] { tlv(.objectIdentifier, oid.content) }

    public static func utf8String(_ text: String) -> [UInt8] { tlv(.utf8String, Array(text.utf8)) }
    public static func printableString(_ text: String) -> [UInt8] { tlv(.printableString, Array(text.utf8)) }

    /// UTCTime for 1950–2049, else GeneralizedTime, as RFC 5280 prescribes.
    public static func time(_ date: Date) -> [UInt8] {
        let year = UTCDateTime(date).year
        return (1950..<2050).contains(year) ? utcTime(date) : generalizedTime(date)
    }

    public static func utcTime(_ date: Date) -> [UInt8] {
        tlv(.utcTime, Array(timeText(date, yearDigits: 2).utf8))
    }

    public static func generalizedTime(_ date: Date) -> [UInt8] {
        tlv(.generalizedTime, Array(timeText(date, yearDigits: 4).utf8))
    }

    private static func timeText(_ date: Date, yearDigits: Int) -> String {
        let parts = UTCDateTime(date)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let yearText = yearDigits == 2 ? two(parts.year % 100) : String(parts.year)
        return yearText + [parts.month, parts.day, parts.hour, parts.minute, parts.second].map(two).joined() + "Z"
    }
}
