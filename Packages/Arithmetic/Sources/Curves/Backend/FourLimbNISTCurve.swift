/// Scalar multiplication written for one curve whose prime has a dedicated field: the generic back end
/// (`JacobianArithmetic` over `MontgomeryField`) keeps field elements in memory and dispatches every
/// operation on the field's shape, which left P-256 and P-224 at 0.4–0.6× OpenSSL's dedicated code.
/// `CurveContext` holds one when the curve qualifies, and `EllipticCurve` routes its public, secret and
/// fixed-base multiplications through it; points enter and leave as affine limbs in the same Montgomery
/// form as the generic back end's, so its tables (generator wNAF and fixed-base tables) serve both.
protocol DedicatedCurveArithmetic: SecretScalarMultiplication {
    /// Σ kᵢ·Pᵢ over wNAF terms whose tables are affine odd multiples; the affine result goes to `r`;
    /// false when it is infinity. Variable time (public scalars).
    func multiplyPublic(_ r: Limbs, terms: [ScalarMultiplier.Term]) -> Bool
    /// Whether Σ kᵢ·Pᵢ (as `multiplyPublic`) is finite with an affine x among the `count` values at
    /// `candidates` (Montgomery form): X = x·Z², with no inversion. For ECDSA verification.
    func publicCombinationHasX(in candidates: UnsafePointer<Limb>, count: Int, terms: [ScalarMultiplier.Term]) -> Bool
    /// `count` affine odd multiples P, 3P, … of the affine point P (public points only).
    func oddMultiplesAffine(_ point: UnsafePointer<Limb>, count: Int) -> LimbBuffer
}

/// The regular multiplications for secret scalars, as the generic `ScalarMultiplier` and the dedicated
/// back ends both provide them; results are affine limbs, false meaning infinity.
protocol SecretScalarMultiplication: AnyObject, Sendable {
    /// k·P for a secret 0 < k < n and an affine P of order n, regular.
    func multiplySecret(_ r: Limbs, point: UnsafePointer<Limb>, scalar: BigInt) -> Bool
    /// k·P for the fixed point of `table` and a secret 0 < k < n, regular.
    func multiplyFixed(_ r: Limbs, table: ScalarMultiplier.FixedBaseTable, scalar: BigInt) -> Bool
}

extension ScalarMultiplier: SecretScalarMultiplication {}

/// A four-limb field element, least significant limb first, in Montgomery form (R = 2^256). A value
/// type, so that whole point formulas stay in registers instead of workspace memory.
struct FieldElement4: Sendable {
    var l0: Limb
    var l1: Limb
    var l2: Limb
    var l3: Limb

    @inline(__always)
    init(_ l0: Limb, _ l1: Limb, _ l2: Limb, _ l3: Limb) {
        (self.l0, self.l1, self.l2, self.l3) = (l0, l1, l2, l3)
    }

    @inline(__always)
    init(_ limbs: UnsafePointer<Limb>) { (l0, l1, l2, l3) = (limbs[0], limbs[1], limbs[2], limbs[3]) }

    @inline(__always)
    func store(_ limbs: Limbs) { (limbs[0], limbs[1], limbs[2], limbs[3]) = (l0, l1, l2, l3) }

    static let zero = FieldElement4(0, 0, 0, 0)

    /// 1 when zero, else 0, without branching.
    @inline(__always)
    var isZeroMask: Limb {
        let any = l0 | l1 | l2 | l3
        return ((any | (0 &- any)) >> 63) ^ 1
    }

    /// mask ? other : self, limb by limb (mask is all ones or zero).
    @inline(__always)
    func selecting(_ other: FieldElement4, mask: Limb) -> FieldElement4 {
        FieldElement4(
            l0 ^ ((l0 ^ other.l0) & mask), l1 ^ ((l1 ^ other.l1) & mask), l2 ^ ((l2 ^ other.l2) & mask),
            l3 ^ ((l3 ^ other.l3) & mask))
    }
}

/// a·b + c + d as (low, high): never overflows 128 bits.
@inline(__always)
private func multiplyAdd(_ a: Limb, _ b: Limb, _ c: Limb, _ d: Limb) -> (Limb, Limb) {
    let sum = UInt128(a) &* UInt128(b) &+ UInt128(c) &+ UInt128(d)
    return (Limb(truncatingIfNeeded: sum), Limb(truncatingIfNeeded: sum >> 64))
}

