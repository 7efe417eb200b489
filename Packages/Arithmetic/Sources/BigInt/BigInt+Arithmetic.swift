import CGMP
import Secrets

extension BigInt {
    public static func + (lhs: BigInt, rhs: BigInt) -> BigInt {
        computing { __gmpz_add($0, lhs.storage.value, rhs.storage.value) }
    }

    public static func - (lhs: BigInt, rhs: BigInt) -> BigInt {
        computing { __gmpz_sub($0, lhs.storage.value, rhs.storage.value) }
    }

    public static func * (lhs: BigInt, rhs: BigInt) -> BigInt {
        computing { __gmpz_mul($0, lhs.storage.value, rhs.storage.value) }
    }

    public static prefix func - (value: BigInt) -> BigInt {
        computing { __gmpz_neg($0, value.storage.value) }
    }

    /// Floor division; `rhs` must not be zero.
    public static func / (lhs: BigInt, rhs: BigInt) -> BigInt {
        precondition(!rhs.isZero, "division by zero")
        return computing { __gmpz_fdiv_q($0, lhs.storage.value, rhs.storage.value) }
    }

    public static func << (lhs: BigInt, rhs: Int) -> BigInt {
        computing { __gmpz_mul_2exp($0, lhs.storage.value, mp_bitcnt_t(rhs)) }
    }

    public static func >> (lhs: BigInt, rhs: Int) -> BigInt {
        computing { __gmpz_fdiv_q_2exp($0, lhs.storage.value, mp_bitcnt_t(rhs)) }
    }

    /// The least non-negative residue modulo `modulus` (which must be non-zero).
    public func modulo(_ modulus: BigInt) -> BigInt {
        precondition(!modulus.isZero, "modulus zero")
        return BigInt.computing { __gmpz_mod($0, storage.value, modulus.storage.value) }
    }

    public func adding(_ other: BigInt, modulo modulus: BigInt) -> BigInt { (self + other).modulo(modulus) }
    public func subtracting(_ other: BigInt, modulo modulus: BigInt) -> BigInt { (self - other).modulo(modulus) }
    public func multiplied(by other: BigInt, modulo modulus: BigInt) -> BigInt { (self * other).modulo(modulus) }

    /// The inverse modulo `modulus`, or nil when there is none.
    public func inverse(modulo modulus: BigInt) -> BigInt? {
        guard !modulus.isZero else { return nil }
        var found: Int32 = 0
        let result = BigInt.computing { found = __gmpz_invert($0, storage.value, modulus.storage.value) }
        return found != 0 ? result : nil
    }

    /// The Jacobi symbol (self / n) for odd positive `n`: 1, -1 or 0.
    public func jacobi(_ n: BigInt) -> Int {
        precondition(n.isOdd && n.signum > 0, "the Jacobi symbol needs an odd positive modulus")
        return Int(__gmpz_jacobi(storage.value, n.storage.value))
    }

    /// `self^exponent mod modulus` for a public exponent (variable time). Negative exponents use the
    /// inverse; nil when it does not exist.
    public func power(_ exponent: BigInt, modulo modulus: BigInt) -> BigInt? {
        guard !modulus.isZero else { return nil }
        if exponent.signum < 0 && inverse(modulo: modulus) == nil { return nil }
        return BigInt.computing { __gmpz_powm($0, storage.value, exponent.storage.value, modulus.storage.value) }
    }

    /// `self^exponent mod modulus` in time independent of the exponent's value (GMP's `mpz_powm_sec`),
    /// for secret exponents.
    /// - Throws: `noResult` if the modulus is even or the exponent is not positive.
    public func powerSecret(_ exponent: BigInt, modulo modulus: BigInt) throws -> BigInt {
        guard modulus.isOdd, modulus.signum > 0 else {
            throw ArithmeticError(.noResult, "powm_sec needs an odd positive modulus")
        }
        guard exponent.signum > 0 else { throw ArithmeticError(.noResult, "powm_sec needs a positive exponent") }
        return BigInt.computing {
            __gmpz_powm_sec($0, storage.value, exponent.storage.value, modulus.storage.value)
        }
    }

    /// A square root modulo the odd prime `p` (the smaller of the two is not guaranteed), or nil when
    /// `self` is a non-residue. Tonelli–Shanks, with the shortcut for p ≡ 3 mod 4.
    public func squareRoot(modulo p: BigInt) -> BigInt? {
        let a = modulo(p)
        if a.isZero { return BigInt(0) }
        guard a.jacobi(p) == 1 else { return nil }
        let one = BigInt(1)
        if p.modulo(4) == 3 {
            return a.power((p + one) >> 2, modulo: p)
        }
        // p - 1 = q · 2^s with q odd.
        var q = p - one
        var s = 0
        while !q.isOdd {
            q = q >> 1
            s += 1
        }
        var z = BigInt(2)
        while z.jacobi(p) != -1 { z = z + one }
        guard var c = z.power(q, modulo: p), var t = a.power(q, modulo: p),
            var r = a.power((q + one) >> 1, modulo: p)
        else { return nil }
        var m = s
        while t != one {
            var i = 0
            var t2i = t
            while t2i != one {
                t2i = t2i.multiplied(by: t2i, modulo: p)
                i += 1
                if i == m { return nil }
            }
            guard let b = c.power(one << (m - i - 1), modulo: p) else { return nil }
            m = i
            c = b.multiplied(by: b, modulo: p)
            t = t.multiplied(by: c, modulo: p)
            r = r.multiplied(by: b, modulo: p)
        }
        return r
    }

    /// Whether this is probably prime (GMP's Miller–Rabin with `rounds` rounds, after trial division).
    public func isProbablePrime(rounds: Int = 30) -> Bool {
        __gmpz_probab_prime_p(storage.value, Int32(rounds)) != 0
    }

    /// A uniformly random integer in [1, upperBound), drawn by rejection from `random` (the
    /// candidate bytes stay in wiped memory until they become the integer).
    public static func random(below upperBound: BigInt, using random: RandomSource = .system) throws -> BigInt {
        guard upperBound > BigInt(1) else { throw ArithmeticError(.invalidScalar, "empty range for a random integer") }
        let bits = upperBound.bitWidth
        let length = (bits + 7) / 8
        let topMask = UInt8(truncatingIfNeeded: (1 << (bits - (length - 1) * 8)) - 1)
        for _ in 0..<256 {
            let bytes: SecretBytes
            do {
                bytes = try random.bytes(count: length)
            } catch {
                throw ArithmeticError(.randomSourceFailed, error.reason)
            }
            let candidate = bytes.withUnsafeBytes { raw in
                var masked = [UInt8](raw)
                defer { masked.wipe() }
                masked[0] &= topMask
                return BigInt(bytes: masked)
            }
            if candidate.signum > 0 && candidate < upperBound { return candidate }
        }
        throw ArithmeticError(.randomSourceFailed, "the random source keeps returning out-of-range values")
    }
}
