/// Hex literals in tests, written as the published vectors print them (spaces allowed).
func hex(_ string: String) -> [UInt8] {
    let digits = string.filter { !$0.isWhitespace }.map { UInt8(String($0), radix: 16)! }
    precondition(digits.count % 2 == 0, "odd hex literal")
    return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
}
