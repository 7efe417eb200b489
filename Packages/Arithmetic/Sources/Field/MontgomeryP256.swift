/// Montgomery arithmetic modulo P-256's p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (R = 2^256). The prime's
/// special form makes -1/p ≡ 1 mod 2^64, so each reduction row's multiplier is the low limb itself,
/// and m·p is shifts and additions: m·(2^64 - 1), m·(2^32 - 1), 0, m·(2^64 - 2^32 + 1). Same
/// representation as the generic kernels and GMP's path; only the reduction is cheaper.
enum MontgomeryP256 {
    static func isModulus(_ p: BigInt) -> Bool {
        p == BigInt(hex: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF")
    }

    /// r = a·b/R mod p. `t` is scratch of 8 limbs; r may alias a or b.
    @inline(__always)
    static func multiply(
        _ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, p: UnsafePointer<Limb>, t: Limbs
    ) {
        FixedSizeMontgomery<FourLimbs>.product(t, a, b)
        reduce(r, t, p: p)
    }

    /// r = a²/R mod p. `t` is scratch of 8 limbs.
    @inline(__always)
    static func square(_ r: Limbs, _ a: UnsafePointer<Limb>, p: UnsafePointer<Limb>, t: Limbs) {
        FixedSizeMontgomery<FourLimbs>.squareProduct(t, a)
        reduce(r, t, p: p)
    }

    /// r = t/R mod p for t < p·R, four reduction rows without multiplications.
    @inline(__always)
    private static func reduce(_ r: Limbs, _ t: Limbs, p: UnsafePointer<Limb>) {
        var extra: UInt128 = 0
        for i in 0..<4 {
            let m = UInt128(t[i])
            // Row i adds m·p at limb i: limb i becomes 0 with carry m.
            var sum = UInt128(t[i + 1]) &+ (m << 32)
            t[i + 1] = Limb(truncatingIfNeeded: sum)
            sum = UInt128(t[i + 2]) &+ (sum >> 64)
            t[i + 2] = Limb(truncatingIfNeeded: sum)
            sum = UInt128(t[i + 3]) &+ (m << 64) &- (m << 32) &+ m &+ (sum >> 64)
            t[i + 3] = Limb(truncatingIfNeeded: sum)
            sum = UInt128(t[i + 4]) &+ (sum >> 64) &+ extra
            t[i + 4] = Limb(truncatingIfNeeded: sum)
            extra = sum >> 64
        }
        FixedSizeMontgomery<FourLimbs>.subtractModulusIfNeeded(r, t + 4, carry: Limb(truncatingIfNeeded: extra), p: p)
    }
}
