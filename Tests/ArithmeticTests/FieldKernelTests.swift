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
            let (a, b, r1, r2) = (
                workspace.temporary(0), workspace.temporary(1), workspace.temporary(2), workspace.temporary(3)
            )
            let s = workspace.scratch
            var values = [BigInt(0), BigInt(1), modulus - BigInt(1), modulus - BigInt(2)]
            values += (0..<30).map { _ in BigInt(bytes: openSSLRandomBytes(8 * limbCount)).modulo(modulus) }
            for (index, x) in values.enumerated() {
                let y = values[(index * 7 + 3) % values.count]
                gmp.load(x, into: a, scratch: s)
                gmp.load(y, into: b, scratch: s)
                swift.multiply(r1, a, b, scratch: s)
                gmp.multiply(r2, a, b, scratch: s)
                #expect(gmp.value(of: r1, scratch: s) == x.multiplied(by: y, modulo: modulus))
                #expect(gmp.value(of: r2, scratch: s) == x.multiplied(by: y, modulo: modulus))
                swift.square(r1, a, scratch: s)
                #expect(gmp.value(of: r1, scratch: s) == x.multiplied(by: x, modulo: modulus))
                swift.add(r1, a, b, scratch: s)
                gmp.add(r2, a, b, scratch: s)
                #expect(gmp.value(of: r1, scratch: s) == x.adding(y, modulo: modulus))
                #expect(gmp.value(of: r2, scratch: s) == x.adding(y, modulo: modulus))
                swift.subtract(r1, a, b)
                gmp.subtract(r2, a, b)
                #expect(gmp.value(of: r1, scratch: s) == x.subtracting(y, modulo: modulus))
                #expect(gmp.value(of: r2, scratch: s) == x.subtracting(y, modulo: modulus))
            }
        }
    }
}
