import CGMP

/// Point arithmetic on y² = x³ + ax + b over a `MontgomeryField`, in Jacobian coordinates
/// (x = X/Z², y = Y/Z³; Z = 0 is the point at infinity). A Jacobian point is 3n contiguous limbs
/// (X, Y, Z), an affine point 2n limbs (x, y), all in Montgomery form.
///
/// Formulas from the Explicit-Formulas Database: dbl-2007-bl (any a), dbl-2001-b (a = -3),
/// add-2007-bl and madd-2007-bl. The `…Core` functions compute into workspace temporaries and report
/// the exceptional cases (H = 0, r = 0) as masks, so callers either branch on them (public data) or
/// select with masks (secret data).
final class JacobianArithmetic: @unchecked Sendable {
    let field: MontgomeryField
    let limbCount: Int
    /// a and b in Montgomery form.
    let a: LimbBuffer
    let b: LimbBuffer
    let aIsMinusThree: Bool

    init(field: MontgomeryField, a: BigInt, b: BigInt) {
        self.field = field
        limbCount = field.limbCount
        self.a = LimbBuffer(count: limbCount)
        self.b = LimbBuffer(count: limbCount)
        let workspace = Workspace(limbCount: limbCount, temporaries: 0)
        field.load(a, into: self.a.pointer, scratch: workspace.scratch)
        field.load(b, into: self.b.pointer, scratch: workspace.scratch)
        aIsMinusThree = a == field.modulus - BigInt(3)
    }

    var jacobianLimbs: Int { 3 * limbCount }
    var affineLimbs: Int { 2 * limbCount }

    // MARK: Doubling

    /// r = 2·q (Jacobian). r may alias q. Infinity and points of order 2 give Z = 0.
    func double(_ r: Limbs, _ q: UnsafePointer<Limb>, _ w: Workspace) {
        let f = field
        let n = limbCount
        let s = w.scratch
        let x = q
        let y = q + n
        let z = q + 2 * n
        let t0 = w.temporary(0)
        let t1 = w.temporary(1)
        let t2 = w.temporary(2)
        let t3 = w.temporary(3)
        let t4 = w.temporary(4)
        let t5 = w.temporary(5)
        let t6 = w.temporary(6)
        let t7 = w.temporary(7)
        let t8 = w.temporary(8)
        if aIsMinusThree {
            f.square(t0, z, scratch: s)  // delta
            f.square(t1, y, scratch: s)  // gamma
            f.multiply(t2, x, t1, scratch: s)  // beta
            f.subtract(t3, x, t0)
            f.add(t4, x, t0, scratch: s)
            f.multiply(t3, t3, t4, scratch: s)
            f.add(t4, t3, t3, scratch: s)
            f.add(t4, t4, t3, scratch: s)  // alpha
            f.add(t5, y, z, scratch: s)
            f.square(t5, t5, scratch: s)
            f.subtract(t5, t5, t1)
            f.subtract(t5, t5, t0)  // Z3
            f.square(t6, t4, scratch: s)
            f.add(t7, t2, t2, scratch: s)
            f.add(t7, t7, t7, scratch: s)  // 4·beta
            f.add(t8, t7, t7, scratch: s)
            f.subtract(t6, t6, t8)  // X3
            f.subtract(t7, t7, t6)
            f.multiply(t7, t4, t7, scratch: s)
            f.square(t1, t1, scratch: s)
            f.add(t1, t1, t1, scratch: s)
            f.add(t1, t1, t1, scratch: s)
            f.add(t1, t1, t1, scratch: s)
            f.subtract(t7, t7, t1)  // Y3
            r.update(from: t6, count: n)
            (r + n).update(from: t7, count: n)
            (r + 2 * n).update(from: t5, count: n)
        } else {
            f.square(t0, x, scratch: s)  // XX
            f.square(t1, y, scratch: s)  // YY
            f.square(t2, t1, scratch: s)  // YYYY
            f.square(t3, z, scratch: s)  // ZZ
            f.add(t4, x, t1, scratch: s)
            f.square(t4, t4, scratch: s)
            f.subtract(t4, t4, t0)
            f.subtract(t4, t4, t2)
            f.add(t4, t4, t4, scratch: s)  // S
            f.square(t5, t3, scratch: s)
            f.multiply(t5, a.pointer, t5, scratch: s)
            f.add(t6, t0, t0, scratch: s)
            f.add(t6, t6, t0, scratch: s)
            f.add(t5, t5, t6, scratch: s)  // M
            f.square(t6, t5, scratch: s)
            f.add(t7, t4, t4, scratch: s)
            f.subtract(t6, t6, t7)  // X3 = T
            f.add(t8, y, z, scratch: s)
            f.square(t8, t8, scratch: s)
            f.subtract(t8, t8, t1)
            f.subtract(t8, t8, t3)  // Z3
            f.subtract(t7, t4, t6)
            f.multiply(t7, t5, t7, scratch: s)
            f.add(t2, t2, t2, scratch: s)
            f.add(t2, t2, t2, scratch: s)
            f.add(t2, t2, t2, scratch: s)
            f.subtract(t7, t7, t2)  // Y3
            r.update(from: t6, count: n)
            (r + n).update(from: t7, count: n)
            (r + 2 * n).update(from: t8, count: n)
        }
    }

