import CFieldKernels
import CGMP

/// Scalar multiplication on a curve whose points of interest have prime order `order`.
///
/// Public scalars (signature verification): interleaved width-w NAF over affine tables of odd
/// multiples, variable time. Secret scalars: the regular signed-digit recoding (`ScalarRecoding`),
/// a fixed number of doublings and additions whatever the scalar, table entries read with GMP's
/// `mpn_sec_tabselect` (every entry touched) and negated with masks.
final class ScalarMultiplier: @unchecked Sendable {
    let curve: JacobianArithmetic
    let order: BigInt
    let orderBits: Int
    /// Width of the regular recoding for variable-base secret scalars.
    let regularWidth = 5
    /// Whether `multiplyPublic` runs in C (`emrtd_montgomery_public_terms`): Montgomery fields of 3–8
    /// limbs and a = -3 (Brainpool's twins, P-192); calling the field through Swift for every
    /// operation made Brainpool's variable-base multiplications 1.7–2.5× OpenSSL's, not 3×.
    let publicTermsInC: Bool

    init(curve: JacobianArithmetic, order: BigInt) {
        self.curve = curve
        self.order = order
        orderBits = order.bitWidth
        publicTermsInC = curve.aIsMinusThree && (3...8).contains(curve.limbCount) && !curve.field.isPlainP521
    }

    private var n: Int { curve.limbCount }

    // MARK: Tables

    /// `count` odd multiples P, 3P, 5P, … of the affine point P, in Jacobian form.
    func oddMultiplesJacobian(_ point: UnsafePointer<Limb>, count: Int, _ w: Workspace) -> LimbBuffer {
        let size = curve.jacobianLimbs
        let table = LimbBuffer(count: count * size)
        curve.lift(table.pointer, point)
        guard count > 1 else { return table }
        let twice = LimbBuffer(count: size)
        curve.double(twice.pointer, table.pointer, w)
        for index in 1..<count {
            curve.addPublic(table.pointer + index * size, table.pointer + (index - 1) * size, twice.pointer, w)
        }
        return table
    }

    /// `count` odd multiples of the affine point P, in affine form (public points only).
    func oddMultiplesAffine(_ point: UnsafePointer<Limb>, count: Int, _ w: Workspace) -> LimbBuffer {
        let jacobian = oddMultiplesJacobian(point, count: count, w)
        let affine = LimbBuffer(count: count * curve.affineLimbs)
        curve.normalizeBatch(affine.pointer, jacobian.pointer, count: count, w)
        return affine
    }

    // MARK: Public scalars

    /// One term k·P of a multi-scalar multiplication: the wNAF digits of k and the affine odd multiples
    /// of P (at least 2^(width-2) of them).
    struct Term {
        let digits: [Int8]
        let table: UnsafePointer<Limb>
    }

    /// r = Σ kᵢ·Pᵢ (Jacobian), variable time: one doubling chain shared by all terms.
    func multiplyPublic(_ r: Limbs, terms: [Term], _ w: Workspace) {
        if publicTermsInC {
            let f = curve.field
            let finite = emrtd_montgomery_public_terms(
                Int32(n), r, terms.flatMap(\.digits), terms.map { Int32($0.digits.count) },
                terms.map { Optional($0.table) }, Int32(terms.count), f.p, f.negativeInverse, f.one)
            if finite != 1 { curve.setInfinity(r) }
            return
        }
        curve.setInfinity(r)
        let length = terms.map(\.digits.count).max() ?? 0
        let negated = LimbBuffer(count: curve.affineLimbs)
        let s = w.scratch
        for position in stride(from: length - 1, through: 0, by: -1) {
            if !curve.isInfinity(r) { curve.double(r, r, w) }
            for term in terms where position < term.digits.count {
                let digit = Int(term.digits[position])
                guard digit != 0 else { continue }
                let entry = term.table + ((abs(digit) - 1) / 2) * curve.affineLimbs
                if digit > 0 {
                    curve.mixedAddPublic(r, r, entry, w)
                } else {
                    negated.pointer.update(from: entry, count: curve.affineLimbs)
                    curve.field.conditionallyNegate(negated.pointer + n, condition: 1, scratch: s)
                    curve.mixedAddPublic(r, r, negated.pointer, w)
                }
            }
        }
    }

