import CGMP

/// base^exponent mod p over GMP's `mpn` layer with one Montgomery field per group, built once and kept
/// (`DHPrecomputation`): a left-to-right fixed window of `width` bits, the 2^width powers of the base
/// in Montgomery form, then per window `width` squarings and one multiplication by the entry the
/// window's digit selects. Against `mpz_powm_sec`, nothing is set up per call (no division to enter
/// Montgomery form, no -1/p, no allocation beyond one workspace).
///
/// Regular, for secret exponents: every entry of the table is read for each digit
/// (`mpn_sec_tabselect`) and the operations are the same whatever the exponent's value, for a bit
/// length the caller fixes from public data.
/// Where the CPU has AVX-512 IFMA, `kernel` (`WideMontgomeryKernel`) runs the exponentiation instead.
struct WindowedPower {
    let field: MontgomeryField
    let kernel: WideMontgomeryKernel?

    /// The window width for an exponent of `bits` bits: table cost 2^w against bits/w multiplications.
    static func width(forBits bits: Int) -> Int { bits > 200 ? 5 : 4 }

    /// base^exponent mod p for 0 ≤ base < p and 0 ≤ exponent < 2^bits.
    func power(_ base: BigInt, _ exponent: BigInt, bits: Int) -> BigInt {
        if let kernel, let result = kernel.power(base, exponent, bits: bits) { return result }
        let n = field.limbCount
        let width = WindowedPower.width(forBits: bits)
        let entries = 1 << width
        let windows = max(1, (bits + width - 1) / width)
        // Temporaries: the table, the accumulator, the selected entry.
        let workspace = Workspace(limbCount: n, temporaries: entries + 2)
        let s = workspace.scratch
        let table = workspace.temporary(0)
        let accumulator = workspace.temporary(entries)
        let entry = workspace.temporary(entries + 1)
        table.update(from: field.one, count: n)
        field.load(base, into: table + n, scratch: s)
        for digit in 2..<entries {
            if digit % 2 == 0 {
                field.square(table + digit * n, table + (digit / 2) * n, scratch: s)
            } else {
                field.multiply(table + digit * n, table + (digit - 1) * n, table + n, scratch: s)
            }
        }
        var exponentLimbs = ScalarRecoding.limbs(of: exponent, count: (windows * width + 63) / 64)
        defer { exponentLimbs.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        exponentLimbs.withUnsafeBufferPointer { limbs in
            func select(_ r: Limbs, window: Int) {
                let digit = Int(ScalarRecoding.bits(limbs, at: window * width, count: width))
                __gmpn_sec_tabselect(r, table, n, entries, digit)
            }
            select(accumulator, window: windows - 1)
            for window in stride(from: windows - 2, through: 0, by: -1) {
                for _ in 0..<width { field.square(accumulator, accumulator, scratch: s) }
                select(entry, window: window)
                field.multiply(accumulator, accumulator, entry, scratch: s)
            }
        }
        return field.value(of: accumulator, scratch: s)
    }
}
