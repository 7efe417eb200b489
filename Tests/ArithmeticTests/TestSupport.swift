@testable import Arithmetic

/// Bytes from a hex literal written in a test (spaces allowed); a malformed literal is a test bug and
/// yields an empty array, which every assertion using it then fails on.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    guard digits.count % 2 == 0 else { return [] }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return [] }
        bytes.append(byte)
    }
    return bytes
}

func big(_ hex: String) -> BigInt { BigInt(hex: hex) ?? BigInt(-1) }

/// A standardized curve; the table's entries exist, so a missing one is reported by the caller's #require.
func standardCurve(_ id: Int) -> EllipticCurve? { StandardDomainParameters.curve(id: id) }

/// The ids of the standardized curves (ICAO 9303-11: 8–18).
let standardCurveIDs = Array(8...18)
/// The ids of the standardized MODP groups (0–2).
let standardGroupIDs = [0, 1, 2]
