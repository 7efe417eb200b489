/// Caps on explicit domain parameters from a chip or a certificate, checked before anything costly
/// (a primality test, a scalar multiplication, a table) runs, so that hostile sizes fail fast with
/// `domainParametersTooLarge` instead of burning seconds.
///
/// The bounds: ICAO 9303-11's largest standardized curve is P-521 (also the largest curve in the
/// CSCA master lists), its DH groups are 1024 and 2048 bits; 4096 leaves room for a stronger
/// group without letting a 20000-bit "prime" through. For a curve, Hasse bounds n·h by p + 1 + 2√p,
/// so the order has at most one bit more than p; cofactors in use are 1 (and a few small ones).
public enum DomainParameterLimits {
    /// Bits of the largest curve field p.
    public static let maximumCurveFieldBits = 521
    /// Bits of the largest cofactor h.
    public static let maximumCofactorBits = 16
    /// Bits of the largest DH modulus p.
    public static let maximumGroupModulusBits = 4096

    /// Checks the sizes of a curve's p, n and h.
    /// - Throws: `domainParametersTooLarge` naming the value and its size.
    static func checkCurve(fieldBits: Int, orderBits: Int, cofactorBits: Int) throws(ArithmeticError) {
        guard fieldBits <= maximumCurveFieldBits else {
            throw ArithmeticError(
                .domainParametersTooLarge, "a curve over a \(fieldBits)-bit field (at most \(maximumCurveFieldBits))")
        }
        guard orderBits <= fieldBits + 1 else {
            throw ArithmeticError(
                .domainParametersTooLarge, "a \(orderBits)-bit order on a \(fieldBits)-bit field (at most one bit more)"
            )
        }
        guard cofactorBits <= maximumCofactorBits else {
            throw ArithmeticError(
                .domainParametersTooLarge, "a \(cofactorBits)-bit cofactor (at most \(maximumCofactorBits))")
        }
    }

    /// Checks the sizes of a DH group's p, g and q.
    /// - Throws: `domainParametersTooLarge` naming the value and its size.
    static func checkGroup(modulusBits: Int, generatorBits: Int, orderBits: Int?) throws(ArithmeticError) {
        guard modulusBits <= maximumGroupModulusBits else {
            throw ArithmeticError(
                .domainParametersTooLarge,
                "a DH group with a \(modulusBits)-bit modulus (at most \(maximumGroupModulusBits))")
        }
        guard generatorBits <= modulusBits, (orderBits ?? 0) <= modulusBits else {
            throw ArithmeticError(.domainParametersTooLarge, "a DH generator or order longer than the modulus")
        }
    }

    /// Bits of a big-endian unsigned integer, without building it.
    static func bitLength(_ bytes: some Collection<UInt8>) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.distance(from: first, to: bytes.endIndex) - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }
}
