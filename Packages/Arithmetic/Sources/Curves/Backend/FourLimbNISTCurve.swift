import CFieldKernels
import CGMP

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

    /// The result of a C function of one element (`CFieldKernels`), through a copy's four limbs.
    @inline(__always)
    func applying(
        _ function: @convention(c) (UnsafeMutablePointer<Limb>?, UnsafePointer<Limb>?) -> Void
    ) -> FieldElement4 {
        var r = self
        withUnsafeMutablePointer(to: &r) { pointer in
            pointer.withMemoryRebound(to: Limb.self, capacity: 4) { function($0, $0) }
        }
        return r
    }

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

/// A four-limb prime whose products, inversion and point formulas are C kernels of its own
/// (`CFieldKernels`: MULX/ADCX/ADOX when the CPU has them, else portable; CPUID decides at load).
/// Swift's code for the same products spent about twice the instructions of OpenSSL's assembly.
protocol FourLimbPrime {
    static var modulus: FieldElement4 { get }
    /// The field's one in Montgomery form (R mod p).
    static var one: FieldElement4 { get }
    /// R³ mod p: the factor that turns a plain inverse of a Montgomery element back into Montgomery
    /// form (`FourLimbField.invertPublic`).
    static var rCubed: FieldElement4 { get }
    /// The curve's group order n (plain limbs): the complement n - k of an even secret scalar.
    static var order: FieldElement4 { get }
    static var kernels: CFourLimbKernels { get }
}

/// One prime's C kernels. Field elements are four limbs, points twelve (`JacobianPoint4`'s X, Y, Z).
struct CFourLimbKernels {
    typealias Unary = @convention(c) (UnsafeMutablePointer<Limb>?, UnsafePointer<Limb>?) -> Void
    typealias Binary =
        @convention(c) (UnsafeMutablePointer<Limb>?, UnsafePointer<Limb>?, UnsafePointer<Limb>?) -> Void
    /// a·b/R mod p.
    let multiply: Binary
    /// a²/R mod p.
    let square: Unary
    /// a^(p-2), by a fixed addition chain (regular).
    let invert: Unary
    /// The odd multiples P, 3P, … of an affine point, Jacobian, by co-Z additions
    /// (`emrtd_p256_odd_multiples`).
    let oddMultiples: @convention(c) (UnsafeMutablePointer<Limb>?, UnsafePointer<Limb>?, Int32) -> Void
    /// q += the fixed-base table's entries for the digits of windows from..<to, complete additions
    /// from a window on (`emrtd_p256_fixed_windows`).
    let fixedWindows:
        @convention(c) (
            UnsafeMutablePointer<Limb>?, UnsafePointer<Limb>?, UnsafePointer<Int>?, Int32, Int32, Int32, Int32
        ) -> Void
    /// The secret-scalar windows over a Jacobian table of odd multiples, doublings included
    /// (`emrtd_p256_secret_windows`).
    let secretWindows:
        @convention(c) (UnsafeMutablePointer<Limb>?, UnsafePointer<Limb>?, UnsafePointer<Int>?, Int32, Int32, Int32) ->
            Void
    /// Σ kᵢ·Pᵢ for public wNAF digits, one doubling chain, 0 for infinity (`emrtd_p256_public_terms`).
    let publicTerms:
        @convention(c) (
            UnsafeMutablePointer<Limb>?, UnsafePointer<Int8>?, UnsafePointer<Int32>?,
            UnsafePointer<UnsafePointer<Limb>?>?, Int32
        ) -> Int32
}

/// Field arithmetic of the four-limb primes outside the point formulas (normalisation, tables, signs,
/// ECDSA's comparison): products, squares and inversion through the C kernels, subtraction and
/// negation here. Every operation regular (masks, no branches).
enum FourLimbField<Prime: FourLimbPrime> {
    @inline(__always)
    static func multiply(_ a: FieldElement4, _ b: FieldElement4) -> FieldElement4 {
        var r = a
        var other = b
        withUnsafeMutablePointer(to: &r) { pointer in
            pointer.withMemoryRebound(to: Limb.self, capacity: 4) { product in
                withUnsafePointer(to: &other) {
                    $0.withMemoryRebound(to: Limb.self, capacity: 4) { Prime.kernels.multiply(product, product, $0) }
                }
            }
        }
        return r
    }

    @inline(__always)
    static func square(_ a: FieldElement4) -> FieldElement4 { a.applying(Prime.kernels.square) }

