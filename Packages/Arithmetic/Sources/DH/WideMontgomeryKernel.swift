import CFieldKernels

/// The AVX-512 IFMA exponentiation of `CFieldKernels` (WideMontgomery.c) for one DH modulus: 52-bit
/// digits in vectors, almost-Montgomery products, the whole exponentiation in C. On the project's
/// machine (AMD Zen 5) it runs 1.5–3.5× OpenSSL's MULX/ADX `BN_mod_exp_mont(_consttime)` for the
/// standard groups, where the `MontgomeryField` GMP path ran 0.8–1.0× (Debian's GMP runs generic code
/// there). Built once per group (`DHPrecomputation`); absent where the CPU lacks IFMA, and then
/// `WindowedPower`'s GMP loop, `mpz_powm` and `FixedBasePowerTable` serve.
final class WideMontgomeryKernel: @unchecked Sendable {
    fileprivate let modulus: OpaquePointer
    fileprivate let limbCount: Int

    /// nil when the CPU lacks AVX-512 IFMA or p is beyond `EMRTD_WIDE_MAX_BITS`.
    init?(modulus p: BigInt) {
        guard p.isOdd, p.bitWidth <= Int(EMRTD_WIDE_MAX_BITS) else { return nil }
        let n = (p.bitWidth + 63) / 64
        let digits = Int(emrtd_wide_digit_count(Int32(p.bitWidth)))
        // R = 2^(52·digits): the kernel enters its Montgomery form by a product with R² mod p.
        let rSquared = (BigInt(1) << (2 * 52 * digits)).modulo(p)
        let pLimbs = ScalarRecoding.limbs(of: p, count: n)
        let rLimbs = ScalarRecoding.limbs(of: rSquared, count: n)
        guard let made = emrtd_wide_modulus_new(pLimbs, rLimbs, Int32(n)) else { return nil }
        modulus = made
        limbCount = n
    }

    deinit { emrtd_wide_modulus_free(modulus) }

    /// The window width for an exponent of `bits` bits: here squarings and products cost the same, so
    /// the one that minimises 2^w table entries plus ⌈bits/w⌉ products (4 for 160–256-bit exponents).
    static func width(forBits bits: Int) -> Int {
        (1...Int(EMRTD_WIDE_MAX_WIDTH)).min { (1 << $0) + (bits + $0 - 1) / $0 < (1 << $1) + (bits + $1 - 1) / $1 } ?? 4
    }

    /// base^exponent mod p for 0 ≤ base < p and 0 ≤ exponent < 2^bits, regular for the public `bits`
    /// (every table entry read for each window); nil when a test deselected the kernel.
    func power(_ base: BigInt, _ exponent: BigInt, bits: Int) -> BigInt? {
        let exponentLimbs = max(1, (bits + 63) / 64)
        var exponentWords = ScalarRecoding.limbs(of: exponent, count: exponentLimbs)
        defer { exponentWords.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let baseLimbs = ScalarRecoding.limbs(of: base, count: limbCount)
        var result = [Limb](repeating: 0, count: limbCount)
        let done = emrtd_wide_power(
            modulus, &result, baseLimbs, exponentWords, Int32(exponentLimbs), Int32(bits),
            Int32(WideMontgomeryKernel.width(forBits: bits)))
        guard done != 0 else { return nil }
        return result.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { MontgomeryField.bigInt(from: $0, limbCount: limbCount) } ?? BigInt(0)
        }
    }

    /// A fixed-base table for base (< p) covering exponents below 2^exponentBits, in windows of `width`
    /// bits; nil when the kernel is deselected.
    func fixedBaseTable(base: BigInt, exponentBits: Int, width: Int) -> FixedBaseTable? {
        let baseLimbs = ScalarRecoding.limbs(of: base, count: limbCount)
        guard let table = emrtd_wide_table_new(modulus, baseLimbs, Int32(exponentBits), Int32(width)) else {
            return nil
        }
        return FixedBaseTable(kernel: self, table: table, exponentBits: exponentBits, width: width)
    }

    /// The powers base^(d·2^(width·i)) of one base in the kernel's form (`emrtd_wide_table`), wiped and
    /// freed with this object: an exponentiation is one product per window.
    final class FixedBaseTable: @unchecked Sendable {
        /// Kept alive: the table's products need its modulus.
        let kernel: WideMontgomeryKernel
        private let table: OpaquePointer
        private let exponentLimbs: Int

        fileprivate init(kernel: WideMontgomeryKernel, table: OpaquePointer, exponentBits: Int, width: Int) {
            self.kernel = kernel
            self.table = table
            let windows = (exponentBits + width - 1) / width
            exponentLimbs = (windows * width + 63) / 64
        }

        deinit { emrtd_wide_table_free(table) }

        /// base^exponent mod p for 0 ≤ exponent < 2^exponentBits, regular; nil when a test deselected
        /// the kernel.
        func power(_ exponent: BigInt) -> BigInt? {
            var exponentWords = ScalarRecoding.limbs(of: exponent, count: exponentLimbs)
            defer { exponentWords.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            var result = [Limb](repeating: 0, count: kernel.limbCount)
            guard emrtd_wide_table_power(kernel.modulus, table, &result, exponentWords, Int32(exponentLimbs)) != 0
            else { return nil }
            return result.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { MontgomeryField.bigInt(from: $0, limbCount: kernel.limbCount) } ?? BigInt(0)
            }
        }
    }

    /// Whether the IFMA kernel serves (the CPU has it and no test deselected it).
    static var usesIFMA: Bool { emrtd_wide_kernel_is_ifma() != 0 }

    /// Selects the IFMA kernel (when the CPU has it) or the GMP paths, process-wide; returns whether
    /// the IFMA kernel served before.
    @discardableResult
    static func select(ifma: Bool) -> Bool { emrtd_wide_select_kernel(ifma ? 1 : 0) != 0 }
}
