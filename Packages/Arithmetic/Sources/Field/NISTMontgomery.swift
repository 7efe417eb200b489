/// Montgomery arithmetic (R = 2^256) modulo the four-limb NIST primes, whose special form turns each
/// reduction row's m·p into shifts and additions, with m read off the low limb:
/// - P-256, p = 2^256 - 2^224 + 2^192 + 2^96 - 1: -1/p ≡ 1 mod 2^64, so m = t[i];
///   m·p limbs: m·(2^64 - 1), m·(2^32 - 1), 0, m·(2^64 - 2^32 + 1).
/// - P-224, p = 2^224 - 2^96 + 1: -1/p ≡ -1 mod 2^64, so m = -t[i];
///   m·p limbs: m, m·(2^64 - 2^32), m·(2^64 - 1), m·(2^32 - 1).
/// Same representation as the generic kernels and GMP's path; only the reduction is cheaper.
enum NISTMontgomery {
    enum Prime {
        case p224
        case p256
    }

    static func prime(for p: BigInt) -> Prime? {
        if p == BigInt(hex: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF") { return .p256 }
        if p == BigInt(hex: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF000000000000000000000001") { return .p224 }
        return nil
    }

    /// r = a·b/R mod p. `t` is scratch of 8 limbs; r may alias a or b.
    @inline(__always)
    static func multiply(
        _ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, p: UnsafePointer<Limb>, prime: Prime, t: Limbs
    ) {
        FixedSizeMontgomery<FourLimbs>.product(t, a, b)
        reduce(r, t, p: p, prime: prime)
    }

    /// r = a²/R mod p. `t` is scratch of 8 limbs.
    @inline(__always)
    static func square(_ r: Limbs, _ a: UnsafePointer<Limb>, p: UnsafePointer<Limb>, prime: Prime, t: Limbs) {
        FixedSizeMontgomery<FourLimbs>.squareProduct(t, a)
        reduce(r, t, p: p, prime: prime)
    }

    /// r = t/R mod p for t < p·R: four reduction rows without multiplications (one loop per prime, so
    /// that each is unrolled on its own).
    @inline(__always)
    private static func reduce(_ r: Limbs, _ t: Limbs, p: UnsafePointer<Limb>, prime: Prime) {
        var extra: UInt128 = 0
        switch prime {
        case .p256:
            for i in 0..<4 {
                let m = UInt128(t[i])
                // Limb i: t[i] + m·(2^64 - 1) = m·2^64, carry m, which merges into limb i + 1.
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
        case .p224:
            for i in 0..<4 {
                let m = UInt128(0 &- t[i])
                var sum = (UInt128(t[i]) &+ m) >> 64
                sum = UInt128(t[i + 1]) &+ (m << 64) &- (m << 32) &+ sum
                t[i + 1] = Limb(truncatingIfNeeded: sum)
                sum = UInt128(t[i + 2]) &+ (m << 64) &- m &+ (sum >> 64)
                t[i + 2] = Limb(truncatingIfNeeded: sum)
                sum = UInt128(t[i + 3]) &+ (m << 32) &- m &+ (sum >> 64)
                t[i + 3] = Limb(truncatingIfNeeded: sum)
                sum = UInt128(t[i + 4]) &+ (sum >> 64) &+ extra
                t[i + 4] = Limb(truncatingIfNeeded: sum)
                extra = sum >> 64
            }
        }
        FixedSizeMontgomery<FourLimbs>.subtractModulusIfNeeded(r, t + 4, carry: Limb(truncatingIfNeeded: extra), p: p)
    }
}
