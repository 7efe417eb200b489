import CFieldKernels
import OpenSSLReference
import Testing

@testable import Arithmetic

/// P-256's and P-224's C kernels (`CFieldKernels`), each of the two: MULX/ADX (when this CPU has BMI2
/// and ADX; otherwise both runs are the portable kernel) and portable. Serialized, because the kernel
/// choice is process-wide; other suites running meanwhile meet either kernel, which give the same
/// results.
@Suite(.serialized) struct CFieldKernelTests {
    /// The C kernels read `JacobianPoint4` as twelve consecutive limbs X, Y, Z.
    @Test func pointLayoutIsTwelveLimbs() {
        #expect(MemoryLayout<FieldElement4>.size == 32)
        #expect(MemoryLayout<FieldElement4>.offset(of: \.l3) == 24)
        #expect(MemoryLayout<JacobianPoint4>.size == 96)
        #expect(MemoryLayout<JacobianPoint4>.stride == 96)
        #expect(MemoryLayout<JacobianPoint4>.offset(of: \.y) == 32)
        #expect(MemoryLayout<JacobianPoint4>.offset(of: \.z) == 64)
    }

    /// CPUID's choice stands unless a test changes it, and a request for MULX/ADX on a CPU without it
    /// keeps the portable kernel.
    @Test func kernelChoice() {
        let cpuHasADX = FieldKernelChoice.select(adx: true) || FieldKernelChoice.usesADX
        #expect(FieldKernelChoice.usesADX == cpuHasADX)
        FieldKernelChoice.select(adx: false)
        #expect(!FieldKernelChoice.usesADX)
        FieldKernelChoice.select(adx: true)
        #expect(FieldKernelChoice.usesADX == cpuHasADX)
        print("CFieldKernels: this CPU \(cpuHasADX ? "has" : "lacks") BMI2 and ADX")
    }