/// A four-limb prime with a reduction written for its form, and the Fermat inversion chain for it.
protocol FourLimbPrime {
    static var modulus: FieldElement4 { get }
    /// The field's one in Montgomery form (R mod p).
    static var one: FieldElement4 { get }
    /// t/R mod p for the eight-limb t < p·R.
    static func reduce(
        _ t0: Limb, _ t1: Limb, _ t2: Limb, _ t3: Limb, _ t4: Limb, _ t5: Limb, _ t6: Limb,
        _ t7: Limb
    ) -> FieldElement4
    /// a^(p-2): a fixed addition chain, so regular whatever a is.
    static func invert(_ a: FieldElement4) -> FieldElement4
}

/// Field arithmetic shared by the four-limb primes; every operation regular (masks, no branches).
enum FourLimbField<Prime: FourLimbPrime> {
    @inline(__always)
    static func multiply(_ a: FieldElement4, _ b: FieldElement4) -> FieldElement4 {
        var c: Limb
        var t0: Limb
        var t1: Limb
        var t2: Limb
        var t3: Limb
        var t4: Limb
        var t5: Limb
        var t6: Limb
        var t7: Limb
        (t0, c) = multiplyAdd(a.l0, b.l0, 0, 0)
        (t1, c) = multiplyAdd(a.l1, b.l0, 0, c)
        (t2, c) = multiplyAdd(a.l2, b.l0, 0, c)
        (t3, t4) = multiplyAdd(a.l3, b.l0, 0, c)
        (t1, c) = multiplyAdd(a.l0, b.l1, t1, 0)
        (t2, c) = multiplyAdd(a.l1, b.l1, t2, c)
        (t3, c) = multiplyAdd(a.l2, b.l1, t3, c)
        (t4, t5) = multiplyAdd(a.l3, b.l1, t4, c)
        (t2, c) = multiplyAdd(a.l0, b.l2, t2, 0)
        (t3, c) = multiplyAdd(a.l1, b.l2, t3, c)
        (t4, c) = multiplyAdd(a.l2, b.l2, t4, c)
        (t5, t6) = multiplyAdd(a.l3, b.l2, t5, c)
        (t3, c) = multiplyAdd(a.l0, b.l3, t3, 0)
        (t4, c) = multiplyAdd(a.l1, b.l3, t4, c)
        (t5, c) = multiplyAdd(a.l2, b.l3, t5, c)
        (t6, t7) = multiplyAdd(a.l3, b.l3, t6, c)
        return Prime.reduce(t0, t1, t2, t3, t4, t5, t6, t7)
    }

