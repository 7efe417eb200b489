/// Scalars as little-endian 64-bit limbs, and their recodings.
enum ScalarRecoding {
    /// The non-negative `value` as `count` limbs (it must fit).
    static func limbs(of value: BigInt, count: Int) -> [Limb] {
        var limbs = [Limb](repeating: 0, count: count)
        limbs.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { MontgomeryField.store(value, into: base, limbCount: count) }
        }
        return limbs
    }

    /// `count` (≤ 63) bits of `limbs` starting at bit `position`; bits past the end read as zero.
    @inline(__always)
    static func bits(_ limbs: UnsafeBufferPointer<Limb>, at position: Int, count: Int) -> Limb {
        let index = position / 64
        let shift = position % 64
        let low: Limb = index < limbs.count ? limbs[index] >> Limb(shift) : 0
        let high: Limb = (shift > 0 && index + 1 < limbs.count) ? limbs[index + 1] << Limb(64 - shift) : 0
        return (low | high) & ((1 << Limb(count)) - 1)
    }

    /// Width-`width` NAF of a public non-negative scalar, least significant digit first: every non-zero
    /// digit is odd, below 2^(width-1) in magnitude, and followed by at least width-1 zeros.
    /// A run of zero bits is skipped in one shift, and after a digit the width-1 zeros that must follow:
    /// shifting one bit at a time was about a tenth of a P-256 multiplication.
    static func wNAF(_ scalar: BigInt, width: Int) -> [Int8] {
        var k = limbs(of: scalar, count: (scalar.bitWidth + 63) / 64 + 1)
        var digits = [Int8](repeating: 0, count: scalar.bitWidth + 1)
        let window = 1 << width
        var position = 0
        while k.contains(where: { $0 != 0 }) {
            if k[0] & 1 == 1 {
                var digit = Int(k[0] & Limb(window - 1))
                if digit >= window / 2 { digit -= window }
                if digit > 0 {
                    subtractSmall(&k, Limb(digit))
                } else {
                    addSmall(&k, Limb(-digit))
                }
                digits[position] = Int8(digit)
                // k is now a multiple of 2^width.
                shiftRight(&k, by: width)
                position += width
            } else {
                let zeros = k[0] == 0 ? 63 : k[0].trailingZeroBitCount
                shiftRight(&k, by: zeros)
                position += zeros
            }
        }
        return digits
    }

    private static func subtractSmall(_ k: inout [Limb], _ value: Limb) {
        var borrow = value
        for index in k.indices where borrow != 0 {
            let (difference, overflow) = k[index].subtractingReportingOverflow(borrow)
            k[index] = difference
            borrow = overflow ? 1 : 0
        }
    }

    private static func addSmall(_ k: inout [Limb], _ value: Limb) {
        var carry = value
        for index in k.indices where carry != 0 {
            let (sum, overflow) = k[index].addingReportingOverflow(carry)
            k[index] = sum
            carry = overflow ? 1 : 0
        }
    }

    /// k >> count, 0 < count < 64.
    private static func shiftRight(_ k: inout [Limb], by count: Int) {
        let shift = Limb(count)
        for index in k.indices {
            let next: Limb = index + 1 < k.count ? k[index + 1] : 0
            k[index] = (k[index] >> shift) | (next << (64 - shift))
        }
    }

    /// The regular signed-digit recoding of an odd scalar k < 2^(width·windows): `windows` odd digits in
    /// ±[1, 2^width - 1], least significant first, with k = Σ dᵢ·2^(width·i) and the top digit positive.
    /// Digit i comes from a fixed bit window, so the schedule does not depend on k:
    /// d₀ = (k mod 2^(w+1)) - 2^w, dᵢ = 2·⌊k / 2^(wi+1)⌋ mod 2^w + 1 - 2^w, top = 2·⌊k / 2^(w(m-1)+1)⌋ + 1.
    static func regularDigits(oddScalar k: [Limb], width: Int, windows: Int, into digits: inout [Int]) {
        k.withUnsafeBufferPointer { limbs in
            let half = 1 << width
            digits[0] = Int(bits(limbs, at: 0, count: width + 1)) - half
            for index in 1..<windows {
                let chunkWidth = index == windows - 1 ? 63 - width : width
                let chunk = Int(bits(limbs, at: width * index + 1, count: chunkWidth))
                digits[index] = index == windows - 1 ? 2 * chunk + 1 : 2 * chunk + 1 - half
            }
        }
    }
}
