/// Bytes from hex written in a test (spaces allowed); malformed hex stops the test.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count.isMultiple(of: 2), "odd number of hex digits in \(text)")
    return stride(from: 0, to: digits.count, by: 2).map { index in
        guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else {
            preconditionFailure("malformed hex in \(text)")
        }
        return byte
    }
}
