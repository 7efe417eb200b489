import OpenSSLReference
import Testing

@testable import Arithmetic

/// The Swift field kernels (used in optimised builds for 3–9 limbs) against the GMP `mpn` path (used
/// in debug builds and for DH-sized fields) and against plain `BigInt` arithmetic.
@Suite struct FieldKernelTests {
    @Test(arguments: 3...9)
    func kernelsMatchGMP(limbCount: Int) throws {
        // Moduli with a full top limb, with headroom, and the standard curves' primes of this size.
        func odd(_ value: BigInt) -> BigInt { value.isOdd ? value : value + BigInt(1) }
        var moduli = [
            odd(BigInt(bytes: openSSLRandomBytes(8 * limbCount))),
            odd(BigInt(bytes: openSSLRandomBytes(8 * limbCount - 3))),
        ]
        moduli += standardCurveIDs.compactMap { standardCurve($0)?.p }.filter { ($0.bitWidth + 63) / 64 == limbCount }
        for modulus in moduli where modulus.bitWidth > 64 * (limbCount - 1) {
            let swift = MontgomeryField(modulus: modulus, swiftKernels: true)
            let gmp = MontgomeryField(modulus: modulus, swiftKernels: false)
            #expect(swift.kernelLimbs == limbCount)
            #expect(gmp.kernelLimbs == 0)
            let workspace = Workspace(limbCount: limbCount, temporaries: 6)
            let s = workspace.scratch
            var values = [BigInt(0), BigInt(1), modulus - BigInt(1), modulus - BigInt(2)]
            values += (0..<30).map { _ in BigInt(bytes: openSSLRandomBytes(8 * limbCount)).modulo(modulus) }
            for (index, x) in values.enumerated() {
                let y = values[(index * 7 + 3) % values.count]
                // Each field in its own representation (P-521's Swift field is plain, the others Montgomery).
                for (field, offset) in [(swift, 0), (gmp, 3)] {
                    let (a, b, r) = (
                        workspace.temporary(offset), workspace.temporary(offset + 1), workspace.temporary(offset + 2)
                    )
                    field.load(x, into: a, scratch: s)
                    field.load(y, into: b, scratch: s)
                    field.multiply(r, a, b, scratch: s)
                    #expect(field.value(of: r, scratch: s) == x.multiplied(by: y, modulo: modulus))
                    field.square(r, a, scratch: s)
                    #expect(field.value(of: r, scratch: s) == x.multiplied(by: x, modulo: modulus))
                    field.add(r, a, b, scratch: s)
                    #expect(field.value(of: r, scratch: s) == x.adding(y, modulo: modulus))
                    field.subtract(r, a, b)
                    #expect(field.value(of: r, scratch: s) == x.subtracting(y, modulo: modulus))
                    field.invertRegular(r, a, scratch: s)
                    if !x.isZero {
                        #expect(
                            field.value(of: r, scratch: s) == x.inverse(modulo: modulus) || !modulus.isProbablePrime())
                    }
                }
            }
        }
    }
}

