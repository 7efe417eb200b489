/// Multiplication modulo the Mersenne prime p = 2^521 - 1 of P-521 in plain representation (no
/// Montgomery factor): the 18-limb product folds onto itself, since 2^521 ≡ 1, at the cost of a few
/// shifts and one addition instead of the 81 multiplications of a Montgomery reduction.
enum MersenneP521 {
    static let limbCount = 9
    private static let topMask: Limb = 0x1FF

    static func isModulus(_ p: BigInt) -> Bool { p == (BigInt(1) << 521) - BigInt(1) }

    /// r = a·b mod p. `t` is scratch of 18 limbs; r may alias a or b.
    @inline(__always)
    static func multiply(
        _ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, p: UnsafePointer<Limb>, t: Limbs
    ) {
        FixedSizeMontgomery<NineLimbs>.product(t, a, b)
        reduce(r, t, p: p)
    }

    /// r = a² mod p. `t` is scratch of 18 limbs.
    @inline(__always)
    static func square(_ r: Limbs, _ a: UnsafePointer<Limb>, p: UnsafePointer<Limb>, t: Limbs) {
        FixedSizeMontgomery<NineLimbs>.squareProduct(t, a)
        reduce(r, t, p: p)
    }

    /// r = t mod p for t < p²: (t mod 2^521) + (t >> 521), folded once more, then one masked subtraction.
    @inline(__always)
    private static func reduce(_ r: Limbs, _ t: Limbs, p: UnsafePointer<Limb>) {
        let n = limbCount
        var carry: UInt128 = 0
        for k in 0..<n {
            let high = (t[n - 1 + k] >> 9) | (t[n + k] << 55)
            let low = k == n - 1 ? t[k] & topMask : t[k]
            let sum = UInt128(low) &+ UInt128(high) &+ carry
            t[k] = Limb(truncatingIfNeeded: sum)
            carry = sum >> 64
        }
        // t < 2^522: fold bit 521 back in.
        var fold = UInt128(t[n - 1] >> 9)
        t[n - 1] &= topMask
        for k in 0..<n {
            let sum = UInt128(t[k]) &+ fold
            t[k] = Limb(truncatingIfNeeded: sum)
            fold = sum >> 64
        }
        FixedSizeMontgomery<NineLimbs>.subtractModulusIfNeeded(r, t, carry: 0, p: p)
    }
}