    /// The six cross products once, doubled, plus the diagonal: 10 multiplications instead of 16.
    @inline(__always)
    static func square(_ a: FieldElement4) -> FieldElement4 {
        var c: Limb
        var t1: Limb
        var t2: Limb
        var t3: Limb
        var t4: Limb
        var t5: Limb
        var t6: Limb
        (t1, c) = multiplyAdd(a.l0, a.l1, 0, 0)
        (t2, c) = multiplyAdd(a.l0, a.l2, 0, c)
        (t3, t4) = multiplyAdd(a.l0, a.l3, 0, c)
        (t3, c) = multiplyAdd(a.l1, a.l2, t3, 0)
        (t4, t5) = multiplyAdd(a.l1, a.l3, t4, c)
        (t5, t6) = multiplyAdd(a.l2, a.l3, t5, 0)
        let t7 = t6 >> 63
        t6 = (t6 << 1) | (t5 >> 63)
        t5 = (t5 << 1) | (t4 >> 63)
        t4 = (t4 << 1) | (t3 >> 63)
        t3 = (t3 << 1) | (t2 >> 63)
        t2 = (t2 << 1) | (t1 >> 63)
        t1 = t1 << 1
        let d0 = UInt128(a.l0) &* UInt128(a.l0)
        let d1 = UInt128(a.l1) &* UInt128(a.l1)
        let d2 = UInt128(a.l2) &* UInt128(a.l2)
        let d3 = UInt128(a.l3) &* UInt128(a.l3)
        var sum = UInt128(t1) &+ (d0 >> 64)
        let r1 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t2) &+ UInt128(Limb(truncatingIfNeeded: d1)) &+ (sum >> 64)
        let r2 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t3) &+ (d1 >> 64) &+ (sum >> 64)
        let r3 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t4) &+ UInt128(Limb(truncatingIfNeeded: d2)) &+ (sum >> 64)
        let r4 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t5) &+ (d2 >> 64) &+ (sum >> 64)
        let r5 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t6) &+ UInt128(Limb(truncatingIfNeeded: d3)) &+ (sum >> 64)
        let r6 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t7) &+ (d3 >> 64) &+ (sum >> 64)
        let r7 = Limb(truncatingIfNeeded: sum)
        return Prime.reduce(Limb(truncatingIfNeeded: d0), r1, r2, r3, r4, r5, r6, r7)
    }

    /// r - p if r + carry·2^256 ≥ p, else r (r + carry·2^256 < 2p), by a mask.
    @inline(__always)
    static func reduceOnce(_ r: FieldElement4, carry: Limb) -> FieldElement4 {
        let p = Prime.modulus
        var d = UInt128(r.l0) &- UInt128(p.l0)
        let d0 = Limb(truncatingIfNeeded: d)
        d = UInt128(r.l1) &- UInt128(p.l1) &- (d >> 127)
        let d1 = Limb(truncatingIfNeeded: d)
        d = UInt128(r.l2) &- UInt128(p.l2) &- (d >> 127)
        let d2 = Limb(truncatingIfNeeded: d)
        d = UInt128(r.l3) &- UInt128(p.l3) &- (d >> 127)
        let d3 = Limb(truncatingIfNeeded: d)
        let keepDifference = carry | (Limb(truncatingIfNeeded: d >> 127) ^ 1)
        return r.selecting(FieldElement4(d0, d1, d2, d3), mask: 0 &- keepDifference)
    }

    @inline(__always)
    static func add(_ a: FieldElement4, _ b: FieldElement4) -> FieldElement4 {
        var s = UInt128(a.l0) &+ UInt128(b.l0)
        let s0 = Limb(truncatingIfNeeded: s)
        s = UInt128(a.l1) &+ UInt128(b.l1) &+ (s >> 64)
        let s1 = Limb(truncatingIfNeeded: s)
        s = UInt128(a.l2) &+ UInt128(b.l2) &+ (s >> 64)
        let s2 = Limb(truncatingIfNeeded: s)
        s = UInt128(a.l3) &+ UInt128(b.l3) &+ (s >> 64)
        let s3 = Limb(truncatingIfNeeded: s)
        return reduceOnce(FieldElement4(s0, s1, s2, s3), carry: Limb(truncatingIfNeeded: s >> 64))
    }

    @inline(__always)
    static func subtract(_ a: FieldElement4, _ b: FieldElement4) -> FieldElement4 {
        var d = UInt128(a.l0) &- UInt128(b.l0)
        let d0 = Limb(truncatingIfNeeded: d)
        d = UInt128(a.l1) &- UInt128(b.l1) &- (d >> 127)
        let d1 = Limb(truncatingIfNeeded: d)
        d = UInt128(a.l2) &- UInt128(b.l2) &- (d >> 127)
        let d2 = Limb(truncatingIfNeeded: d)
        d = UInt128(a.l3) &- UInt128(b.l3) &- (d >> 127)
        let d3 = Limb(truncatingIfNeeded: d)
        let mask = 0 &- Limb(truncatingIfNeeded: d >> 127)
        let p = Prime.modulus
        var s = UInt128(d0) &+ UInt128(p.l0 & mask)
        let s0 = Limb(truncatingIfNeeded: s)
        s = UInt128(d1) &+ UInt128(p.l1 & mask) &+ (s >> 64)
        let s1 = Limb(truncatingIfNeeded: s)
        s = UInt128(d2) &+ UInt128(p.l2 & mask) &+ (s >> 64)
        let s2 = Limb(truncatingIfNeeded: s)
        s = UInt128(d3) &+ UInt128(p.l3 & mask) &+ (s >> 64)
        return FieldElement4(s0, s1, s2, Limb(truncatingIfNeeded: s))
    }

    /// -a when `condition` is 1, a when 0.
    @inline(__always)
    static func conditionallyNegate(_ a: FieldElement4, condition: Limb) -> FieldElement4 {
        a.selecting(subtract(.zero, a), mask: 0 &- condition)
    }

    /// a^(2^count), by repeated squaring.
    @inline(__always)
    static func squared(_ a: FieldElement4, times count: Int) -> FieldElement4 {
        var r = a
        for _ in 0..<count { r = square(r) }
        return r
    }
}

/// P-256, p = 2^256 - 2^224 + 2^192 + 2^96 - 1. -1/p ≡ 1 mod 2^64, so each Montgomery row's m is the
/// low limb itself, and m·p's limbs are m·(2^64 - 1), m·(2^32 - 1), 0, m·(2^64 - 2^32 + 1): shifts and
/// additions only.
enum P256Prime: FourLimbPrime {
    @inline(__always)
    static var modulus: FieldElement4 {
        FieldElement4(0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001)
    }

    @inline(__always)
    static var one: FieldElement4 {
        FieldElement4(1, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFE)
    }

