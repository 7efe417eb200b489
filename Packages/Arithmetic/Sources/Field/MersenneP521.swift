/// Multiplication modulo the Mersenne prime p = 2^521 - 1 of P-521 in plain representation (no
/// Montgomery factor): the 18-limb product folds onto itself, since 2^521 ≡ 1, at the cost of a few
/// shifts and additions instead of the 81 multiplications of a Montgomery reduction. Straight-line
/// code with no branch on the values: regular for secrets.
enum MersenneP521 {
    static let limbCount = 9
    private static let topMask: Limb = 0x1FF

    static func isModulus(_ p: BigInt) -> Bool { p == (BigInt(1) << 521) - BigInt(1) }

    /// r = a·b mod p, fully reduced; r may alias a or b. Product scanning (Comba): each column's
    /// products are summed in registers (a 128-bit sum and a 64-bit overflow count), so no partial
    /// product goes through memory before the fold.
    @inline(__always)
    static func multiply(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>) {
        let (a0, a1, a2, a3, a4, a5, a6, a7, a8) = (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8])
        let (b0, b1, b2, b3, b4, b5, b6, b7, b8) = (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8])
        var sum: UInt128 = 0
        var top: Limb = 0
        accumulate(&sum, &top, a0, b0)
        let t0 = next(&sum, &top)
        accumulate(&sum, &top, a0, b1)
        accumulate(&sum, &top, a1, b0)
        let t1 = next(&sum, &top)
        accumulate(&sum, &top, a0, b2)
        accumulate(&sum, &top, a1, b1)
        accumulate(&sum, &top, a2, b0)
        let t2 = next(&sum, &top)
        accumulate(&sum, &top, a0, b3)
        accumulate(&sum, &top, a1, b2)
        accumulate(&sum, &top, a2, b1)
        accumulate(&sum, &top, a3, b0)
        let t3 = next(&sum, &top)
        accumulate(&sum, &top, a0, b4)
        accumulate(&sum, &top, a1, b3)
        accumulate(&sum, &top, a2, b2)
        accumulate(&sum, &top, a3, b1)
        accumulate(&sum, &top, a4, b0)
        let t4 = next(&sum, &top)
        accumulate(&sum, &top, a0, b5)
        accumulate(&sum, &top, a1, b4)
        accumulate(&sum, &top, a2, b3)
        accumulate(&sum, &top, a3, b2)
        accumulate(&sum, &top, a4, b1)
        accumulate(&sum, &top, a5, b0)
        let t5 = next(&sum, &top)
        accumulate(&sum, &top, a0, b6)
        accumulate(&sum, &top, a1, b5)
        accumulate(&sum, &top, a2, b4)
        accumulate(&sum, &top, a3, b3)
        accumulate(&sum, &top, a4, b2)
        accumulate(&sum, &top, a5, b1)
        accumulate(&sum, &top, a6, b0)
        let t6 = next(&sum, &top)
        accumulate(&sum, &top, a0, b7)
        accumulate(&sum, &top, a1, b6)
        accumulate(&sum, &top, a2, b5)
        accumulate(&sum, &top, a3, b4)
        accumulate(&sum, &top, a4, b3)
        accumulate(&sum, &top, a5, b2)
        accumulate(&sum, &top, a6, b1)
        accumulate(&sum, &top, a7, b0)
        let t7 = next(&sum, &top)
        accumulate(&sum, &top, a0, b8)
        accumulate(&sum, &top, a1, b7)
        accumulate(&sum, &top, a2, b6)
        accumulate(&sum, &top, a3, b5)
        accumulate(&sum, &top, a4, b4)
        accumulate(&sum, &top, a5, b3)
        accumulate(&sum, &top, a6, b2)
        accumulate(&sum, &top, a7, b1)
        accumulate(&sum, &top, a8, b0)
        let t8 = next(&sum, &top)
        accumulate(&sum, &top, a1, b8)
        accumulate(&sum, &top, a2, b7)
        accumulate(&sum, &top, a3, b6)
        accumulate(&sum, &top, a4, b5)
        accumulate(&sum, &top, a5, b4)
        accumulate(&sum, &top, a6, b3)
        accumulate(&sum, &top, a7, b2)
        accumulate(&sum, &top, a8, b1)
        let t9 = next(&sum, &top)
        accumulate(&sum, &top, a2, b8)
        accumulate(&sum, &top, a3, b7)
        accumulate(&sum, &top, a4, b6)
        accumulate(&sum, &top, a5, b5)
        accumulate(&sum, &top, a6, b4)
        accumulate(&sum, &top, a7, b3)
        accumulate(&sum, &top, a8, b2)
        let t10 = next(&sum, &top)
        accumulate(&sum, &top, a3, b8)
        accumulate(&sum, &top, a4, b7)
        accumulate(&sum, &top, a5, b6)
        accumulate(&sum, &top, a6, b5)
        accumulate(&sum, &top, a7, b4)
        accumulate(&sum, &top, a8, b3)
        let t11 = next(&sum, &top)
        accumulate(&sum, &top, a4, b8)
        accumulate(&sum, &top, a5, b7)
        accumulate(&sum, &top, a6, b6)
        accumulate(&sum, &top, a7, b5)
        accumulate(&sum, &top, a8, b4)
        let t12 = next(&sum, &top)
        accumulate(&sum, &top, a5, b8)
        accumulate(&sum, &top, a6, b7)
        accumulate(&sum, &top, a7, b6)
        accumulate(&sum, &top, a8, b5)
        let t13 = next(&sum, &top)
        accumulate(&sum, &top, a6, b8)
        accumulate(&sum, &top, a7, b7)
        accumulate(&sum, &top, a8, b6)
        let t14 = next(&sum, &top)
        accumulate(&sum, &top, a7, b8)
        accumulate(&sum, &top, a8, b7)
        let t15 = next(&sum, &top)
        accumulate(&sum, &top, a8, b8)
        let t16 = next(&sum, &top)
        let t17 = Limb(truncatingIfNeeded: sum)
        fold(r, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17)
    }

    /// r = a² mod p, fully reduced; r may alias a. Each column's cross products once, the column
    /// doubled, then its square term and the carry from below added.
    @inline(__always)
    static func square(_ r: Limbs, _ a: UnsafePointer<Limb>) {
        let (a0, a1, a2, a3, a4, a5, a6, a7, a8) = (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8])
        var carry: UInt128 = 0
        var sum: UInt128 = 0
        var top: Limb = 0
        (sum, top) = (0, 0)
        double(&sum, &top)
        accumulate(&sum, &top, a0, a0)
        let t0 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a1)
        double(&sum, &top)
        let t1 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a2)
        double(&sum, &top)
        accumulate(&sum, &top, a1, a1)
        let t2 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a3)
        accumulate(&sum, &top, a1, a2)
        double(&sum, &top)
        let t3 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a4)
        accumulate(&sum, &top, a1, a3)
        double(&sum, &top)
        accumulate(&sum, &top, a2, a2)
        let t4 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a5)
        accumulate(&sum, &top, a1, a4)
        accumulate(&sum, &top, a2, a3)
        double(&sum, &top)
        let t5 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a6)
        accumulate(&sum, &top, a1, a5)
        accumulate(&sum, &top, a2, a4)
        double(&sum, &top)
        accumulate(&sum, &top, a3, a3)
        let t6 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a7)
        accumulate(&sum, &top, a1, a6)
        accumulate(&sum, &top, a2, a5)
        accumulate(&sum, &top, a3, a4)
        double(&sum, &top)
        let t7 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a0, a8)
        accumulate(&sum, &top, a1, a7)
        accumulate(&sum, &top, a2, a6)
        accumulate(&sum, &top, a3, a5)
        double(&sum, &top)
        accumulate(&sum, &top, a4, a4)
        let t8 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a1, a8)
        accumulate(&sum, &top, a2, a7)
        accumulate(&sum, &top, a3, a6)
        accumulate(&sum, &top, a4, a5)
        double(&sum, &top)
        let t9 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a2, a8)
        accumulate(&sum, &top, a3, a7)
        accumulate(&sum, &top, a4, a6)
        double(&sum, &top)
        accumulate(&sum, &top, a5, a5)
        let t10 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a3, a8)
        accumulate(&sum, &top, a4, a7)
        accumulate(&sum, &top, a5, a6)
        double(&sum, &top)
        let t11 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a4, a8)
        accumulate(&sum, &top, a5, a7)
        double(&sum, &top)
        accumulate(&sum, &top, a6, a6)
        let t12 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a5, a8)
        accumulate(&sum, &top, a6, a7)
        double(&sum, &top)
        let t13 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a6, a8)
        double(&sum, &top)
        accumulate(&sum, &top, a7, a7)
        let t14 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        accumulate(&sum, &top, a7, a8)
        double(&sum, &top)
        let t15 = next(&sum, &top, carry: &carry)
        (sum, top) = (0, 0)
        double(&sum, &top)
        accumulate(&sum, &top, a8, a8)
        let t16 = next(&sum, &top, carry: &carry)
        let t17 = Limb(truncatingIfNeeded: carry)
        fold(r, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17)
    }

    /// sum + top·2^128 += x·y.
    @inline(__always)
    private static func accumulate(_ sum: inout UInt128, _ top: inout Limb, _ x: Limb, _ y: Limb) {
        let (total, overflow) = sum.addingReportingOverflow(UInt128(x) &* UInt128(y))
        sum = total
        top &+= overflow ? 1 : 0
    }

    /// The column's low limb; the rest moves down one limb to start the next column.
    @inline(__always)
    private static func next(_ sum: inout UInt128, _ top: inout Limb) -> Limb {
        let low = Limb(truncatingIfNeeded: sum)
        sum = (sum >> 64) | (UInt128(top) << 64)
        top = 0
        return low
    }

    /// (sum, top) doubled: a column of cross products counts each twice.
    @inline(__always)
    private static func double(_ sum: inout UInt128, _ top: inout Limb) {
        top = top << 1 | Limb(truncatingIfNeeded: sum >> 127)
        sum <<= 1
    }

    /// The column plus the carry from below: its low limb, and the rest as the carry upwards.
    @inline(__always)
    private static func next(_ sum: inout UInt128, _ top: inout Limb, carry: inout UInt128) -> Limb {
        let (total, overflow) = sum.addingReportingOverflow(carry)
        top &+= overflow ? 1 : 0
        carry = (total >> 64) | (UInt128(top) << 64)
        return Limb(truncatingIfNeeded: total)
    }

    /// r = t mod p for the 18-limb product t < p², reduced to [0, p): v = (t mod 2^521) + (t >> 521)
    /// < 2^522, w = (v mod 2^521) + (v >> 521) ≤ 2^521, then w + 1 reaches 2^521 exactly when w ≥ p,
    /// and w - p = (w + 1) mod 2^521 is kept by a mask. Three carry chains, all in registers.
    @inline(__always)
    private static func fold(
        _ r: Limbs, _ t0: Limb, _ t1: Limb, _ t2: Limb, _ t3: Limb, _ t4: Limb, _ t5: Limb, _ t6: Limb,
        _ t7: Limb, _ t8: Limb, _ t9: Limb, _ t10: Limb, _ t11: Limb, _ t12: Limb, _ t13: Limb, _ t14: Limb,
        _ t15: Limb, _ t16: Limb, _ t17: Limb
    ) {
        let v0 = UInt128(t0) &+ UInt128(t8 >> 9 | t9 << 55)
        let v1 = UInt128(t1) &+ UInt128(t9 >> 9 | t10 << 55) &+ (v0 >> 64)
        let v2 = UInt128(t2) &+ UInt128(t10 >> 9 | t11 << 55) &+ (v1 >> 64)
        let v3 = UInt128(t3) &+ UInt128(t11 >> 9 | t12 << 55) &+ (v2 >> 64)
        let v4 = UInt128(t4) &+ UInt128(t12 >> 9 | t13 << 55) &+ (v3 >> 64)
        let v5 = UInt128(t5) &+ UInt128(t13 >> 9 | t14 << 55) &+ (v4 >> 64)
        let v6 = UInt128(t6) &+ UInt128(t14 >> 9 | t15 << 55) &+ (v5 >> 64)
        let v7 = UInt128(t7) &+ UInt128(t15 >> 9 | t16 << 55) &+ (v6 >> 64)
        let v8 = UInt128((t8 & topMask)) &+ UInt128(t16 >> 9 | t17 << 55) &+ (v7 >> 64)
        let v8Limb = Limb(truncatingIfNeeded: v8)
        let w0 = UInt128(Limb(truncatingIfNeeded: v0)) &+ UInt128(v8Limb >> 9)
        let w1 = UInt128(Limb(truncatingIfNeeded: v1)) &+ (w0 >> 64)
        let w2 = UInt128(Limb(truncatingIfNeeded: v2)) &+ (w1 >> 64)
        let w3 = UInt128(Limb(truncatingIfNeeded: v3)) &+ (w2 >> 64)
        let w4 = UInt128(Limb(truncatingIfNeeded: v4)) &+ (w3 >> 64)
        let w5 = UInt128(Limb(truncatingIfNeeded: v5)) &+ (w4 >> 64)
        let w6 = UInt128(Limb(truncatingIfNeeded: v6)) &+ (w5 >> 64)
        let w7 = UInt128(Limb(truncatingIfNeeded: v7)) &+ (w6 >> 64)
        let w8 = UInt128((v8Limb & topMask)) &+ (w7 >> 64)
        let s0 = UInt128(Limb(truncatingIfNeeded: w0)) &+ 1
        let s1 = UInt128(Limb(truncatingIfNeeded: w1)) &+ (s0 >> 64)
        let s2 = UInt128(Limb(truncatingIfNeeded: w2)) &+ (s1 >> 64)
        let s3 = UInt128(Limb(truncatingIfNeeded: w3)) &+ (s2 >> 64)
        let s4 = UInt128(Limb(truncatingIfNeeded: w4)) &+ (s3 >> 64)
        let s5 = UInt128(Limb(truncatingIfNeeded: w5)) &+ (s4 >> 64)
        let s6 = UInt128(Limb(truncatingIfNeeded: w6)) &+ (s5 >> 64)
        let s7 = UInt128(Limb(truncatingIfNeeded: w7)) &+ (s6 >> 64)
        let s8 = UInt128(Limb(truncatingIfNeeded: w8)) &+ (s7 >> 64)
        let keep = 0 &- (Limb(truncatingIfNeeded: s8) >> 9)
        r[0] = Limb(truncatingIfNeeded: s0) & keep | Limb(truncatingIfNeeded: w0) & ~keep
        r[1] = Limb(truncatingIfNeeded: s1) & keep | Limb(truncatingIfNeeded: w1) & ~keep
        r[2] = Limb(truncatingIfNeeded: s2) & keep | Limb(truncatingIfNeeded: w2) & ~keep
        r[3] = Limb(truncatingIfNeeded: s3) & keep | Limb(truncatingIfNeeded: w3) & ~keep
        r[4] = Limb(truncatingIfNeeded: s4) & keep | Limb(truncatingIfNeeded: w4) & ~keep
        r[5] = Limb(truncatingIfNeeded: s5) & keep | Limb(truncatingIfNeeded: w5) & ~keep
        r[6] = Limb(truncatingIfNeeded: s6) & keep | Limb(truncatingIfNeeded: w6) & ~keep
        r[7] = Limb(truncatingIfNeeded: s7) & keep | Limb(truncatingIfNeeded: w7) & ~keep
        r[8] = (Limb(truncatingIfNeeded: s8) & topMask) & keep | Limb(truncatingIfNeeded: w8) & ~keep
    }

    /// r = a^(p-2) = a^-1 (0 for 0) by a fixed addition chain: 2^521 - 3 is 519 ones, then 01. Builds
    /// aᵏ for k = 2^j - 1 by doubling j, 524 squarings and 13 multiplications where plain
    /// square-and-multiply takes 520 and 519; the schedule is public, so it is regular for secrets.
    static func invert(_ r: Limbs, _ a: UnsafePointer<Limb>) {
        withUnsafeTemporaryAllocation(of: Limb.self, capacity: 5 * limbCount) { buffer in
            guard let base = buffer.baseAddress else { return }
            let n = limbCount
            let (e2, e3, e4, e7, t) = (base, base + n, base + 2 * n, base + 3 * n, base + 4 * n)
            func squares(_ r: Limbs, _ a: UnsafePointer<Limb>, _ count: Int) {
                square(r, a)
                for _ in 1..<count { square(r, r) }
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