    @inline(__always)
    static func invert(_ a: FieldElement4) -> FieldElement4 { a.applying(Prime.kernels.invert) }

    /// 1/a for a public a ≠ 0, in variable time: GMP's extended GCD on the Montgomery value aR gives
    /// (aR)⁻¹, and a product with R³ makes it R/a. About 1 µs where the addition chain takes 2 µs (its
    /// 255 squarings are one chain of latencies); public variable-base results and the odd multiples
    /// of public points take two of them. Never for values derived from a secret: its time depends on a.
    static func invertPublic(_ a: FieldElement4) -> FieldElement4 {
        // mpn_gcdext wants U at least as long as V = p: a top limb of zero (below 2^192, one P-224
        // value in 2^32) takes the chain.
        guard a.l3 != 0 else { return invert(a) }
        let p = Prime.modulus
        let plainInverse: FieldElement4? = withUnsafeTemporaryAllocation(of: Limb.self, capacity: 20) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            buffer.initialize(repeating: 0)
            let (u, v, g, s) = (base, base + 5, base + 10, base + 15)
            a.store(u)
            p.store(v)
            var sn = 0
            let gn = __gmpn_gcdext(g, s, &sn, u, 4, v, 4)
            guard gn == 1, g[0] == 1 else { return nil }
            let magnitude = FieldElement4(s)
            return sn < 0 ? subtract(p, magnitude) : magnitude
        }
        guard let plainInverse else { return invert(a) }
        return multiply(plainInverse, Prime.rCubed)
    }

    /// 1/a for a secret a ≠ 0 without timing that depends on a: a is multiplied by a fresh random
    /// element b, so `invertPublic`'s variable-time GCD sees a uniformly random a·b whatever a is, and
    /// 1/a = b·(a·b)⁻¹ (OpenSSL blinds its field inversions the same way). About 1.3 µs where the
    /// regular addition chain takes 2 µs; a zero product (a or b ≡ 0) takes the chain.
    static func invertBlinded(_ a: FieldElement4) -> FieldElement4 {
        // Any four limbs are a Montgomery operand (below R): the product with a < p is below 2p and
        // reduced once, and uniform enough that a·b reveals nothing about a.
        var b = FieldElement4.zero
        let drawn = withUnsafeMutablePointer(to: &b) {
            $0.withMemoryRebound(to: Limb.self, capacity: 4) { emrtd_random_limbs($0, 4) == 1 }
        }
        guard drawn else { return invert(a) }
        let product = multiply(a, b)
        guard product.l0 | product.l1 | product.l2 | product.l3 != 0 else { return invert(a) }
        return multiply(invertPublic(product), b)
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
}

/// P-256, p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
enum P256Prime: FourLimbPrime {
    @inline(__always)
    static var modulus: FieldElement4 {
        FieldElement4(0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001)
    }

    @inline(__always)
    static var one: FieldElement4 {
        FieldElement4(1, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFE)
    }

    @inline(__always)
    static var rCubed: FieldElement4 {
        FieldElement4(0xFFFF_FFFD_0000_000A, 0xFFFF_FFED_FFFF_FFF7, 0x0000_0005_FFFF_FFFC, 0x0000_0018_0000_0001)
    }

    @inline(__always)
    static var order: FieldElement4 {
        FieldElement4(0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000)
    }

    @inline(__always)
    static var kernels: CFourLimbKernels {
        CFourLimbKernels(
            multiply: emrtd_p256_mul, square: emrtd_p256_sqr, invert: emrtd_p256_inv,
            oddMultiples: emrtd_p256_odd_multiples,
            fixedWindows: emrtd_p256_fixed_windows, secretWindows: emrtd_p256_secret_windows,
            publicTerms: emrtd_p256_public_terms)
    }
}

/// P-224, p = 2^224 - 2^96 + 1 (four limbs, R = 2^256).
enum P224Prime: FourLimbPrime {
    @inline(__always)
    static var modulus: FieldElement4 {
        FieldElement4(0x0000_0000_0000_0001, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF)
    }

    @inline(__always)
    static var one: FieldElement4 { FieldElement4(0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0, 0) }

    @inline(__always)
    static var rCubed: FieldElement4 {
        FieldElement4(0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_0000_0002, 0xFFFF_FFFC_0000_0000, 0x0000_0000_0000_0002)
    }

    @inline(__always)
    static var order: FieldElement4 {
        FieldElement4(0x13DD_2945_5C5C_2A3D, 0xFFFF_16A2_E0B8_F03E, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF)
    }