    /// One row: t[i] vanishes, m·p/2^64 is added into t[i+1…i+4].
    @inline(__always)
    private static func row(
        _ m: Limb, _ t1: inout Limb, _ t2: inout Limb, _ t3: inout Limb, _ t4: inout Limb,
        _ extra: inout UInt128
    ) {
        let m128 = UInt128(m)
        var sum = UInt128(t1) &+ (m128 << 32)
        t1 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t2) &+ (sum >> 64)
        t2 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t3) &+ (m128 << 64) &- (m128 << 32) &+ m128 &+ (sum >> 64)
        t3 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t4) &+ (sum >> 64) &+ extra
        t4 = Limb(truncatingIfNeeded: sum)
        extra = sum >> 64
    }

    @inline(__always)
    static func reduce(
        _ t0: Limb, _ t1: Limb, _ t2: Limb, _ t3: Limb, _ t4: Limb, _ t5: Limb, _ t6: Limb,
        _ t7: Limb
    ) -> FieldElement4 {
        var (t1, t2, t3, t4, t5, t6, t7) = (t1, t2, t3, t4, t5, t6, t7)
        var extra: UInt128 = 0
        row(t0, &t1, &t2, &t3, &t4, &extra)
        row(t1, &t2, &t3, &t4, &t5, &extra)
        row(t2, &t3, &t4, &t5, &t6, &extra)
        row(t3, &t4, &t5, &t6, &t7, &extra)
        return FourLimbField<P256Prime>.reduceOnce(
            FieldElement4(t4, t5, t6, t7), carry: Limb(truncatingIfNeeded: extra))
    }

    /// p - 2 = ffffffff 00000001 0…0 (96 bits) ffffffff ffffffff fffffffd: 255 squarings, 13 products.
    static func invert(_ a: FieldElement4) -> FieldElement4 {
        typealias F = FourLimbField<P256Prime>
        let x2 = F.multiply(F.square(a), a)
        let x4 = F.multiply(F.squared(x2, times: 2), x2)
        let x8 = F.multiply(F.squared(x4, times: 4), x4)
        let x16 = F.multiply(F.squared(x8, times: 8), x8)
        let x24 = F.multiply(F.squared(x16, times: 8), x8)
        let x28 = F.multiply(F.squared(x24, times: 4), x4)
        let x30 = F.multiply(F.squared(x28, times: 2), x2)
        let x32 = F.multiply(F.squared(x30, times: 2), x2)
        var r = F.multiply(F.squared(x32, times: 32), a)
        r = F.multiply(F.squared(r, times: 128), x32)
        r = F.multiply(F.squared(r, times: 32), x32)
        r = F.multiply(F.squared(r, times: 30), x30)
        return F.multiply(F.squared(r, times: 2), a)
    }
}

/// P-224, p = 2^224 - 2^96 + 1 (four limbs, R = 2^256). -1/p ≡ -1 mod 2^64, so m = -t[i]; m·p's limbs
/// are m, m·(2^64 - 2^32), m·(2^64 - 1), m·(2^32 - 1).
enum P224Prime: FourLimbPrime {
    @inline(__always)
    static var modulus: FieldElement4 {
        FieldElement4(0x0000_0000_0000_0001, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF)
    }

    @inline(__always)
    static var one: FieldElement4 { FieldElement4(0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0, 0) }

