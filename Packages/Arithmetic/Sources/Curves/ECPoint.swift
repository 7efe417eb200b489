/// A point of a short-Weierstrass curve in affine coordinates, or the point at infinity.
/// A point does not know its curve: the curve's methods take points and check them where they come
/// from outside (`EllipticCurve.decodePoint`, `EllipticCurve.validate`).
public enum ECPoint: Sendable, Hashable {
    case infinity
    case affine(x: BigInt, y: BigInt)

    public var isInfinity: Bool { self == .infinity }

    public var x: BigInt? {
        if case .affine(let x, _) = self { return x }
        return nil
    }

    public var y: BigInt? {
        if case .affine(_, let y) = self { return y }
        return nil
    }
}
