import CGMP

typealias Limb = mp_limb_t
typealias Limbs = UnsafeMutablePointer<Limb>

/// Arithmetic modulo an odd prime on GMP's `mpn` layer, with elements in Montgomery form
/// (a·R mod p, R = 2^(64·limbCount)) stored as `limbCount` limbs, least significant first.
///
/// Every operation is regular: the same GMP calls whatever the values (multiplication, Montgomery
/// reduction, then a subtraction whose result is kept or not by a masked swap), so the secret-scalar
/// paths built on it branch on nothing secret. Temporaries come from a caller-owned scratch area
/// (`scratchLimbs` limbs), so hot loops allocate nothing.
final class MontgomeryField: @unchecked Sendable {
    let modulus: BigInt
    let limbCount: Int
    let byteLength: Int
    /// p, least significant limb first.
    let p: Limbs
    /// -1/p mod 2^64, for Montgomery reduction.
    let negativeInverse: Limb
    /// R^2 mod p: multiplying by it enters Montgomery form.
    let rSquared: Limbs
    /// R mod p: the field's one in Montgomery form.
    let one: Limbs
    /// p - 2, the Fermat inversion exponent.
    let inversionExponent: BigInt

    /// The limb count whose `FixedSizeMontgomery` kernels serve this field, or 0 for GMP's `mpn` calls.
    let kernelLimbs: Int
    /// P-521's field with the Swift kernels: plain representation (R = 1) and `MersenneP521` products.
    let isPlainP521: Bool
    /// P-224's or P-256's field with the Swift kernels: `NISTMontgomery`'s multiplication-free reduction.
    let nistPrime: NISTMontgomery.Prime?

    /// Whether fields use the Swift kernels by default: in optimised builds, where they are fastest for
    /// curve-sized fields. Debug builds (unspecialised generics, very slow) use GMP, and the tests check
    /// the kernels against it directly.
    static let swiftKernelsByDefault: Bool = {
        #if DEBUG
            return false
        #else
            return true
        #endif
    }()

    /// Scratch needed by one field operation: a 2n-limb product and an n-limb difference.
    var scratchLimbs: Int { 3 * limbCount }

    init(modulus: BigInt, swiftKernels: Bool = MontgomeryField.swiftKernelsByDefault) {
        precondition(modulus.isOdd && modulus > BigInt(3), "a Montgomery field needs an odd modulus")
        self.modulus = modulus
        limbCount = (modulus.bitWidth + 63) / 64
        kernelLimbs = swiftKernels && (3...9).contains(limbCount) ? limbCount : 0
        isPlainP521 = kernelLimbs == MersenneP521.limbCount && MersenneP521.isModulus(modulus)
        nistPrime = kernelLimbs == 4 ? NISTMontgomery.prime(for: modulus) : nil
        byteLength = modulus.byteCount
        p = .allocate(capacity: limbCount)
        rSquared = .allocate(capacity: limbCount)
        one = .allocate(capacity: limbCount)
        MontgomeryField.store(modulus, into: p, limbCount: limbCount)
        let r = isPlainP521 ? BigInt(1) : BigInt(1) << (64 * limbCount)
        MontgomeryField.store(r.modulo(modulus), into: one, limbCount: limbCount)
        MontgomeryField.store((r * r).modulo(modulus), into: rSquared, limbCount: limbCount)
        // Newton iteration for p0^-1 mod 2^64: each step doubles the number of correct bits.
        let p0 = p[0]
        var inverse: Limb = p0
        for _ in 0..<6 { inverse = inverse &* (2 &- p0 &* inverse) }
        negativeInverse = 0 &- inverse
        inversionExponent = modulus - BigInt(2)
    }

    deinit {
        p.deallocate()
        rSquared.deallocate()
        one.deallocate()
    }

    // MARK: Conversions (not in hot loops)

    /// Writes the non-negative `value` (< 2^(64·limbCount)) as limbs.
    static func store(_ value: BigInt, into limbs: Limbs, limbCount: Int) {
        limbs.update(repeating: 0, count: limbCount)
        value.withMPZ { z in
            var written = 0
            __gmpz_export(limbs, &written, -1, MemoryLayout<Limb>.size, 0, 0, z)
        }
    }

    static func bigInt(from limbs: UnsafePointer<Limb>, limbCount: Int) -> BigInt {
        BigInt.computing { z in __gmpz_import(z, limbCount, -1, MemoryLayout<Limb>.size, 0, 0, limbs) }
    }