    /// Field products, squares, sums, differences and inverses against `BigInt`, with each kernel.
    @Test(arguments: [false, true])
    func fieldMatchesBigInt(adx: Bool) throws {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        try FourLimbFieldTests.check(P256Prime.self, modulus: try #require(standardCurve(12)).p)
        try FourLimbFieldTests.check(P224Prime.self, modulus: try #require(standardCurve(10)).p)
    }

    /// The variable-time inversion of public values (GMP's extended GCD), and the blinded one of secret
    /// values, against the addition chain, which `fieldMatchesBigInt` checks against `BigInt`: random
    /// elements, 1, 2, -1, -2, and elements below 2^192 (top limb zero: the chain's fallback).
    @Test(arguments: [false, true])
    func publicAndBlindedInversionsMatchChain(adx: Bool) {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        Self.checkPublicInversion(P256Prime.self)
        Self.checkPublicInversion(P224Prime.self)
    }

    private static func limbs(_ a: FieldElement4) -> [Limb] { [a.l0, a.l1, a.l2, a.l3] }

    private static func checkPublicInversion<Prime: FourLimbPrime>(_ prime: Prime.Type) {
        typealias F = FourLimbField<Prime>
        let p = Prime.modulus
        let minusOne = F.subtract(.zero, Prime.one)
        var values = [
            Prime.one, F.multiply(Prime.one, Prime.rCubed), minusOne, F.subtract(minusOne, Prime.one),
            FieldElement4(1, 0, 0, 0), FieldElement4(0, 0, 1, 0), FieldElement4(p.l0 &- 1, p.l1, p.l2, p.l3),
        ]
        for _ in 0..<200 {
            let bytes = openSSLRandomBytes(32)
            let words = (0..<4).map { index in
                bytes[(8 * index)..<(8 * index + 8)].reduce(Limb(0)) { ($0 << 8) | Limb($1) }
            }
            // x·R/R (a Montgomery product with one) reduces any 256-bit x below p.
            let element = F.multiply(FieldElement4(words[0], words[1], words[2], words[3]), Prime.one)
            if element.isZeroMask == 0 { values.append(element) }
        }
        for value in values {
            let inverse = F.invertPublic(value)
            #expect(limbs(inverse) == limbs(F.invert(value)), "1/\(limbs(value))")
            #expect(limbs(F.multiply(value, inverse)) == limbs(Prime.one))
            // The blinded inversion of secret values: a random factor, the same inverse, every time.
            for _ in 0..<2 { #expect(limbs(F.invertBlinded(value)) == limbs(inverse), "1/\(limbs(value))") }
        }
    }

    /// Random points and scalars, the edge scalars (1…4, n - 1…n - 4, n) and the public combinations
    /// of ECDSA against OpenSSL, with each kernel: public, secret and fixed-base multiplication.
    @Test(arguments: [(12, false), (12, true), (10, false), (10, true)])
    func scalarMultiplicationMatchesOpenSSL(id: Int, adx: Bool) throws {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        var scalars = (1...4).map { BigInt($0) } + (0...4).map { curve.order - BigInt($0) }
        for _ in 0..<differentialCases(default: 8) {
            scalars.append(try BigInt.random(below: curve.order, using: openSSLRandomSource))
        }
        let pointScalar = try BigInt.random(below: curve.order, using: openSSLRandomSource)
        let pointBytes = try #require(reference.multiply(nil, by: pointScalar))
        let point = try curve.decodePoint(pointBytes)
        for k in scalars {
            let expected = reference.multiply(pointBytes, by: k)
            if k == curve.order {
                #expect(curve.multiply(point, by: k) == .infinity)
                #expect(throws: ArithmeticError.self) { try curve.multiplySecret(point, by: k) }
                continue
            }
            #expect(try curve.encode(curve.multiply(point, by: k)) == expected, "k = \(k)")
            #expect(try curve.encode(curve.multiplySecret(point, by: k)) == expected, "k = \(k)")
            #expect(try curve.encode(curve.multiplyGenerator(by: k)) == reference.multiply(nil, by: k), "k = \(k)")
        }
        // Sums that meet the exceptional cases of the addition formulas: P + P and P + (-P).
        #expect(try curve.encode(curve.add(point, point)) == reference.multiply(pointBytes, by: BigInt(2)))
        #expect(curve.add(point, curve.negate(point)) == .infinity)
    }

    /// The co-Z tables of odd multiples (`emrtd_p256_odd_multiples`, behind the secret and the public
    /// multiplications) against the curve's own sums: entry i is (2i + 1)·P, for random points and G.
    @Test(arguments: [(12, false), (12, true), (10, false), (10, true)])
    func oddMultiplesMatchRepeatedAddition(id: Int, adx: Bool) throws {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        let curve = try #require(standardCurve(id))
        let dedicated = try #require(curve.context.dedicated)
        let count = 16
        var points = [curve.generator]
        for _ in 0..<3 {
            points.append(
                try curve.multiplyGenerator(by: BigInt.random(below: curve.order, using: openSSLRandomSource)))
        }
        for point in points {
            let affine = LimbBuffer(count: 8)
            curve.context.loadAffine(point, into: affine.pointer)
            let table = dedicated.oddMultiplesAffine(affine.pointer, count: count)
            var multiple = point
            let twice = curve.add(point, point)
            for index in 0..<count {
                if index > 0 { multiple = curve.add(multiple, twice) }
                #expect(curve.context.affinePoint(from: table.pointer + index * 8) == multiple, "\(2 * index + 1)·P")
            }
        }
    }

    /// ECDSA verification (u1·G + u2·Q through the C additions) of OpenSSL's signatures, with each kernel.
    @Test(arguments: [(12, false), (12, true), (10, false), (10, true)])
    func ecdsaMatchesOpenSSL(id: Int, adx: Bool) throws {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        try expectVerifiesOpenSSLSignatures(
            on: curve, reference: reference, digestLength: 32, count: differentialCases(default: 6))
    }

    /// The C recoding of secret scalars (`emrtd_regular_digits4`, behind the secret and fixed-base
    /// multiplications) against `ScalarMultiplier.oddScalar` and `ScalarRecoding.regularDigits`: odd and
    /// even edge scalars and random ones, the secret width and the fixed-base table's, and each prime's
    /// `order` constant against the curve's.
    @Test(arguments: [12, 10])
    func regularDigitsMatchSwiftRecoding(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let multiplier = curve.context.multiplier
        switch id {
        case 12: #expect(Self.bigInt(P256Prime.order) == curve.order)
        default: #expect(Self.bigInt(P224Prime.order) == curve.order)
        }
        var scalars = (1...4).map { BigInt($0) } + (1...4).map { curve.order - BigInt($0) }
        for _ in 0..<64 { scalars.append(try BigInt.random(below: curve.order, using: openSSLRandomSource)) }
        for width in [multiplier.regularWidth, 7] {
            let windows = (multiplier.orderBits + width - 1) / width
            for k in scalars {
                let (odd, expectedNegated) = multiplier.oddScalar(k)
                var expected = [Int](repeating: 0, count: windows)
                ScalarRecoding.regularDigits(oddScalar: odd, width: width, windows: windows, into: &expected)
                let (digits, negated) =
                    switch id {
                    case 12: Self.cDigits(FourLimbNISTKernels<P256Prime>.self, k, width: width, windows: windows)
                    default: Self.cDigits(FourLimbNISTKernels<P224Prime>.self, k, width: width, windows: windows)
                    }
                #expect(digits == expected, "k = \(k), width \(width)")
                #expect(negated == expectedNegated, "k = \(k)")
            }
        }
    }

    private static func bigInt(_ a: FieldElement4) -> BigInt {
        withUnsafePointer(to: a) {
            $0.withMemoryRebound(to: Limb.self, capacity: 4) { MontgomeryField.bigInt(from: $0, limbCount: 4) }
        }
    }

    private static func cDigits<Prime: FourLimbPrime>(
        _ kernels: FourLimbNISTKernels<Prime>.Type, _ k: BigInt, width: Int, windows: Int
    ) -> ([Int], Limb) {
        kernels.withRegularDigits(k, width: width, windows: windows) { (Array($0), $1) }
    }

    /// The pooled blinding factors (`emrtd_random_limbs`): distinct draws across pool refills, draws
    /// larger than the pool, and the edge counts.
    @Test func randomLimbsDrawDistinctValues() {
        var seen = Set<[Limb]>()
        for _ in 0..<200 {
            var limbs = [Limb](repeating: 0, count: 4)
            #expect(emrtd_random_limbs(&limbs, 4) == 1)
            seen.insert(limbs)
        }
        #expect(seen.count == 200)
        var large = [Limb](repeating: 0, count: 100)
        #expect(emrtd_random_limbs(&large, 100) == 1)
        #expect(Set(large).count == 100)
        var none: [Limb] = []
        #expect(emrtd_random_limbs(&none, 0) == 1)
        #expect(emrtd_random_limbs(&none, -1) == 0)
    }
}
