// The mathematics of the PACE mappings (ICAO Doc 9303-11 section 4.4.3.3). The protocol around them
// (nonce encryption, the pseudo-random function R(s, t), APDUs) belongs to AccessControl.

extension EllipticCurve {
    /// Generic Mapping: G' = s·G + H, with s the decrypted nonce and H the shared point of the mapping
    /// key agreement (`sharedPoint`).
    /// - Throws: `invalidPoint` if H is not a valid point or G' is infinity.
    public func genericMapping(nonce: BigInt, sharedPoint: ECPoint) throws -> ECPoint {
        try validate(sharedPoint)
        let mapped = add(try multiplyGenerator(by: nonce), sharedPoint)
        guard mapped != .infinity else { throw ArithmeticError(.invalidPoint, "the mapped generator is infinity") }
        return mapped
    }

    /// Integrated Mapping: the point encoding f_G of ICAO 9303-11 Appendix B (a simplified SWU map,
    /// curves with p ≡ 3 mod 4) applied to t = R_p(s, t) (the pseudo-random function's output, taken
    /// mod p), times the cofactor.
    /// - Throws: `invalidDomainParameters` when p ≢ 3 mod 4 or a = 0; `noResult` for the
    ///   negligible inputs where the map is undefined.
    public func integratedMapping(pseudoRandom: [UInt8]) throws -> ECPoint {
        guard p.modulo(4) == BigInt(3), !a.isZero else {
            throw ArithmeticError(.invalidDomainParameters, "the point encoding needs p ≡ 3 mod 4 and a ≠ 0")
        }
        let t = BigInt(bytes: pseudoRandom).modulo(p)
        guard !t.isZero else { throw ArithmeticError(.noResult, "t = 0 has no encoding") }
        let one = BigInt(1)
        // 1. α = -t² mod p
        let alpha = (-(t * t)).modulo(p)
        // 2. X2 = -b·a⁻¹·(1 + (α + α²)⁻¹) mod p
        guard let aInverse = a.inverse(modulo: p), let sumInverse = (alpha + alpha * alpha).inverse(modulo: p) else {
            throw ArithmeticError(.noResult, "α + α² = 0: t has no encoding")
        }
        let x2 = (-b * aInverse * (one + sumInverse)).modulo(p)
        // 3. X3 = α·X2 mod p
        let x3 = (alpha * x2).modulo(p)
        // 4, 5. h2 = X2³ + a·X2 + b, h3 = X3³ + a·X3 + b
        let h2 = (x2 * x2 * x2 + a * x2 + b).modulo(p)
        // 6. U = t³·h2 mod p
        let u = (t * t * t * h2).modulo(p)
        // 7. A = h2^(p - 1 - (p + 1)/4) mod p
        let exponent = p - one - ((p + one) >> 2)
        let aValue = try h2.powerSecret(exponent, modulo: p)
        // 8, 9. (X2, A·h2) if A²·h2 = 1, else (X3, A·U)
        let point: ECPoint
        if (aValue * aValue * h2).modulo(p) == one {
            point = .affine(x: x2, y: (aValue * h2).modulo(p))
        } else {
            point = .affine(x: x3, y: (aValue * u).modulo(p))
        }
        guard isOnCurve(point) else { throw ArithmeticError(.noResult, "the encoding left the curve") }
        let mapped = cofactor == one ? point : multiply(point, by: cofactor)
        guard mapped != .infinity else { throw ArithmeticError(.noResult, "the mapped generator is infinity") }
        return mapped
    }
}

extension DHGroup {
    /// Generic Mapping: g' = g^s·h mod p, with s the decrypted nonce and h the shared secret of the
    /// mapping key agreement (as an integer).
    /// - Throws: `invalidPublicValue` if h is not in the group, `noResult` if g' = 1.
    public func genericMapping(nonce: BigInt, sharedSecret: BigInt) throws -> BigInt {
        try validatePublicValue(sharedSecret)
        let mapped = (try generatorPower(nonce) * sharedSecret).modulo(p)
        guard mapped != BigInt(1) else { throw ArithmeticError(.noResult, "the mapped generator is 1") }
        return mapped
    }

    /// Integrated Mapping: g' = R_p(s, t)^((p-1)/q) mod p, the pseudo-random output taken mod p.
    /// - Throws: `noResult` when the group has no q or g' = 1 (the map hit a low-order element).
    public func integratedMapping(pseudoRandom: [UInt8]) throws -> BigInt {
        guard let q = subgroupOrder else {
            throw ArithmeticError(.invalidDomainParameters, "Integrated Mapping needs the subgroup order q")
        }
        let r = BigInt(bytes: pseudoRandom).modulo(p)
        guard r > BigInt(1) else { throw ArithmeticError(.noResult, "R_p(s, t) ≤ 1 has no image") }
        let mapped = try powerSecret(r, (p - BigInt(1)) / q)
        guard mapped != BigInt(1) else { throw ArithmeticError(.noResult, "the mapped generator is 1") }
        return mapped
    }
}