    @inline(__always)
    private static func row(
        _ t0: Limb, _ t1: inout Limb, _ t2: inout Limb, _ t3: inout Limb, _ t4: inout Limb,
        _ extra: inout UInt128
    ) {
        let m = UInt128(0 &- t0)
        var sum = (UInt128(t0) &+ m) >> 64
        sum = UInt128(t1) &+ (m << 64) &- (m << 32) &+ sum
        t1 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t2) &+ (m << 64) &- m &+ (sum >> 64)
        t2 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t3) &+ (m << 32) &- m &+ (sum >> 64)
        t3 = Limb(truncatingIfNeeded: sum)
        sum = UInt128(t4) &+ (sum >> 64) &+ extra
        t4 = Limb(truncatingIfNeeded: sum)
        extra = sum >> 64
    }

    @inline(__always)
    static func reduce(
        _ t0: Limb, _ t1: Limb, _ t2: Limb, _ t3: Limb, _ t4: Limb, _ t5: Limb, _ t6: Limb,
        _ t7: Limb
    ) -> FieldElement4 {
        var (t1, t2, t3, t4, t5, t6, t7) = (t1, t2, t3, t4, t5, t6, t7)
        var extra: UInt128 = 0
        row(t0, &t1, &t2, &t3, &t4, &extra)
        row(t1, &t2, &t3, &t4, &t5, &extra)
        row(t2, &t3, &t4, &t5, &t6, &extra)
        row(t3, &t4, &t5, &t6, &t7, &extra)
        return FourLimbField<P224Prime>.reduceOnce(
            FieldElement4(t4, t5, t6, t7), carry: Limb(truncatingIfNeeded: extra))
    }

    /// p - 2 = 2^224 - 2^96 - 1: 127 ones, a zero, 96 ones.
    static func invert(_ a: FieldElement4) -> FieldElement4 {
        typealias F = FourLimbField<P224Prime>
        let x2 = F.multiply(F.square(a), a)
        let x3 = F.multiply(F.square(x2), a)
        let x6 = F.multiply(F.squared(x3, times: 3), x3)
        let x12 = F.multiply(F.squared(x6, times: 6), x6)
        let x24 = F.multiply(F.squared(x12, times: 12), x12)
        let x30 = F.multiply(F.squared(x24, times: 6), x6)
        let x31 = F.multiply(F.square(x30), a)
        let x32 = F.multiply(F.square(x31), a)
        let x64 = F.multiply(F.squared(x32, times: 32), x32)
        let x96 = F.multiply(F.squared(x64, times: 32), x32)
        let x127 = F.multiply(F.squared(x96, times: 31), x31)
        return F.multiply(F.squared(x127, times: 97), x96)
    }
}

/// A Jacobian point (x = X/Z², y = Y/Z³; Z = 0 is infinity) of four-limb coordinates.
struct JacobianPoint4: Sendable {
    var x: FieldElement4
    var y: FieldElement4
    var z: FieldElement4

    @inline(__always)
    func selecting(_ other: JacobianPoint4, mask: Limb) -> JacobianPoint4 {
        JacobianPoint4(
            x: x.selecting(other.x, mask: mask), y: y.selecting(other.y, mask: mask),
            z: z.selecting(other.z, mask: mask))
    }
}

/// The dedicated arithmetic of a curve y² = x³ - 3x + b over P-256's or P-224's prime, with the same
/// schedules as `ScalarMultiplier` (so the same exceptional-case analysis holds) on value types. A
/// concrete class that calls `FourLimbNISTKernels` with a concrete prime: methods of a generic class are
/// not specialised, and every field operation would then go through a witness table.
final class FourLimbNISTCurve: DedicatedCurveArithmetic, @unchecked Sendable {
    private let multiplier: ScalarMultiplier
    private let prime: NISTMontgomery.Prime

    init(prime: NISTMontgomery.Prime, multiplier: ScalarMultiplier) {
        self.prime = prime
        self.multiplier = multiplier
    }

    func multiplyPublic(_ r: Limbs, terms: [ScalarMultiplier.Term]) -> Bool {
        switch prime {
        case .p256: FourLimbNISTKernels<P256Prime>.multiplyPublic(r, terms: terms)
        case .p224: FourLimbNISTKernels<P224Prime>.multiplyPublic(r, terms: terms)
        }
    }

    func publicCombinationHasX(in candidates: UnsafePointer<Limb>, count: Int, terms: [ScalarMultiplier.Term]) -> Bool {
        switch prime {
        case .p256: FourLimbNISTKernels<P256Prime>.publicCombinationHasX(in: candidates, count: count, terms: terms)
        case .p224: FourLimbNISTKernels<P224Prime>.publicCombinationHasX(in: candidates, count: count, terms: terms)
        }
    }

    func oddMultiplesAffine(_ point: UnsafePointer<Limb>, count: Int) -> LimbBuffer {
        switch prime {
        case .p256: FourLimbNISTKernels<P256Prime>.oddMultiplesAffine(point, count: count)
        case .p224: FourLimbNISTKernels<P224Prime>.oddMultiplesAffine(point, count: count)
        }
    }

    func multiplySecret(_ r: Limbs, point: UnsafePointer<Limb>, scalar: BigInt) -> Bool {
        switch prime {
        case .p256: FourLimbNISTKernels<P256Prime>.multiplySecret(r, point: point, scalar: scalar, multiplier)
        case .p224: FourLimbNISTKernels<P224Prime>.multiplySecret(r, point: point, scalar: scalar, multiplier)
        }
    }

    func multiplyFixed(_ r: Limbs, table: ScalarMultiplier.FixedBaseTable, scalar: BigInt) -> Bool {
        switch prime {
        case .p256: FourLimbNISTKernels<P256Prime>.multiplyFixed(r, table: table, scalar: scalar, multiplier)
        case .p224: FourLimbNISTKernels<P224Prime>.multiplyFixed(r, table: table, scalar: scalar, multiplier)
        }
    }
}

