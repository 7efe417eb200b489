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
