/// Bytes from a hex literal written in a test, as published vectors print them (spaces
/// allowed). A malformed literal is a bug in the test, so it stops the test run.
public func hex(_ literal: String) -> [UInt8] {
    guard let bytes = bytes(hex: literal) else { preconditionFailure("malformed hex literal \(literal)") }
    return bytes
}

/// Bytes from hex that came from elsewhere (a tool's output), upper or lower case, spaces
/// allowed; nil when it is not hex.
public func bytes(hex text: String) -> [UInt8]? {
    let digits = Array(text.filter { !$0.isWhitespace })
    guard digits.count.isMultiple(of: 2) else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
        result.append(byte)
    }
    return result
}