/// Point formulas and scalar multiplications over one `FourLimbPrime`.
enum FourLimbNISTKernels<Prime: FourLimbPrime> {
    typealias F = FourLimbField<Prime>

    // MARK: Point formulas (EFD, a = -3)

    /// dbl-2001-b. Infinity and points of order 2 give Z = 0.
    @inline(__always)
    static func double(_ q: JacobianPoint4) -> JacobianPoint4 {
        let delta = F.square(q.z)
        let gamma = F.square(q.y)
        let beta = F.multiply(q.x, gamma)
        let product = F.multiply(F.subtract(q.x, delta), F.add(q.x, delta))
        let alpha = F.add(F.add(product, product), product)
        let z3 = F.subtract(F.subtract(F.square(F.add(q.y, q.z)), gamma), delta)
        let beta4 = F.add(F.add(beta, beta), F.add(beta, beta))
        let x3 = F.subtract(F.square(alpha), F.add(beta4, beta4))
        let gamma2 = F.square(gamma)
        let gamma4 = F.add(gamma2, gamma2)
        let gamma8 = F.add(F.add(gamma4, gamma4), F.add(gamma4, gamma4))
        let y3 = F.subtract(F.multiply(alpha, F.subtract(beta4, x3)), gamma8)
        return JacobianPoint4(x: x3, y: y3, z: z3)
    }

    /// add-2007-bl for q1 + q2, neither infinity; masks as in `JacobianArithmetic.addCore`.
    @inline(__always)
    static func add(_ q1: JacobianPoint4, _ q2: JacobianPoint4) -> (sum: JacobianPoint4, hZero: Limb, rZero: Limb) {
        let z1z1 = F.square(q1.z)
        let z2z2 = F.square(q2.z)
        let u1 = F.multiply(q1.x, z2z2)
        let u2 = F.multiply(q2.x, z1z1)
        let s1 = F.multiply(F.multiply(q1.y, q2.z), z2z2)
        let s2 = F.multiply(F.multiply(q2.y, q1.z), z1z1)
        let h = F.subtract(u2, u1)
        let i = F.square(F.add(h, h))
        let j = F.multiply(h, i)
        let halfR = F.subtract(s2, s1)
        let r = F.add(halfR, halfR)
        let v = F.multiply(u1, i)
        let x3 = F.subtract(F.subtract(F.subtract(F.square(r), j), v), v)
        let s1j = F.multiply(s1, j)
        let y3 = F.subtract(F.multiply(r, F.subtract(v, x3)), F.add(s1j, s1j))
        let z3 = F.multiply(F.subtract(F.subtract(F.square(F.add(q1.z, q2.z)), z1z1), z2z2), h)
        return (JacobianPoint4(x: x3, y: y3, z: z3), h.isZeroMask, halfR.isZeroMask)
    }

    /// madd-2007-bl for q1 (Jacobian, not infinity) + (x2, y2) affine.
    @inline(__always)
    static func mixedAdd(_ q1: JacobianPoint4, _ x2: FieldElement4, _ y2: FieldElement4) -> (
        sum: JacobianPoint4, hZero: Limb, rZero: Limb
    ) {
        let z1z1 = F.square(q1.z)
        let u2 = F.multiply(x2, z1z1)
        let s2 = F.multiply(F.multiply(y2, q1.z), z1z1)
        let h = F.subtract(u2, q1.x)
        let hh = F.square(h)
        let i = F.add(F.add(hh, hh), F.add(hh, hh))
        let j = F.multiply(h, i)
        let halfR = F.subtract(s2, q1.y)
        let r = F.add(halfR, halfR)
        let v = F.multiply(q1.x, i)
        let x3 = F.subtract(F.subtract(F.subtract(F.square(r), j), v), v)
        let y1j = F.multiply(q1.y, j)
        let y3 = F.subtract(F.multiply(r, F.subtract(v, x3)), F.add(y1j, y1j))
        let z3 = F.subtract(F.subtract(F.square(F.add(q1.z, h)), z1z1), hh)
        return (JacobianPoint4(x: x3, y: y3, z: z3), h.isZeroMask, halfR.isZeroMask)
    }

    @inline(__always)
    static func lift(_ x: FieldElement4, _ y: FieldElement4) -> JacobianPoint4 {
        JacobianPoint4(x: x, y: y, z: Prime.one)
    }

