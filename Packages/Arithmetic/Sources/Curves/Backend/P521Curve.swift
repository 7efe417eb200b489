import CFieldKernels

/// The dedicated arithmetic of P-521 (y² = x³ - 3x + b over 2^521 - 1): every scalar multiplication
/// runs in C (`P521.c`) on nine unsaturated 58-bit limbs, the form of OpenSSL's ecp_nistp521, kept for
/// the whole multiplication. The generic back end's Comba products on saturated limbs, called through
/// `MontgomeryField`, left P-521 at about half of OpenSSL's speed. Points enter and leave as the generic
/// back end's affine limbs (plain, nine 64-bit limbs per coordinate), so its generator tables serve both.
final class P521Curve: DedicatedCurveArithmetic, @unchecked Sendable {
    private let multiplier: ScalarMultiplier
    /// Window of the regular recoding for a variable base: 5 bits (16 Jacobian entries, 104
    /// additions) measured faster than 4 or 6.
    static let secretWidth = 5

    /// 1 when the generic field keeps P-521 in Montgomery form (debug builds, GMP kernels) rather than
    /// plain; the C code converts at its boundary.
    private let montgomery: Int32

    init(multiplier: ScalarMultiplier) {
        self.multiplier = multiplier
        montgomery = multiplier.curve.field.isPlainP521 ? 0 : 1
    }

    /// Whether the curve is P-521's shape: its prime, a = -3, no isomorphism in between.
    static func serves(p: BigInt, a: BigInt, isomorphism: CurveIsomorphism?) -> Bool {
        isomorphism == nil && MersenneP521.isModulus(p) && a == p - BigInt(3)
    }

    /// Σ kᵢ·Pᵢ into `q` (27 limbs, C's Jacobian form); false for infinity. Variable time; the doublings
    /// between two non-zero digits run in one C call.
    private func accumulatePublic(_ q: Limbs, terms: [ScalarMultiplier.Term]) -> Bool {
        var isInfinity = true
        var pendingDoublings: Int32 = 0
        var masks: (Limb, Limb) = (0, 0)
        let saved = LimbBuffer(count: Int(EMRTD_P521_POINT_LIMBS))
        let length = terms.map(\.digits.count).max() ?? 0
        for position in stride(from: length - 1, through: 0, by: -1) {
            if !isInfinity { pendingDoublings += 1 }
            for term in terms where position < term.digits.count {
                let digit = Int(term.digits[position])
                guard digit != 0 else { continue }
                if pendingDoublings > 0 {
                    emrtd_p521_point_double(q, pendingDoublings)
                    pendingDoublings = 0
                }
                let entry = term.table + ((abs(digit) - 1) / 2) * 18
                let negate: Int32 = digit < 0 ? 1 : 0
                if isInfinity {
                    emrtd_p521_point_lift(q, entry, negate, montgomery)
                    isInfinity = false
                    continue
                }
                saved.pointer.update(from: q, count: Int(EMRTD_P521_POINT_LIMBS))
                withUnsafeMutablePointer(to: &masks) {
                    $0.withMemoryRebound(to: Limb.self, capacity: 2) {
                        emrtd_p521_point_add_affine(q, entry, negate, $0, montgomery)
                    }
                }
                if masks.0 == 1 {
                    // Equal x: the sum of equal points is a doubling, of opposite ones infinity.
                    if masks.1 == 1 {
                        q.update(from: saved.pointer, count: Int(EMRTD_P521_POINT_LIMBS))
                        emrtd_p521_point_double(q, 1)
                    } else {
                        isInfinity = true
                    }
                }
            }
        }
        if isInfinity { return false }
        if pendingDoublings > 0 { emrtd_p521_point_double(q, pendingDoublings) }
        return emrtd_p521_point_is_infinity(q) == 0
    }

    func multiplyPublic(_ r: Limbs, terms: [ScalarMultiplier.Term]) -> Bool {
        let q = LimbBuffer(count: Int(EMRTD_P521_POINT_LIMBS))
        guard accumulatePublic(q.pointer, terms: terms) else { return false }
        return emrtd_p521_point_to_affine(r, q.pointer, montgomery) == 1
    }

    func publicCombinationHasX(in candidates: UnsafePointer<Limb>, count: Int, terms: [ScalarMultiplier.Term]) -> Bool {
        let q = LimbBuffer(count: Int(EMRTD_P521_POINT_LIMBS))
        guard accumulatePublic(q.pointer, terms: terms) else { return false }
        return (0..<count).contains { emrtd_p521_point_has_x(q.pointer, candidates + 9 * $0, montgomery) == 1 }
    }

    func oddMultiplesAffine(_ point: UnsafePointer<Limb>, count: Int) -> LimbBuffer {
        let affine = LimbBuffer(count: count * 18)
        let scratch = LimbBuffer(count: count * 36)
        emrtd_p521_odd_multiples(affine.pointer, point, Int32(count), scratch.pointer, montgomery)
        return affine
    }

    /// The scalar made odd (`ScalarMultiplier.oddScalar`) and recoded into `windows` regular digits.
    private func regularDigits(_ scalar: BigInt, width: Int, windows: Int) -> (digits: [Int], negated: Limb) {
        let (k, negated) = multiplier.oddScalar(scalar)
        var digits = [Int](repeating: 0, count: windows)
        ScalarRecoding.regularDigits(oddScalar: k, width: width, windows: windows, into: &digits)
        return (digits, negated)
    }

    func multiplySecret(_ r: Limbs, point: UnsafePointer<Limb>, scalar: BigInt) -> Bool {
        let width = Self.secretWidth
        let windows = (multiplier.orderBits + width - 1) / width
        var (digits, negated) = regularDigits(scalar, width: width, windows: windows)
        defer { digits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        return digits.withUnsafeBufferPointer {
            emrtd_p521_multiply_secret(
                r, point, $0.baseAddress, Int32(windows), Int32(width), Int32(negated), montgomery)
        } == 1
    }

    func multiplyFixed(_ r: Limbs, table: ScalarMultiplier.FixedBaseTable, scalar: BigInt) -> Bool {
        var (digits, negated) = regularDigits(scalar, width: table.width, windows: table.windows)
        defer { digits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        return digits.withUnsafeBufferPointer {
            emrtd_p521_multiply_fixed(
                r, table.points.pointer, $0.baseAddress, Int32(table.windows), Int32(table.width),
                Int32(multiplier.orderBits), Int32(negated), montgomery)
        } == 1
    }
}
