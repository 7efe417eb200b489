/// A limb count known at compile time: field code generic over it is specialised per size, its loops
/// fully unrolled, so curve-sized fields (3–9 limbs) pay no call or loop overhead per operation.
protocol LimbCount {
    static var count: Int { get }
}

enum ThreeLimbs: LimbCount { static var count: Int { 3 } }
enum FourLimbs: LimbCount { static var count: Int { 4 } }
enum FiveLimbs: LimbCount { static var count: Int { 5 } }
enum SixLimbs: LimbCount { static var count: Int { 6 } }
enum SevenLimbs: LimbCount { static var count: Int { 7 } }
enum EightLimbs: LimbCount { static var count: Int { 8 } }
enum NineLimbs: LimbCount { static var count: Int { 9 } }

/// Montgomery multiplication (CIOS), modular addition and subtraction for `Size.count` limbs, in
/// Swift. Branch-free: carries become masks, the final subtraction is selected with a mask.
enum FixedSizeMontgomery<Size: LimbCount> {
    /// r = a·b/R mod p. `t` is scratch of count + 2 limbs; r may alias a or b. Double-limb sums are
    /// `UInt128`, which compiles to mul/add/adc without branches.
    @inline(__always)
    static func multiply(
        _ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, p: UnsafePointer<Limb>,
        negativeInverse: Limb, t: Limbs
    ) {
        let n = Size.count
        for index in 0..<(n + 2) { t[index] = 0 }
        for i in 0..<n {
            // t += a·b[i]
            let bi = UInt128(b[i])
            var carry: UInt128 = 0
            for j in 0..<n {
                let sum = UInt128(a[j]) &* bi &+ UInt128(t[j]) &+ carry
                t[j] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            let top = UInt128(t[n]) &+ carry
            t[n] = Limb(truncatingIfNeeded: top)
            t[n + 1] = Limb(truncatingIfNeeded: top >> 64)
            // t = (t + m·p) / 2^64 with m making the low limb vanish.
            let m = UInt128(t[0] &* negativeInverse)
            carry = (m &* UInt128(p[0]) &+ UInt128(t[0])) >> 64
            for j in 1..<n {
                let sum = m &* UInt128(p[j]) &+ UInt128(t[j]) &+ carry
                t[j - 1] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            let last = UInt128(t[n]) &+ carry
            t[n - 1] = Limb(truncatingIfNeeded: last)
            t[n] = t[n + 1] &+ Limb(truncatingIfNeeded: last >> 64)
        }
        subtractModulusIfNeeded(r, t, carry: t[n], p: p)
    }

    /// r = a²/R mod p: `squareProduct` then a row-by-row Montgomery reduction (SOS). `t` is scratch of
    /// 2·count limbs; r may alias a.
    @inline(__always)
    static func square(_ r: Limbs, _ a: UnsafePointer<Limb>, p: UnsafePointer<Limb>, negativeInverse: Limb, t: Limbs) {
        let n = Size.count
        squareProduct(t, a)
        var extra: UInt128 = 0
        for i in 0..<n {
            let m = UInt128(t[i] &* negativeInverse)
            var carry: UInt128 = 0
            for j in 0..<n {
                let sum = m &* UInt128(p[j]) &+ UInt128(t[i + j]) &+ carry
                t[i + j] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            let top = UInt128(t[i + n]) &+ carry &+ extra
            t[i + n] = Limb(truncatingIfNeeded: top)
            extra = top >> 64
        }
        subtractModulusIfNeeded(r, t + n, carry: Limb(truncatingIfNeeded: extra), p: p)
    }

    /// t = a·b, 2·count limbs (schoolbook).
    @inline(__always)
    static func product(_ t: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>) {
        let n = Size.count
        for index in 0..<(2 * n) { t[index] = 0 }
        for i in 0..<n {
            let bi = UInt128(b[i])
            var carry: UInt128 = 0
            for j in 0..<n {
                let sum = UInt128(a[j]) &* bi &+ UInt128(t[i + j]) &+ carry
                t[i + j] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            t[i + n] = Limb(truncatingIfNeeded: carry)
        }
    }

    /// t = a², 2·count limbs: the n(n-1)/2 cross products once, doubled, plus the diagonal.
    @inline(__always)
    static func squareProduct(_ t: Limbs, _ a: UnsafePointer<Limb>) {
        let n = Size.count
        for index in 0..<(2 * n) { t[index] = 0 }
        for i in 0..<(n - 1) {
            let ai = UInt128(a[i])
            var carry: UInt128 = 0
            for j in (i + 1)..<n {
                let sum = ai &* UInt128(a[j]) &+ UInt128(t[i + j]) &+ carry
                t[i + j] = Limb(truncatingIfNeeded: sum)
                carry = sum >> 64
            }
            t[i + n] = Limb(truncatingIfNeeded: carry)
        }
        var shifted: Limb = 0
        for index in 0..<(2 * n) {
            let limb = t[index]
            t[index] = (limb << 1) | shifted
            shifted = limb >> 63
        }
        var carry: UInt128 = 0
        for i in 0..<n {
            let low = UInt128(a[i]) &* UInt128(a[i]) &+ UInt128(t[2 * i]) &+ carry
            t[2 * i] = Limb(truncatingIfNeeded: low)
            let high = UInt128(t[2 * i + 1]) &+ (low >> 64)
            t[2 * i + 1] = Limb(truncatingIfNeeded: high)
            carry = high >> 64
        }
    }

    /// r = t - p if t + carry·2^(64n) ≥ p, else t (t < 2p; r must not alias t): the difference in one
    /// carry chain, then a masked selection.
    @inline(__always)
    static func subtractModulusIfNeeded(_ r: Limbs, _ t: UnsafePointer<Limb>, carry: Limb, p: UnsafePointer<Limb>) {
        let n = Size.count
        var borrow: UInt128 = 0
        for j in 0..<n {
            let difference = UInt128(t[j]) &- UInt128(p[j]) &- borrow
            r[j] = Limb(truncatingIfNeeded: difference)
            borrow = difference >> 127
        }
        select(r, t, keepDifference: carry | (Limb(truncatingIfNeeded: borrow) ^ 1))
    }

    /// r = keepDifference ? r : t, by masks.
    @inline(__always)
    private static func select(_ r: Limbs, _ t: UnsafePointer<Limb>, keepDifference: Limb) {
        let keep = 0 &- keepDifference
        for j in 0..<Size.count {
            r[j] = (r[j] & keep) | (t[j] & ~keep)
        }
    }

    /// r = a + b mod p (a, b < p). `t` is scratch of count limbs. The sum and the sum minus p come out
    /// of one pass; a mask keeps the right one.
    @inline(__always)
    static func add(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, p: UnsafePointer<Limb>, t: Limbs) {
        let n = Size.count
        var carry: UInt128 = 0
        var borrow: UInt128 = 0
        for j in 0..<n {
            let sum = UInt128(a[j]) &+ UInt128(b[j]) &+ carry
            let low = Limb(truncatingIfNeeded: sum)
            carry = sum >> 64
            let difference = UInt128(low) &- UInt128(p[j]) &- borrow
            borrow = difference >> 127
            t[j] = low
            r[j] = Limb(truncatingIfNeeded: difference)
        }
        select(r, t, keepDifference: Limb(truncatingIfNeeded: carry) | (Limb(truncatingIfNeeded: borrow) ^ 1))
    }

    /// r = a - b mod p (a, b < p).
    @inline(__always)
    static func subtract(_ r: Limbs, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, p: UnsafePointer<Limb>) {
        let n = Size.count
        var borrow: UInt128 = 0
        for j in 0..<n {
            let difference = UInt128(a[j]) &- UInt128(b[j]) &- borrow
            r[j] = Limb(truncatingIfNeeded: difference)
            borrow = difference >> 127
        }
        let mask = 0 &- Limb(truncatingIfNeeded: borrow)
        var carry: UInt128 = 0
        for j in 0..<n {
            let sum = UInt128(r[j]) &+ UInt128(p[j] & mask) &+ carry
            r[j] = Limb(truncatingIfNeeded: sum)
            carry = sum >> 64
        }
    }
}
