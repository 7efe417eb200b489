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

    /// r = a^(p-2) = a^-1 (0 for 0) by a fixed addition chain: 2^521 - 3 is 519 ones, then 01. Builds
    /// aᵏ for k = 2^j - 1 by doubling j, 524 squarings and 13 multiplications where plain
    /// square-and-multiply takes 520 and 519; the schedule is public, so it is regular for secrets.
    /// `modulus` holds p (the reduction's final subtraction reads it).
    static func invert(_ r: Limbs, _ a: UnsafePointer<Limb>, modulus: Limbs) {
        // Five elements, then the 18-limb product scratch.
        withUnsafeTemporaryAllocation(of: Limb.self, capacity: 7 * limbCount) { buffer in
            guard let base = buffer.baseAddress else { return }
            let n = limbCount
            let (e2, e3, e4, e7, t, s) = (base, base + n, base + 2 * n, base + 3 * n, base + 4 * n, base + 5 * n)
            let p = UnsafePointer(modulus)
            func multiply(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>) {
                MersenneP521.multiply(r, a, b, p: p, t: s)
            }
            func squares(_ r: Limbs, _ a: UnsafePointer<Limb>, _ count: Int) {
                square(r, a, p: p, t: s)
                for _ in 1..<count { square(r, r, p: p, t: s) }
            }
            squares(e2, a, 1)
            multiply(e2, e2, a)  // 2^2 - 1
            squares(e3, e2, 1)
            multiply(e3, e3, a)  // 2^3 - 1
            squares(e4, e2, 2)
            multiply(e4, e4, e2)  // 2^4 - 1
            squares(e7, e4, 3)
            multiply(e7, e7, e3)  // 2^7 - 1
            squares(t, e4, 4)
            multiply(t, t, e4)  // 2^8 - 1
            var ones = 8
            while ones < 512 {
                squares(e2, t, ones)
                multiply(t, e2, t)
                ones *= 2
            }
            squares(t, t, 7)
            multiply(t, t, e7)  // 2^519 - 1
            squares(t, t, 2)
            multiply(r, t, a)  // 2^521 - 3
            buffer.update(repeating: 0)
        }
    }
}