    // MARK: Addition

    /// Temporaries 11, 12, 13 receive X3, Y3, Z3 of q1 + q2 (Jacobian + Jacobian), valid unless a mask
    /// is set: `hZero` (same x) with `rZero` (same y) means q1 = q2, `hZero` alone means q1 = -q2
    /// (then Z3 = 0 already). Neither input may be infinity.
    @inline(__always)
    func addCore(_ q1: UnsafePointer<Limb>, _ q2: UnsafePointer<Limb>, _ w: Workspace) -> (hZero: Limb, rZero: Limb) {
        let f = field
        let n = limbCount
        let s = w.scratch
        let (x1, y1, z1) = (q1, q1 + n, q1 + 2 * n)
        let (x2, y2, z2) = (q2, q2 + n, q2 + 2 * n)
        let t0 = w.temporary(0)
        let t1 = w.temporary(1)
        let t2 = w.temporary(2)
        let t3 = w.temporary(3)
        let t4 = w.temporary(4)
        let t5 = w.temporary(5)
        let t6 = w.temporary(6)
        let t7 = w.temporary(7)
        let t8 = w.temporary(8)
        let t9 = w.temporary(9)
        let t10 = w.temporary(10)
        let t11 = w.temporary(11)
        let t12 = w.temporary(12)
        let t13 = w.temporary(13)
        f.square(t0, z1, scratch: s)  // Z1Z1
        f.square(t1, z2, scratch: s)  // Z2Z2
        f.multiply(t2, x1, t1, scratch: s)  // U1
        f.multiply(t3, x2, t0, scratch: s)  // U2
        f.multiply(t4, y1, z2, scratch: s)
        f.multiply(t4, t4, t1, scratch: s)  // S1
        f.multiply(t5, y2, z1, scratch: s)
        f.multiply(t5, t5, t0, scratch: s)  // S2
        f.subtract(t6, t3, t2)  // H
        f.add(t7, t6, t6, scratch: s)
        f.square(t7, t7, scratch: s)  // I
        f.multiply(t8, t6, t7, scratch: s)  // J
        f.subtract(t9, t5, t4)
        f.add(t9, t9, t9, scratch: s)  // r
        f.multiply(t10, t2, t7, scratch: s)  // V
        f.square(t11, t9, scratch: s)
        f.subtract(t11, t11, t8)
        f.subtract(t11, t11, t10)
        f.subtract(t11, t11, t10)  // X3
        f.subtract(t12, t10, t11)
        f.multiply(t12, t9, t12, scratch: s)
        f.multiply(t13, t4, t8, scratch: s)
        f.add(t13, t13, t13, scratch: s)
        f.subtract(t12, t12, t13)  // Y3
        f.add(t13, z1, z2, scratch: s)
        f.square(t13, t13, scratch: s)
        f.subtract(t13, t13, t0)
        f.subtract(t13, t13, t1)
        f.multiply(t13, t13, t6, scratch: s)  // Z3
        return (f.isZeroMask(t6), f.isZeroMask(t9))
    }