    /// Enters Montgomery form: r = value·R mod p, for 0 ≤ value < p.
    func load(_ value: BigInt, into r: Limbs, scratch: Limbs) {
        MontgomeryField.store(value, into: r, limbCount: limbCount)
        multiply(r, r, rSquared, scratch: scratch)
    }

    /// Leaves Montgomery form (`scratch` needs `scratchLimbs + limbCount` limbs).
    func value(of a: UnsafePointer<Limb>, scratch: Limbs) -> BigInt {
        let r = scratch + scratchLimbs
        fromMontgomery(r, a, scratch: scratch)
        return MontgomeryField.bigInt(from: r, limbCount: limbCount)
    }

    /// r = a/R mod p (r must lie outside the `scratchLimbs` limbs of `scratch`).
    func fromMontgomery(_ r: Limbs, _ a: UnsafePointer<Limb>, scratch: Limbs) {
        let n = limbCount
        if isPlainP521 {
            r.update(from: a, count: n)
            return
        }
        scratch.update(from: a, count: n)
        (scratch + n).update(repeating: 0, count: n)
        let carry = cgmp_mpn_redc_1(r, scratch, p, n, negativeInverse)
        reduceOnce(r, carry: carry, scratch: scratch)
    }

    // MARK: Field operations (regular, allocation-free)

    /// r = r - p if r + carry·2^(64n) ≥ p, chosen by a masked swap.
    @inline(__always)
    private func reduceOnce(_ r: Limbs, carry: Limb, scratch: Limbs) {
        let n = limbCount
        let difference = scratch + 2 * n
        let borrow = __gmpn_sub_n(difference, r, p, n)
        __gmpn_cnd_swap(carry | (borrow ^ 1), r, difference, n)
    }

    /// r = a·b/R mod p. r may alias a or b.
    @inline(__always)
    func multiply(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, scratch: Limbs) {
        if isPlainP521 {
            MersenneP521.multiply(r, a, b)
            return
        }
        if let nistPrime {
            NISTMontgomery.multiply(r, a, b, p: p, prime: nistPrime, t: scratch)
            return
        }
        let k = negativeInverse
        switch kernelLimbs {
        case 3: FixedSizeMontgomery<ThreeLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        case 4: FixedSizeMontgomery<FourLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        case 5: FixedSizeMontgomery<FiveLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        case 6: FixedSizeMontgomery<SixLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        case 7: FixedSizeMontgomery<SevenLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        case 8: FixedSizeMontgomery<EightLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        case 9: FixedSizeMontgomery<NineLimbs>.multiply(r, a, b, p: p, negativeInverse: k, t: scratch)
        default: multiplyWithGMP(r, a, b, scratch: scratch)
        }
    }

    /// The `mpn` path, for DH-sized fields: GMP's multiplication and assembly Montgomery reduction.
    @inline(__always)
    private func multiplyWithGMP(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, scratch: Limbs) {
        __gmpn_mul_n(scratch, a, b, limbCount)
        let carry = cgmp_mpn_redc_1(r, scratch, p, limbCount, negativeInverse)
        reduceOnce(r, carry: carry, scratch: scratch)
    }

    /// r = a²/R mod p. r may alias a.
    @inline(__always)
    func square(_ r: Limbs, _ a: UnsafePointer<Limb>, scratch: Limbs) {
        if isPlainP521 {
            MersenneP521.square(r, a)
            return
        }
        if let nistPrime {
            NISTMontgomery.square(r, a, p: p, prime: nistPrime, t: scratch)
            return
        }
        let k = negativeInverse
        switch kernelLimbs {
        case 3: FixedSizeMontgomery<ThreeLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        case 4: FixedSizeMontgomery<FourLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        case 5: FixedSizeMontgomery<FiveLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        case 6: FixedSizeMontgomery<SixLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        case 7: FixedSizeMontgomery<SevenLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        case 8: FixedSizeMontgomery<EightLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        case 9: FixedSizeMontgomery<NineLimbs>.square(r, a, p: p, negativeInverse: k, t: scratch)
        default: squareWithGMP(r, a, scratch: scratch)
        }
    }

    @inline(__always)
    private func squareWithGMP(_ r: Limbs, _ a: UnsafePointer<Limb>, scratch: Limbs) {
        __gmpn_sqr(scratch, a, limbCount)
        let carry = cgmp_mpn_redc_1(r, scratch, p, limbCount, negativeInverse)
        reduceOnce(r, carry: carry, scratch: scratch)
    }

