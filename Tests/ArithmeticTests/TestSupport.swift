import Foundation

@testable import Arithmetic

func big(_ hex: String) -> BigInt { BigInt(hex: hex) ?? BigInt(-1) }

/// A standardized curve; the table's entries exist, so a missing one is reported by the caller's #require.
func standardCurve(_ id: Int) -> EllipticCurve? { StandardDomainParameters.curve(id: id) }

/// The ids of the standardized curves (ICAO 9303-11: 8–18).
let standardCurveIDs = Array(8...18)
/// The ids of the standardized MODP groups (0–2).
let standardGroupIDs = [0, 1, 2]

/// How many random cases a differential test runs per parameter set: small by default so that debug
/// `swift test` stays fast; ARITHMETIC_DIFFERENTIAL_CASES raises it for long runs (release builds).
func differentialCases(default value: Int) -> Int {
    if let text = ProcessInfo.processInfo.environment["ARITHMETIC_DIFFERENTIAL_CASES"], let count = Int(text), count > 0
    {
        return count
    }
    return value
}