    /// As `addCore` for q1 (Jacobian, not infinity) + q2 (affine).
    @inline(__always)
    func mixedAddCore(_ q1: UnsafePointer<Limb>, _ q2: UnsafePointer<Limb>, _ w: Workspace) -> (
        hZero: Limb, rZero: Limb
    ) {
        let f = field
        let n = limbCount
        let s = w.scratch
        let (x1, y1, z1) = (q1, q1 + n, q1 + 2 * n)
        let (x2, y2) = (q2, q2 + n)
        let t0 = w.temporary(0)
        let t1 = w.temporary(1)
        let t2 = w.temporary(2)
        let t3 = w.temporary(3)
        let t4 = w.temporary(4)
        let t5 = w.temporary(5)
        let t6 = w.temporary(6)
        let t7 = w.temporary(7)
        let t8 = w.temporary(8)
        let x3 = w.temporary(11)
        let y3 = w.temporary(12)
        let z3 = w.temporary(13)
        f.square(t0, z1, scratch: s)  // Z1Z1
        f.multiply(t1, x2, t0, scratch: s)  // U2
        f.multiply(t2, y2, z1, scratch: s)
        f.multiply(t2, t2, t0, scratch: s)  // S2
        f.subtract(t3, t1, x1)  // H
        f.square(t4, t3, scratch: s)  // HH
        f.add(t5, t4, t4, scratch: s)
        f.add(t5, t5, t5, scratch: s)  // I
        f.multiply(t6, t3, t5, scratch: s)  // J
        f.subtract(t7, t2, y1)
        f.add(t7, t7, t7, scratch: s)  // r
        f.multiply(t8, x1, t5, scratch: s)  // V
        f.square(x3, t7, scratch: s)
        f.subtract(x3, x3, t6)
        f.subtract(x3, x3, t8)
        f.subtract(x3, x3, t8)
        f.subtract(y3, t8, x3)
        f.multiply(y3, t7, y3, scratch: s)
        f.multiply(t1, y1, t6, scratch: s)
        f.add(t1, t1, t1, scratch: s)
        f.subtract(y3, y3, t1)
        f.add(z3, z1, t3, scratch: s)
        f.square(z3, z3, scratch: s)
        f.subtract(z3, z3, t0)
        f.subtract(z3, z3, t4)
        return (f.isZeroMask(t3), f.isZeroMask(t7))
    }

    @inline(__always)
    func commitSum(_ r: Limbs, _ w: Workspace) {
        let n = limbCount
        r.update(from: w.temporary(11), count: n)
        (r + n).update(from: w.temporary(12), count: n)
        (r + 2 * n).update(from: w.temporary(13), count: n)
    }

    // MARK: Public-data helpers (branching allowed)

    func isInfinity(_ q: UnsafePointer<Limb>) -> Bool { field.isZeroMask(q + 2 * limbCount) == 1 }

    func setInfinity(_ r: Limbs) {
        let n = limbCount
        r.update(from: field.one, count: n)
        (r + n).update(from: field.one, count: n)
        (r + 2 * n).update(repeating: 0, count: n)
    }

    /// Jacobian form of an affine point (Z = 1).
    func lift(_ r: Limbs, _ affine: UnsafePointer<Limb>) {
        let n = limbCount
        r.update(from: affine, count: 2 * n)
        (r + 2 * n).update(from: field.one, count: n)
    }

