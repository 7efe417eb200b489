import JSON

/// The key agreement of PACE or Chip Authentication: over a prime-order subgroup of Z_p* or over
/// an elliptic curve.
public enum KeyAgreement: String, Sendable, Hashable, CaseIterable, JSONEnum {
    /// Diffie-Hellman in a MODP group.
    case dh
    /// Elliptic-curve Diffie-Hellman on a short-Weierstrass prime curve.
    case ecdh

    /// As the protocol OIDs spell it: `DH`, `ECDH`.
    public var abbreviation: String { rawValue.uppercased() }
}