    // MARK: Secret scalars

    /// The scalar as limbs, made odd: k if k is odd, else order - k (the caller negates the result).
    /// Returns the limbs and 1 when negated, with no branch on k. Requires 0 < k < order.
    func oddScalar(_ scalar: BigInt) -> (limbs: [Limb], negated: Limb) {
        let count = (orderBits + 63) / 64
        var k = ScalarRecoding.limbs(of: scalar, count: count)
        var complement = ScalarRecoding.limbs(of: order, count: count)
        let even = (k[0] & 1) ^ 1
        k.withUnsafeMutableBufferPointer { kBuffer in
            complement.withUnsafeMutableBufferPointer { cBuffer in
                guard let kBase = kBuffer.baseAddress, let cBase = cBuffer.baseAddress else { return }
                _ = __gmpn_sub_n(cBase, cBase, kBase, count)
                __gmpn_cnd_swap(even, kBase, cBase, count)
                cBase.update(repeating: 0, count: count)
            }
        }
        return (k, even)
    }

    /// r = `condition` ? T : r for Jacobian points, by masked swap.
    @inline(__always)
    private func select(_ r: Limbs, _ t: Limbs, condition: Limb) {
        __gmpn_cnd_swap(condition, r, t, curve.jacobianLimbs)
    }

    /// r = q + t (q Jacobian, t Jacobian or affine) for every input, without branching: q = t doubles,
    /// q = -t gives infinity, q = infinity gives t. `spare` holds 3n limbs.
    private func completeAdd(
        _ r: Limbs, _ q: Limbs, _ t: UnsafePointer<Limb>, affine: Bool, spare: Limbs, _ w: Workspace
    ) {
        let qInfinity = curve.field.isZeroMask(q + 2 * n)
        let (hZero, rZero) = affine ? curve.mixedAddCore(q, t, w) : curve.addCore(q, t, w)
        curve.commitSum(r, w)
        // t as Jacobian, doubled, for the q = t case.
        if affine { curve.lift(spare, t) } else { spare.update(from: t, count: curve.jacobianLimbs) }
        // Temporaries 14–16 hold 2t (doubling itself uses 0–8).
        curve.double(w.temporary(14), spare, w)
        select(r, w.temporary(14), condition: hZero & rZero & (qInfinity ^ 1))
        select(r, spare, condition: qInfinity)
    }

    /// k·P for a secret scalar 0 < k < order and an affine point P of order `order`; the result in
    /// affine form is written to `r` (2n limbs). Regular: ⌈bits/5⌉ windows, each five doublings and one
    /// addition of a table entry chosen in constant time.
    func multiplySecret(_ r: Limbs, point: UnsafePointer<Limb>, scalar: BigInt) -> Bool {
        let w = Workspace(limbCount: n)
        let width = regularWidth
        let entries = 1 << (width - 1)
        let windows = (orderBits + width - 1) / width
        let (k, negated) = oddScalar(scalar)
        var digits = [Int](repeating: 0, count: windows)
        ScalarRecoding.regularDigits(oddScalar: k, width: width, windows: windows, into: &digits)
        let table = oddMultiplesJacobian(point, count: entries, w)
        let size = curve.jacobianLimbs
        let accumulator = LimbBuffer(count: size)
        let entry = LimbBuffer(count: size)
        let spare = LimbBuffer(count: size)
        let q = accumulator.pointer
        let s = w.scratch
        defer { digits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }

        __gmpn_sec_tabselect(q, table.pointer, size, entries, (digits[windows - 1] - 1) / 2)
        for index in stride(from: windows - 2, through: 0, by: -1) {
            for _ in 0..<width { curve.double(q, q, w) }
            let digit = digits[index]
            let sign = Limb(truncatingIfNeeded: digit >> 63) & 1
            let magnitude = (digit ^ (digit >> 63)) - (digit >> 63)
            __gmpn_sec_tabselect(entry.pointer, table.pointer, size, entries, (magnitude - 1) / 2)
            curve.field.conditionallyNegate(entry.pointer + n, condition: sign, scratch: s)
            if index == 0 {
                completeAdd(q, q, entry.pointer, affine: false, spare: spare.pointer, w)
            } else {
                let (_, _) = curve.addCore(q, entry.pointer, w)
                curve.commitSum(q, w)
            }
        }
        curve.field.conditionallyNegate(q + n, condition: negated, scratch: s)
        if curve.isInfinity(q) { return false }
        curve.normalize(r, q, regular: true, w)
        return true
    }