    /// r = q1 + q2 for public points, any of them possibly infinity. r may alias either.
    func addPublic(_ r: Limbs, _ q1: UnsafePointer<Limb>, _ q2: UnsafePointer<Limb>, _ w: Workspace) {
        if isInfinity(q1) {
            r.update(from: q2, count: jacobianLimbs)
            return
        }
        if isInfinity(q2) {
            if UnsafePointer(r) != q1 { r.update(from: q1, count: jacobianLimbs) }
            return
        }
        let (hZero, rZero) = addCore(q1, q2, w)
        if hZero == 1 {
            if rZero == 1 { double(r, q1, w) } else { setInfinity(r) }
            return
        }
        commitSum(r, w)
    }

    /// r = q1 + q2 with q1 Jacobian (possibly infinity) and q2 affine, for public points.
    func mixedAddPublic(_ r: Limbs, _ q1: UnsafePointer<Limb>, _ q2: UnsafePointer<Limb>, _ w: Workspace) {
        if isInfinity(q1) {
            lift(r, q2)
            return
        }
        let (hZero, rZero) = mixedAddCore(q1, q2, w)
        if hZero == 1 {
            if rZero == 1 { double(r, q1, w) } else { setInfinity(r) }
            return
        }
        commitSum(r, w)
    }

    // MARK: Conversions

    /// Affine (x, y) of a Jacobian point that is not infinity; `regular` chooses the constant-time
    /// inversion (for points derived from secret scalars).
    func normalize(_ r: Limbs, _ q: UnsafePointer<Limb>, regular: Bool, _ w: Workspace) {
        let f = field
        let n = limbCount
        let s = w.scratch
        let zInverse = w.temporary(20)
        let zInverse2 = w.temporary(21)
        if regular {
            f.invertRegular(zInverse, q + 2 * n, scratch: s)
        } else {
            f.invertPublic(zInverse, q + 2 * n, scratch: s)
        }
        f.square(zInverse2, zInverse, scratch: s)
        f.multiply(r, q, zInverse2, scratch: s)
        f.multiply(zInverse2, zInverse2, zInverse, scratch: s)
        f.multiply(r + n, q + n, zInverse2, scratch: s)
    }

    /// Converts `count` Jacobian points (none infinity), stored back to back, into affine points stored
    /// back to back, with one public inversion (Montgomery's trick). For tables of public points.
    func normalizeBatch(_ affine: Limbs, _ jacobian: UnsafePointer<Limb>, count: Int, _ w: Workspace) {
        guard count > 0 else { return }
        let f = field
        let n = limbCount
        let s = w.scratch
        let prefix = LimbBuffer(count: count * n)
        let z = { (index: Int) in jacobian + index * 3 * n + 2 * n }
        prefix.pointer.update(from: z(0), count: n)
        for index in 1..<count {
            f.multiply(prefix.pointer + index * n, prefix.pointer + (index - 1) * n, z(index), scratch: s)
        }
        let inverse = w.temporary(20)
        let zInverse = w.temporary(21)
        let zInverse2 = w.temporary(22)
        f.invertPublic(inverse, prefix.pointer + (count - 1) * n, scratch: s)
        for index in stride(from: count - 1, through: 0, by: -1) {
            if index > 0 {
                f.multiply(zInverse, inverse, prefix.pointer + (index - 1) * n, scratch: s)
                f.multiply(inverse, inverse, z(index), scratch: s)
            } else {
                zInverse.update(from: inverse, count: n)
            }
            let point = jacobian + index * 3 * n
            let output = affine + index * 2 * n
            f.square(zInverse2, zInverse, scratch: s)
            f.multiply(output, point, zInverse2, scratch: s)
            f.multiply(zInverse2, zInverse2, zInverse, scratch: s)
            f.multiply(output + n, point + n, zInverse2, scratch: s)
        }
    }
}
