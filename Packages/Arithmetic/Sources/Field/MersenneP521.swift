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
        let n = limbCount
        for index in 0..<(2 * n) { t[index] = 0 }
        for i in 0..<n {
            let bi = UInt128(b[i])
            var carry: UInt128 = 0
            for j in 0..<n {
                let sum = UInt128(a[j]) &* bi &+ UInt128(t[i + j]) &+ carry
                t[i + j] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            t[i + n] = Limb(truncatingIfNeeded: carry)
        }
        reduce(r, t, p: p)
    }

    /// r = a² mod p: cross products once, doubled, plus the diagonal. `t` is scratch of 18 limbs.
    @inline(__always)
    static func square(_ r: Limbs, _ a: UnsafePointer<Limb>, p: UnsafePointer<Limb>, t: Limbs) {
        let n = limbCount
        for index in 0..<(2 * n) { t[index] = 0 }
        for i in 0..<(n - 1) {
            let ai = UInt128(a[i])
            var carry: UInt128 = 0
            for j in (i + 1)..<n {
                let sum = ai &* UInt128(a[j]) &+ UInt128(t[i + j]) &+ carry
                t[i + j] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            t[i + n] = Limb(truncatingIfNeeded: carry)
        }
        var shifted: Limb = 0
        for index in 0..<(2 * n) {
            let limb = t[index]
            t[index] = (limb << 1) | shifted
            shifted = limb >> 63
        }
        var carry: UInt128 = 0
        for i in 0..<n {
            let low = UInt128(a[i]) &* UInt128(a[i]) &+ UInt128(t[2 * i]) &+ carry
            t[2 * i] = Limb(truncatingIfNeeded: low)
            let high = UInt128(t[2 * i + 1]) &+ (low >> 64)
            t[2 * i + 1] = Limb(truncatingIfNeeded: high)
            carry = high >> 64
        }
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