    /// q1 + q2 for every input without branching: q1 = q2 doubles, q1 = -q2 gives infinity, q1 =
    /// infinity gives q2 (q2 is never infinity).
    @inline(__always)
    static func completeAdd(_ q1: JacobianPoint4, _ q2: JacobianPoint4) -> JacobianPoint4 {
        let q1Infinity = q1.z.isZeroMask
        let (sum, hZero, rZero) = add(q1, q2)
        let doubled = double(q2)
        return sum.selecting(doubled, mask: 0 &- (hZero & rZero & (q1Infinity ^ 1))).selecting(
            q2, mask: 0 &- q1Infinity)
    }

    /// Writes the affine form of q (not infinity) to r.
    @inline(__always)
    static func storeAffine(_ r: Limbs, _ q: JacobianPoint4) {
        let zInverse = Prime.invert(q.z)
        let zInverse2 = F.square(zInverse)
        F.multiply(q.x, zInverse2).store(r)
        F.multiply(q.y, F.multiply(zInverse2, zInverse)).store(r + 4)
    }

    /// Index-th entry of `count` points of `stride` limbs, every entry read and masked (constant time in
    /// the index).
    @inline(__always)
    private static func secretEntry(
        _ table: UnsafePointer<Limb>, count: Int, stride: Int, index: Int
    ) -> (FieldElement4, FieldElement4, FieldElement4) {
        var x = FieldElement4.zero
        var y = FieldElement4.zero
        var z = FieldElement4.zero
        for candidate in 0..<count {
            let difference = Limb(truncatingIfNeeded: candidate ^ index)
            let mask = (((difference | (0 &- difference)) >> 63) ^ 1) &* Limb.max
            let entry = table + candidate * stride
            x = x.selecting(FieldElement4(entry), mask: mask)
            y = y.selecting(FieldElement4(entry + 4), mask: mask)
            if stride == 12 { z = z.selecting(FieldElement4(entry + 8), mask: mask) }
        }
        return (x, y, z)
    }

    // MARK: Public scalars

    static func oddMultiplesAffine(_ point: UnsafePointer<Limb>, count: Int) -> LimbBuffer {
        var jacobian = [JacobianPoint4](repeating: JacobianPoint4(x: .zero, y: .zero, z: .zero), count: count)
        jacobian[0] = Self.lift(FieldElement4(point), FieldElement4(point + 4))
        if count > 1 {
            let twice = Self.double(jacobian[0])
            for index in 1..<count {
                // (2i+1)P = (2i-1)P + 2P is never exceptional for a point of prime order above 2·count.
                jacobian[index] = Self.add(jacobian[index - 1], twice).sum
            }
        }
        // Montgomery's trick: one inversion for all the Z.
        var prefix = [FieldElement4](repeating: .zero, count: count)
        prefix[0] = jacobian[0].z
        for index in 1..<count { prefix[index] = F.multiply(prefix[index - 1], jacobian[index].z) }
        var inverse = Prime.invert(prefix[count - 1])
        let affine = LimbBuffer(count: count * 8)
        for index in stride(from: count - 1, through: 0, by: -1) {
            let zInverse = index > 0 ? F.multiply(inverse, prefix[index - 1]) : inverse
            if index > 0 { inverse = F.multiply(inverse, jacobian[index].z) }
            let zInverse2 = F.square(zInverse)
            let output = affine.pointer + index * 8
            F.multiply(jacobian[index].x, zInverse2).store(output)
            F.multiply(jacobian[index].y, F.multiply(zInverse2, zInverse)).store(output + 4)
        }
        return affine
    }

    /// Σ kᵢ·Pᵢ in Jacobian form, nil for infinity.
    static func accumulatePublic(_ terms: [ScalarMultiplier.Term]) -> JacobianPoint4? {
        var q = JacobianPoint4(x: Prime.one, y: Prime.one, z: .zero)
        var isInfinity = true
        let length = terms.map(\.digits.count).max() ?? 0
        for position in stride(from: length - 1, through: 0, by: -1) {
            if !isInfinity { q = Self.double(q) }
            for term in terms where position < term.digits.count {
                let digit = Int(term.digits[position])
                guard digit != 0 else { continue }
                let entry = term.table + ((abs(digit) - 1) / 2) * 8
                let x = FieldElement4(entry)
                var y = FieldElement4(entry + 4)
                if digit < 0 { y = F.subtract(.zero, y) }
                if isInfinity {
                    q = Self.lift(x, y)
                    isInfinity = false
                    continue
                }
                let (sum, hZero, rZero) = Self.mixedAdd(q, x, y)
                if hZero == 1 {
                    if rZero == 1 { q = Self.double(q) } else { isInfinity = true }
                } else {
                    q = sum
                }
            }
        }
        if isInfinity || q.z.isZeroMask == 1 { return nil }
        return q
    }

