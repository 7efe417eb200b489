import Secrets

extension EllipticCurve {
    /// An ephemeral key pair on `generator` (the curve's own by default, or a PACE mapped generator):
    /// a private key uniform in [1, n) and its public point, computed on the regular path.
    public func generateKeyPair(
        generator base: ECPoint? = nil, random: RandomSource = .system
    ) throws -> (privateKey: BigInt, publicKey: ECPoint) {
        let privateKey = try BigInt.random(below: order, using: random)
        return (privateKey, try publicKey(for: privateKey, generator: base))
    }

    /// The public point of a private key on `generator` (default: the curve's generator).
    public func publicKey(for privateKey: BigInt, generator base: ECPoint? = nil) throws -> ECPoint {
        try multiplySecret(base ?? generator, by: privateKey)
    }

    /// ECDH (TR-03111 ECKA-DH without cofactor, as ICAO 9303-11 uses it): the x-coordinate of
    /// privateKey·Q, exactly `coordinateLength` bytes. The peer's point is validated first.
    /// - Throws: `invalidPoint` for a bad peer point or an infinite product.
    public func sharedSecret(privateKey: BigInt, peerPublicKey: ECPoint) throws -> [UInt8] {
        try validate(peerPublicKey)
        guard case .affine(let x, _) = try multiplySecret(peerPublicKey, by: privateKey) else {
            throw ArithmeticError(.invalidPoint, "the shared point is infinity")
        }
        return try x.bytes(length: coordinateLength)
    }

    /// The shared point privateKey·Q itself (PACE Generic Mapping needs H as a point).
    public func sharedPoint(privateKey: BigInt, peerPublicKey: ECPoint) throws -> ECPoint {
        try validate(peerPublicKey)
        let point = try multiplySecret(peerPublicKey, by: privateKey)
        guard point != .infinity else { throw ArithmeticError(.invalidPoint, "the shared point is infinity") }
        return point
    }
}
