/// The secure messaging data objects of ICAO 9303-11 §9.8 (ISO/IEC 7816-4 §10).
enum SecureMessagingTag {
    /// Cryptogram without padding-content indicator (odd INS).
    static let oddInstructionCryptogram: UInt8 = 0x85
    /// Padding-content indicator `01` followed by the cryptogram (even INS).
    static let cryptogram: UInt8 = 0x87
    /// Protected Le.
    static let expectedLength: UInt8 = 0x97
    /// Protected status word.
    static let processingStatus: UInt8 = 0x99
    /// Cryptographic checksum (MAC).
    static let checksum: UInt8 = 0x8E

    /// The padding-content indicator of DO'87': ISO/IEC 7816-4 padding.
    static let paddingIndicator: UInt8 = 0x01
}

/// `tag`, a DER length and `value`.
func encodeDataObject(tag: UInt8, value: [UInt8]) -> [UInt8] {
    let length = value.count
    let lengthBytes: [UInt8]
    switch length {
    case ..<0x80: lengthBytes = [UInt8(length)]
    case ..<0x100: lengthBytes = [0x81, UInt8(length)]
    default: lengthBytes = [0x82, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }
    return [tag] + lengthBytes + value
}

/// One data object found in a protected message, with where it sits.
struct ParsedDataObject {
    let tag: UInt8
    let value: ArraySlice<UInt8>
    /// The whole object (tag, length and value), as received.
    let encoded: ArraySlice<UInt8>
}

/// Splits `bytes` into single-byte-tag data objects with short or long
/// (`81`/`82`) lengths, refusing anything truncated or longer than the input.
/// SM data objects never use multi-byte tags or longer lengths.
func parseDataObjects(_ bytes: [UInt8]) -> [ParsedDataObject]? {
    var objects: [ParsedDataObject] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
        let start = index
        let tag = bytes[index]
        index += 1
        guard index < bytes.endIndex else { return nil }
        var length = Int(bytes[index])
        index += 1
        if length >= 0x80 {
            let lengthOfLength = length & 0x7F
            guard (1...2).contains(lengthOfLength), bytes.endIndex - index >= lengthOfLength else { return nil }
            length = 0
            for _ in 0..<lengthOfLength {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard bytes.endIndex - index >= length else { return nil }
        objects.append(
            ParsedDataObject(tag: tag, value: bytes[index..<(index + length)], encoded: bytes[start..<(index + length)])
        )
        index += length
    }
    return objects
}
