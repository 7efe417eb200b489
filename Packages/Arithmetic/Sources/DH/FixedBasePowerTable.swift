import CGMP

/// Fixed-base exponentiation base^e mod p with precomputed powers: for window i and digit j < 2^w the
/// entry base^(j·2^(w·i)) in Montgomery form. An exponentiation is one table read (every entry touched,
/// `mpn_sec_tabselect`) and one Montgomery multiplication per window, whatever the exponent. The GMP
/// path: where the CPU has AVX-512 IFMA, `WideMontgomeryKernel.FixedBaseTable` serves instead.
final class FixedBasePowerTable: @unchecked Sendable {
    let field: MontgomeryField
    let width: Int
    let windows: Int
    let exponentBits: Int
    private let entries: LimbBuffer

    init(base: BigInt, modulus: BigInt, exponentBits: Int, width: Int) {
        field = MontgomeryField(modulus: modulus)
        self.width = width
        self.exponentBits = exponentBits
        windows = (exponentBits + width - 1) / width
        let n = field.limbCount
        let perWindow = 1 << width
        entries = LimbBuffer(count: windows * perWindow * n)
        let workspace = Workspace(limbCount: n, temporaries: 1)
        let s = workspace.scratch
        let windowBase = workspace.temporary(0)
        field.load(base.modulo(modulus), into: windowBase, scratch: s)
        for window in 0..<windows {
            let row = entries.pointer + window * perWindow * n
            row.update(from: field.one, count: n)
            for digit in 1..<perWindow {
                field.multiply(row + digit * n, row + (digit - 1) * n, windowBase, scratch: s)
            }
            // Next window's base: base^(2^(w·(i+1))) = (last entry)·(this window's base).
            field.multiply(windowBase, row + (perWindow - 1) * n, windowBase, scratch: s)
        }
    }

    /// base^exponent mod p for 0 ≤ exponent < 2^exponentBits.
    func power(_ exponent: BigInt) -> BigInt {
        let n = field.limbCount
        let perWindow = 1 << width
        var exponentLimbs = ScalarRecoding.limbs(of: exponent, count: (exponentBits + 63) / 64)
        defer { exponentLimbs.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let workspace = Workspace(limbCount: n, temporaries: 2)
        let s = workspace.scratch
        let accumulator = workspace.temporary(0)
        let entry = workspace.temporary(1)
        exponentLimbs.withUnsafeBufferPointer { limbs in
            for window in 0..<windows {
                let digit = Int(ScalarRecoding.bits(limbs, at: window * width, count: width))
                let row = entries.pointer + window * perWindow * n
                if window == 0 {
                    __gmpn_sec_tabselect(accumulator, row, n, perWindow, digit)
                } else {
                    __gmpn_sec_tabselect(entry, row, n, perWindow, digit)
                    field.multiply(accumulator, accumulator, entry, scratch: s)
                }
            }
        }
        return field.value(of: accumulator, scratch: s)
    }
}