    /// r = a + b mod p.
    @inline(__always)
    func add(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, scratch: Limbs) {
        switch kernelLimbs {
        case 3: FixedSizeMontgomery<ThreeLimbs>.add(r, a, b, p: p, t: scratch)
        case 4: FixedSizeMontgomery<FourLimbs>.add(r, a, b, p: p, t: scratch)
        case 5: FixedSizeMontgomery<FiveLimbs>.add(r, a, b, p: p, t: scratch)
        case 6: FixedSizeMontgomery<SixLimbs>.add(r, a, b, p: p, t: scratch)
        case 7: FixedSizeMontgomery<SevenLimbs>.add(r, a, b, p: p, t: scratch)
        case 8: FixedSizeMontgomery<EightLimbs>.add(r, a, b, p: p, t: scratch)
        case 9: FixedSizeMontgomery<NineLimbs>.add(r, a, b, p: p, t: scratch)
        default:
            let carry = __gmpn_add_n(r, a, b, limbCount)
            reduceOnce(r, carry: carry, scratch: scratch)
        }
    }

    /// r = a - b mod p.
    @inline(__always)
    func subtract(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>) {
        switch kernelLimbs {
        case 3: FixedSizeMontgomery<ThreeLimbs>.subtract(r, a, b, p: p)
        case 4: FixedSizeMontgomery<FourLimbs>.subtract(r, a, b, p: p)
        case 5: FixedSizeMontgomery<FiveLimbs>.subtract(r, a, b, p: p)
        case 6: FixedSizeMontgomery<SixLimbs>.subtract(r, a, b, p: p)
        case 7: FixedSizeMontgomery<SevenLimbs>.subtract(r, a, b, p: p)
        case 8: FixedSizeMontgomery<EightLimbs>.subtract(r, a, b, p: p)
        case 9: FixedSizeMontgomery<NineLimbs>.subtract(r, a, b, p: p)
        default:
            let borrow = __gmpn_sub_n(r, a, b, limbCount)
            _ = __gmpn_cnd_add_n(borrow, r, r, p, limbCount)
        }
    }

    /// r = -a mod p when `condition` is 1, r = a when 0, without branching on either.
    @inline(__always)
    func conditionallyNegate(_ r: Limbs, condition: Limb, scratch: Limbs) {
        let n = limbCount
        let negated = scratch
        negated.update(repeating: 0, count: n)
        subtract(negated, negated, r)
        __gmpn_cnd_swap(condition, r, negated, n)
    }

    /// 1 when the n limbs at `a` are all zero, else 0, without branching.
    @inline(__always)
    func isZeroMask(_ a: UnsafePointer<Limb>) -> Limb {
        var accumulated: Limb = 0
        for index in 0..<limbCount { accumulated |= a[index] }
        return ((accumulated | (0 &- accumulated)) >> 63) ^ 1
    }

    /// r = a^-1 in Montgomery form by Fermat (a^(p-2)): a fixed, public schedule, so safe for secret
    /// values. `scratch` needs `scratchLimbs + limbCount` limbs.
    func invertRegular(_ r: Limbs, _ a: UnsafePointer<Limb>, scratch: Limbs) {
        if isPlainP521 {
            MersenneP521.invert(r, a)
            return
        }
        let n = limbCount
        let base = scratch + scratchLimbs
        base.update(from: a, count: n)
        r.update(from: one, count: n)
        let exponent = inversionExponent
        for bit in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            square(r, r, scratch: scratch)
            if exponent.bit(bit) { multiply(r, r, base, scratch: scratch) }
        }
    }

    /// r = a^-1 in Montgomery form through GMP's variable-time `mpz_invert`, for public values.
    func invertPublic(_ r: Limbs, _ a: UnsafePointer<Limb>, scratch: Limbs) {
        // a holds xR, whose plain inverse is x^-1·R^-1; two Montgomery multiplications by R² give x^-1·R.
        let plain = MontgomeryField.bigInt(from: a, limbCount: limbCount)
        let inverse = plain.inverse(modulo: modulus) ?? BigInt(0)
        MontgomeryField.store(inverse, into: r, limbCount: limbCount)
        multiply(r, r, rSquared, scratch: scratch)
        multiply(r, r, rSquared, scratch: scratch)
    }
}