    static func multiplyPublic(_ r: Limbs, terms: [ScalarMultiplier.Term]) -> Bool {
        guard let q = accumulatePublic(terms) else { return false }
        storeAffine(r, q)
        return true
    }

    static func publicCombinationHasX(in candidates: UnsafePointer<Limb>, count: Int, terms: [ScalarMultiplier.Term])
        -> Bool
    {
        guard let q = accumulatePublic(terms) else { return false }
        let z2 = F.square(q.z)
        for index in 0..<count
        where F.subtract(F.multiply(FieldElement4(candidates + 4 * index), z2), q.x).isZeroMask == 1 {
            return true
        }
        return false
    }

    // MARK: Secret scalars

    static func multiplySecret(
        _ r: Limbs, point: UnsafePointer<Limb>, scalar: BigInt, _ multiplier: ScalarMultiplier
    ) -> Bool {
        let width = multiplier.regularWidth
        let entries = 1 << (width - 1)
        let windows = (multiplier.orderBits + width - 1) / width
        let (k, negated) = multiplier.oddScalar(scalar)
        var digits = [Int](repeating: 0, count: windows)
        ScalarRecoding.regularDigits(oddScalar: k, width: width, windows: windows, into: &digits)
        defer { digits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        // Odd multiples P … (2·entries - 1)·P, Jacobian, 12 limbs each.
        let table = LimbBuffer(count: entries * 12)
        var multiple = Self.lift(FieldElement4(point), FieldElement4(point + 4))
        let twice = Self.double(multiple)
        for index in 0..<entries {
            if index > 0 { multiple = Self.add(multiple, twice).sum }
            let entry = table.pointer + index * 12
            multiple.x.store(entry)
            multiple.y.store(entry + 4)
            multiple.z.store(entry + 8)
        }
        let top = Self.secretEntry(table.pointer, count: entries, stride: 12, index: (digits[windows - 1] - 1) / 2)
        var q = JacobianPoint4(x: top.0, y: top.1, z: top.2)
        for index in stride(from: windows - 2, through: 0, by: -1) {
            for _ in 0..<width { q = Self.double(q) }
            let digit = digits[index]
            let sign = Limb(truncatingIfNeeded: digit >> 63) & 1
            let magnitude = (digit ^ (digit >> 63)) - (digit >> 63)
            let chosen = Self.secretEntry(table.pointer, count: entries, stride: 12, index: (magnitude - 1) / 2)
            let entry = JacobianPoint4(x: chosen.0, y: F.conditionallyNegate(chosen.1, condition: sign), z: chosen.2)
            q = index == 0 ? Self.completeAdd(q, entry) : Self.add(q, entry).sum
        }
        q.y = F.conditionallyNegate(q.y, condition: negated)
        if q.z.isZeroMask == 1 { return false }
        Self.storeAffine(r, q)
        return true
    }

    static func multiplyFixed(
        _ r: Limbs, table: ScalarMultiplier.FixedBaseTable, scalar: BigInt, _ multiplier: ScalarMultiplier
    ) -> Bool {
        let width = table.width
        let windows = table.windows
        let entries = 1 << (width - 1)
        let (k, negated) = multiplier.oddScalar(scalar)
        var digits = [Int](repeating: 0, count: windows)
        ScalarRecoding.regularDigits(oddScalar: k, width: width, windows: windows, into: &digits)
        defer { digits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let orderBits = multiplier.orderBits
        var q = JacobianPoint4(x: Prime.one, y: Prime.one, z: .zero)
        for index in 0..<windows {
            let digit = digits[index]
            let sign = Limb(truncatingIfNeeded: digit >> 63) & 1
            let magnitude = (digit ^ (digit >> 63)) - (digit >> 63)
            let windowTable = table.points.pointer + index * entries * 8
            let (x, chosenY, _) = Self.secretEntry(windowTable, count: entries, stride: 8, index: (magnitude - 1) / 2)
            let y = F.conditionallyNegate(chosenY, condition: sign)
            if index == 0 {
                q = Self.lift(x, y)
            } else if width * (index + 1) >= orderBits - 1 {
                // Only the top windows can meet the exceptional cases (partial sums reach the order).
                q = Self.completeAdd(q, Self.lift(x, y))
            } else {
                q = Self.mixedAdd(q, x, y).sum
            }
        }
        q.y = F.conditionallyNegate(q.y, condition: negated)
        if q.z.isZeroMask == 1 { return false }
        Self.storeAffine(r, q)
        return true
    }
}