/// P-521's field (`MersenneP521`: the Mersenne fold, the addition-chain inversion) against `BigInt`
/// where its folds are tight: values with the top bits set (2^521 - 2, 2^520, …), limb boundaries,
/// products landing on p - 1 and 1, and random elements; the inversion of each.
@Suite struct MersenneP521Tests {
    @Test func kernelMatchesBigInt() throws {
        let p = (BigInt(1) << 521) - BigInt(1)
        let field = MontgomeryField(modulus: p, swiftKernels: true)
        #expect(field.isPlainP521)
        let workspace = Workspace(limbCount: 9, temporaries: 3)
        let s = workspace.scratch
        let (a, b, r) = (workspace.temporary(0), workspace.temporary(1), workspace.temporary(2))
        let one = BigInt(1)
        var values = [BigInt(0), one, BigInt(2), p - one, p - BigInt(2), one << 520, (one << 520) - one]
        values += [58, 64, 116, 128, 464, 512, 513].flatMap { [one << $0, (one << $0) - one] }
        // x with x² ≡ 1 and x·y ≡ -1, so reductions end exactly on p - 1 and 1.
        values += [p - one, (p - one) >> 1, BigInt(3).inverse(modulo: p) ?? one]
        values += (0..<40).map { _ in BigInt(bytes: openSSLRandomBytes(66)).modulo(p) }
        values += (0..<20).map { _ in p - BigInt(bytes: openSSLRandomBytes(8)) }
        for (index, x) in values.enumerated() {
            for y in [values[(index * 7 + 3) % values.count], p - x, x, one] {
                let y = y.modulo(p)
                MontgomeryField.store(x, into: a, limbCount: 9)
                MontgomeryField.store(y, into: b, limbCount: 9)
                field.multiply(r, a, b, scratch: s)
                #expect(MontgomeryField.bigInt(from: r, limbCount: 9) == x.multiplied(by: y, modulo: p), "\(x)·\(y)")
            }
            field.square(r, a, scratch: s)
            #expect(MontgomeryField.bigInt(from: r, limbCount: 9) == x.multiplied(by: x, modulo: p), "\(x)²")
            field.invertRegular(r, a, scratch: s)
            #expect(MontgomeryField.bigInt(from: r, limbCount: 9) == (x.inverse(modulo: p) ?? BigInt(0)), "1/\(x)")
        }
    }
}

/// The dedicated four-limb fields of P-256 and P-224 (`FourLimbField`, value types; products in C) against
/// `BigInt`, on the edges (0, 1, p - 1, p - 2, values near 2^256 mod p) and random elements, in the
/// Montgomery form the generic field loads and reads back. `CFieldKernelTests` runs it with each kernel.
@Suite struct FourLimbFieldTests {
    static func check<Prime: FourLimbPrime>(_ prime: Prime.Type, modulus: BigInt) throws {
        typealias F = FourLimbField<Prime>
        let field = MontgomeryField(modulus: modulus)
        let workspace = Workspace(limbCount: 4, temporaries: 1)
        let limbs = workspace.temporary(0)
        func element(_ value: BigInt) -> FieldElement4 {
            field.load(value, into: limbs, scratch: workspace.scratch)
            return FieldElement4(limbs)
        }
        func value(_ element: FieldElement4) -> BigInt {
            element.store(limbs)
            return field.value(of: limbs, scratch: workspace.scratch)
        }
        #expect(value(Prime.one) == BigInt(1))
        #expect(value(Prime.modulus) == BigInt(0))  // p itself reads back as 0 mod p
        let rModP = (BigInt(1) << 256).modulo(modulus)
        var values = [BigInt(0), BigInt(1), BigInt(2), modulus - BigInt(1), modulus - BigInt(2), rModP]
        values += (0..<40).map { _ in BigInt(bytes: openSSLRandomBytes(32)).modulo(modulus) }
        for (index, x) in values.enumerated() {
            let y = values[(index * 7 + 3) % values.count]
            let (a, b) = (element(x), element(y))
            #expect(value(F.multiply(a, b)) == x.multiplied(by: y, modulo: modulus), "\(x) · \(y)")
            #expect(value(F.square(a)) == x.multiplied(by: x, modulo: modulus), "\(x)²")
            #expect(value(F.subtract(a, b)) == x.subtracting(y, modulo: modulus))
            #expect(value(F.conditionallyNegate(a, condition: 1)) == BigInt(0).subtracting(x, modulo: modulus))
            #expect(value(F.conditionallyNegate(a, condition: 0)) == x)
            #expect(a.isZeroMask == (x.isZero ? 1 : 0))
            if !x.isZero { #expect(value(F.invert(a)) == x.inverse(modulo: modulus), "1/\(x)") }
        }
    }

    @Test func p256MatchesBigInt() throws {
        try Self.check(P256Prime.self, modulus: try #require(standardCurve(12)).p)
    }

    @Test func p224MatchesBigInt() throws {
        try Self.check(P224Prime.self, modulus: try #require(standardCurve(10)).p)
    }
}