    @inline(__always)
    static var kernels: CFourLimbKernels {
        CFourLimbKernels(
            multiply: emrtd_p224_mul, square: emrtd_p224_sqr, invert: emrtd_p224_inv,
            oddMultiples: emrtd_p224_odd_multiples,
            fixedWindows: emrtd_p224_fixed_windows, secretWindows: emrtd_p224_secret_windows,
            publicTerms: emrtd_p224_public_terms)
    }
}

/// A Jacobian point (x = X/Z², y = Y/Z³; Z = 0 is infinity) of four-limb coordinates.
struct JacobianPoint4: Sendable {
    var x: FieldElement4
    var y: FieldElement4
    var z: FieldElement4

    /// The twelve limbs X, Y, Z, for the C kernels: a struct of three structs of four limbs is laid
    /// out as twelve consecutive limbs (`FieldKernelTests` checks the offsets).
    @inline(__always)
    mutating func withLimbs<Result>(_ body: (UnsafeMutablePointer<Limb>) -> Result) -> Result {
        withUnsafeMutablePointer(to: &self) { $0.withMemoryRebound(to: Limb.self, capacity: 12, body) }
    }

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

    // MARK: Point formulas (EFD, a = -3; in C)

    /// The `count` odd multiples P, 3P, … of the affine point at `point` (prime order above
    /// 2·count), Jacobian, twelve limbs each.
    @inline(__always)
    static func oddMultiplesJacobian(_ point: UnsafePointer<Limb>, count: Int) -> LimbBuffer {
        let table = LimbBuffer(count: count * 12)
        Prime.kernels.oddMultiples(table.pointer, point, Int32(count))
        return table
    }

    @inline(__always)
    static func lift(_ x: FieldElement4, _ y: FieldElement4) -> JacobianPoint4 {
        JacobianPoint4(x: x, y: y, z: Prime.one)
    }

    /// Writes the affine form of q (not infinity) to r; `publicValue` (q computed from public values
    /// only) lets the inversion take variable time, a secret q's is blinded.
    @inline(__always)
    static func storeAffine(_ r: Limbs, _ q: JacobianPoint4, publicValue: Bool = false) {
        let zInverse = publicValue ? F.invertPublic(q.z) : F.invertBlinded(q.z)
        let zInverse2 = F.square(zInverse)
        F.multiply(q.x, zInverse2).store(r)
        F.multiply(q.y, F.multiply(zInverse2, zInverse)).store(r + 4)
    }

    /// Index-th entry of `count` points of `stride` limbs (8 affine, 12 Jacobian), every entry read and
    /// masked, in C (`emrtd_select_entry`): constant time in the index.
    @inline(__always)
    private static func secretEntry(
        _ table: UnsafePointer<Limb>, count: Int, stride: Int, index: Int
    ) -> (FieldElement4, FieldElement4, FieldElement4) {
        var entry = JacobianPoint4(x: .zero, y: .zero, z: .zero)
        entry.withLimbs { emrtd_select_entry($0, table, Int32(count), Int32(stride), Int32(index)) }
        return (entry.x, entry.y, entry.z)
    }

