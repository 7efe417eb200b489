/// The C40 text encoding of ICAO Doc 9303-13 §2.4 (after ISO/IEC 16022): three characters of
/// the set space, 0–9, A–Z in two bytes, a lone last character as `FE` and its ASCII code + 1.
enum C40 {
    /// Decodes `bytes`; Shift 1 (value 0) pads the last triple and is dropped.
    static func decode(_ bytes: some Collection<UInt8>) throws(SealError) -> String {
        let bytes = Array(bytes)
        guard bytes.count % 2 == 0 else { throw SealError(.malformed, "C40 text of an odd length (\(bytes.count))") }
        var text = ""
        text.reserveCapacity(bytes.count / 2 * 3)
        for index in stride(from: 0, to: bytes.count, by: 2) {
            let (first, second) = (bytes[index], bytes[index + 1])
            if first == 0xFE {
                guard (1...128).contains(second) else {
                    throw SealError(.malformed, "C40 unlatched character \(second)")
                }
                text.unicodeScalars.append(Unicode.Scalar(second - 1))
                continue
            }
            let value = Int(first) << 8 + Int(second) - 1
            guard value >= 0, value < 64000 else { throw SealError(.malformed, "C40 triple value \(value)") }
            for code in [value / 1600, value / 40 % 40, value % 40] where code != 0 {
                text.unicodeScalars.append(try character(code))
            }
        }
        return text
    }

    private static func character(_ code: Int) throws(SealError) -> Unicode.Scalar {
        switch code {
        case 3: " "
        case 4...13: Unicode.Scalar(UInt8(code + 44))
        case 14...39: Unicode.Scalar(UInt8(code + 51))
        default: throw SealError(.malformed, "C40 code \(code) outside the basic set")
        }
    }
}
