import Foundation
import OpenSSLReference
import Testing

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

/// Signs `count` random digests of `digestLength` bytes with fresh OpenSSL keys on `reference`'s curve
/// and expects `curve` to accept each signature and to reject it with s + 1.
func expectVerifiesOpenSSLSignatures(
    on curve: EllipticCurve, reference: OpenSSLCurve, digestLength: Int, count: Int
) throws {
    for _ in 0..<count {
        let privateKey = try BigInt.random(below: curve.order, using: openSSLRandomSource)
        let publicKey = try #require(reference.multiply(nil, by: privateKey))
        let digest = openSSLRandomBytes(digestLength)
        let (r, s) = try #require(reference.sign(digest: digest, privateKey: privateKey))
        #expect(
            try ECDSA.verify(publicKey: publicKey, digest: digest, signature: ECDSASignature(r: r, s: s), curve: curve))
        #expect(
            !(try ECDSA.verify(
                publicKey: publicKey, digest: digest, signature: ECDSASignature(r: r, s: s + BigInt(1)), curve: curve)))
    }
}
