@testable import Arithmetic

func big(_ hex: String) -> BigInt { BigInt(hex: hex) ?? BigInt(-1) }

/// A standardized curve; the table's entries exist, so a missing one is reported by the caller's #require.
func standardCurve(_ id: Int) -> EllipticCurve? { StandardDomainParameters.curve(id: id) }

/// The ids of the standardized curves (ICAO 9303-11: 8–18).
let standardCurveIDs = Array(8...18)
/// The ids of the standardized MODP groups (0–2).
let standardGroupIDs = [0, 1, 2]
