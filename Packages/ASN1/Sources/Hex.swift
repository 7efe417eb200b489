/// Bytes as hexadecimal text and back: APDU logs, certificate identifiers and fingerprints in JSON,
/// ATRs, and the vectors tests are written from. The one hex codec of the tree.
public enum Hex {
    /// Two digits a byte, upper case unless asked otherwise, bytes joined by `separator`
    /// (`"00 A4 02 0C"` with a space).
    public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = true, separator: String = "")
        -> String
    {
        let digits = uppercase ? upperDigits : lowerDigits
        var text = ""
        for byte in bytes {
            if !text.isEmpty { text += separator }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// Bytes from hex digits (either case); whitespace between them is ignored. Nil on any other
    /// character or an odd number of digits.
    public static func decode(_ text: String) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for unit in text.utf8 {
            let value: UInt8
            switch unit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = unit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = unit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = unit - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
            default: return nil
            }
            if let first = high {
                result.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return high == nil ? result : nil
    }

    private static let upperDigits = Array("0123456789ABCDEF")
    private static let lowerDigits = Array("0123456789abcdef")
}
