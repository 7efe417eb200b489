/// Upper-case hex, bytes separated by spaces: `00 A4 02 0C`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}

/// Bytes from hex digits; spaces and newlines between them are ignored. Nil on anything else or an
/// odd number of digits.
func bytes(fromHex text: String) -> [UInt8]? {
    let digits = text.filter { !$0.isWhitespace }
    guard digits.count.isMultiple(of: 2) else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
        result.append(byte)
        index = next
    }
    return result
}