    /// Runs `body` with the regular signed digits of a secret 0 < k < n (`emrtd_regular_digits4`: k made
    /// odd, `windows` digits of `width` bits) and 1 when k was replaced by n - k (the result is then
    /// negated), else 0. The digits and limbs live on the stack and are wiped afterwards: the arrays
    /// and the BigInt export of n that `ScalarMultiplier.oddScalar` spends per call cost about 5 % of a
    /// fixed-base multiplication.
    @inline(__always)
    static func withRegularDigits<Result>(
        _ scalar: BigInt, width: Int, windows: Int, _ body: (UnsafeBufferPointer<Int>, Limb) -> Result
    ) -> Result {
        var k = FieldElement4.zero
        var order = Prime.order
        defer { k = .zero }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: windows) { digits in
            defer { digits.initialize(repeating: 0) }
            return withUnsafeMutablePointer(to: &k) { kPointer in
                kPointer.withMemoryRebound(to: Limb.self, capacity: 4) { limbs in
                    MontgomeryField.store(scalar, into: limbs, limbCount: 4)
                    let negated = withUnsafePointer(to: &order) {
                        $0.withMemoryRebound(to: Limb.self, capacity: 4) {
                            emrtd_regular_digits4(digits.baseAddress, limbs, $0, Int32(width), Int32(windows))
                        }
                    }
                    limbs.update(repeating: 0, count: 4)
                    return body(UnsafeBufferPointer(digits), negated)
                }
            }
        }
    }

    // MARK: Public scalars

    static func oddMultiplesAffine(_ point: UnsafePointer<Limb>, count: Int) -> LimbBuffer {
        let table = Self.oddMultiplesJacobian(point, count: count)
        let jacobian = (0..<count).map { index in
            let entry = table.pointer + index * 12
            return JacobianPoint4(x: FieldElement4(entry), y: FieldElement4(entry + 4), z: FieldElement4(entry + 8))
        }
        // Montgomery's trick: one inversion for all the Z.
        var prefix = [FieldElement4](repeating: .zero, count: count)
        prefix[0] = jacobian[0].z
        for index in 1..<count { prefix[index] = F.multiply(prefix[index - 1], jacobian[index].z) }
        var inverse = F.invertPublic(prefix[count - 1])
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

    /// Σ kᵢ·Pᵢ in Jacobian form, nil for infinity: the whole wNAF loop in one C call (a Swift call per
    /// doubling run and addition cost about 4 % of a multiplication), the digits of all terms
    /// concatenated.
    static func accumulatePublic(_ terms: [ScalarMultiplier.Term]) -> JacobianPoint4? {
        let digits = terms.flatMap(\.digits)
        let lengths = terms.map { Int32($0.digits.count) }
        let tables: [UnsafePointer<Limb>?] = terms.map(\.table)
        var q = JacobianPoint4(x: .zero, y: .zero, z: .zero)
        let finite = q.withLimbs { Prime.kernels.publicTerms($0, digits, lengths, tables, Int32(terms.count)) }
        return finite == 0 ? nil : q
    }

    static func multiplyPublic(_ r: Limbs, terms: [ScalarMultiplier.Term]) -> Bool {
        guard let q = accumulatePublic(terms) else { return false }
        storeAffine(r, q, publicValue: true)
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
        // Odd multiples P … (2·entries - 1)·P of the public point, Jacobian, 12 limbs each.
        let table = Self.oddMultiplesJacobian(point, count: entries)
        // The windows run in one C call: doublings, masked reads, signs, the last addition complete.
        var q = JacobianPoint4(x: .zero, y: .zero, z: .zero)
        let negated = withRegularDigits(scalar, width: width, windows: windows) { digits, negated in
            q.withLimbs {
                Prime.kernels.secretWindows(
                    $0, table.pointer, digits.baseAddress, Int32(windows), Int32(width), Int32(entries))
            }
            return negated
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
        // Window 0 lifts its entry; the others run in one C call (select, sign, mixed addition), the
        // addition complete in the top windows, which alone can meet the exceptional cases (partial
        // sums reaching the order).
        let firstComplete = min(windows, max(1, (multiplier.orderBits - 1 + width - 1) / width - 1))
        var q = JacobianPoint4(x: .zero, y: .zero, z: .zero)
        let negated = withRegularDigits(scalar, width: width, windows: windows) { digits, negated in
            let digit = digits[0]
            let magnitude = (digit ^ (digit >> 63)) - (digit >> 63)
            let (x, chosenY, _) = Self.secretEntry(
                table.points.pointer, count: entries, stride: 8, index: (magnitude - 1) / 2)
            let y = F.conditionallyNegate(chosenY, condition: Limb(truncatingIfNeeded: digit >> 63) & 1)
            q = Self.lift(x, y)
            q.withLimbs {
                Prime.kernels.fixedWindows(
                    $0, table.points.pointer, digits.baseAddress, 1, Int32(windows), Int32(firstComplete),
                    Int32(entries))
            }
            return negated
        }
        q.y = F.conditionallyNegate(q.y, condition: negated)
        if q.z.isZeroMask == 1 { return false }
        Self.storeAffine(r, q)
        return true
    }
}

/// Which of `CFieldKernels`' two kernels serves P-256 and P-224: MULX/ADX when CPUID reports BMI2
/// and ADX (chosen when the library loads), else the portable one. Tests run both.
enum FieldKernelChoice {
    static var usesADX: Bool { emrtd_field_kernel_is_adx() != 0 }

    /// Selects MULX/ADX (when the CPU has it) or the portable kernel, process-wide; returns whether
    /// MULX/ADX served before.
    @discardableResult
    static func select(adx: Bool) -> Bool { emrtd_field_select_kernel(adx ? 1 : 0) != 0 }
}