    // MARK: Fixed base

    /// Precomputed multiples of a fixed point for `multiplyFixed`: for window i and j < 2^(w-1), the
    /// affine point (2j+1)·2^(w·i)·P.
    final class FixedBaseTable: @unchecked Sendable {
        let width: Int
        let windows: Int
        let points: LimbBuffer

        init(width: Int, windows: Int, points: LimbBuffer) {
            self.width = width
            self.windows = windows
            self.points = points
        }
    }

    func fixedBaseTable(for point: UnsafePointer<Limb>, width: Int) -> FixedBaseTable {
        let w = Workspace(limbCount: n)
        let windows = (orderBits + width - 1) / width
        let entries = 1 << (width - 1)
        let size = curve.jacobianLimbs
        let jacobian = LimbBuffer(count: windows * entries * size)
        let base = LimbBuffer(count: size)
        let baseAffine = LimbBuffer(count: curve.affineLimbs)
        curve.lift(base.pointer, point)
        for window in 0..<windows {
            if window > 0 {
                for _ in 0..<width { curve.double(base.pointer, base.pointer, w) }
            }
            curve.normalize(baseAffine.pointer, base.pointer, regular: false, w)
            let multiples = oddMultiplesJacobian(baseAffine.pointer, count: entries, w)
            (jacobian.pointer + window * entries * size).update(from: multiples.pointer, count: entries * size)
        }
        let affine = LimbBuffer(count: windows * entries * curve.affineLimbs)
        curve.normalizeBatch(affine.pointer, jacobian.pointer, count: windows * entries, w)
        return FixedBaseTable(width: width, windows: windows, points: affine)
    }

    /// k·P for the fixed point P of `table` and a secret 0 < k < order, regular: one mixed addition per
    /// window and no doubling. The affine result goes to `r`; false when it is infinity.
    func multiplyFixed(_ r: Limbs, table: FixedBaseTable, scalar: BigInt) -> Bool {
        let w = Workspace(limbCount: n)
        let width = table.width
        let windows = table.windows
        let entries = 1 << (width - 1)
        let entryLimbs = curve.affineLimbs
        let (k, negated) = oddScalar(scalar)
        var digits = [Int](repeating: 0, count: windows)
        ScalarRecoding.regularDigits(oddScalar: k, width: width, windows: windows, into: &digits)
        defer { digits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let q = LimbBuffer(count: curve.jacobianLimbs)
        let entry = LimbBuffer(count: entryLimbs)
        let spare = LimbBuffer(count: curve.jacobianLimbs)
        let s = w.scratch

        for index in 0..<windows {
            let digit = digits[index]
            let sign = Limb(truncatingIfNeeded: digit >> 63) & 1
            let magnitude = (digit ^ (digit >> 63)) - (digit >> 63)
            let windowTable = table.points.pointer + index * entries * entryLimbs
            __gmpn_sec_tabselect(entry.pointer, windowTable, entryLimbs, entries, (magnitude - 1) / 2)
            curve.field.conditionallyNegate(entry.pointer + n, condition: sign, scratch: s)
            if index == 0 {
                curve.lift(q.pointer, entry.pointer)
            } else if width * (index + 1) >= orderBits - 1 {
                // Only the top windows can meet the exceptional cases (partial sums reach the order).
                completeAdd(q.pointer, q.pointer, entry.pointer, affine: true, spare: spare.pointer, w)
            } else {
                let (_, _) = curve.mixedAddCore(q.pointer, entry.pointer, w)
                curve.commitSum(q.pointer, w)
            }
        }
        curve.field.conditionallyNegate(q.pointer + n, condition: negated, scratch: s)
        if curve.isInfinity(q.pointer) { return false }
        curve.normalize(r, q.pointer, regular: true, w)
        return true
    }
}
