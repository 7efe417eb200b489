import CFieldKernels
import Foundation
import OpenSSLReference
import Testing

@testable import Arithmetic

/// P-521's dedicated back end (`P521Curve`, nine 58-bit limbs in C): its field against `BigInt`, its
/// scalar multiplications and ECDSA verification against OpenSSL, with the edge cases of the formulas.
/// The differential tests run once per product kernel the machine has (portable C, and x86-64 MULX where
/// the CPU has BMI2); serialized, since the kernel is a process-wide choice.
@Suite(.serialized) struct P521KernelTests {
    static let id = 18
    static let p = (BigInt(1) << 521) - BigInt(1)

    /// The product kernels this machine runs: the portable C (0) always, MULX (1) where the CPU has BMI2.
    static let kernels: [Int32] = {
        let previous = emrtd_p521_kernel(-1)
        defer { _ = emrtd_p521_kernel(previous) }
        return emrtd_p521_kernel(1) == 1 ? [0, 1] : [0]
    }()

    /// Switches the product kernel and returns the one in use before.
    @discardableResult static func use(_ kernel: Int32) -> Int32 {
        let previous = emrtd_p521_kernel(-1)
        #expect(emrtd_p521_kernel(kernel) == kernel)
        return previous
    }

    static func words(_ value: BigInt) -> [Limb] { ScalarRecoding.limbs(of: value, count: 9) }

    static func value(_ words: [Limb]) -> BigInt {
        BigInt(
            bytes: words.reversed().flatMap { word in
                (0..<8).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
            })
    }

    /// Products, squares, differences and inverses (Fermat, extended gcd, blinded) against BigInt, on
    /// random elements and on the edges: 0, 1, p - 1, p itself (every bit set: the unreduced zero) and
    /// values with the top bits set.
    @Test(arguments: kernels) func fieldMatchesBigInt(kernel: Int32) throws {
        let previous = Self.use(kernel)
        defer { Self.use(previous) }
        let p = Self.p
        var values = [
            BigInt(0), BigInt(1), BigInt(2), p - BigInt(1), p - BigInt(2), p, BigInt(1) << 520,
            (BigInt(1) << 521) - (BigInt(1) << 464), (BigInt(1) << 58) - BigInt(1),
        ]
        values += (0..<60).map { _ in BigInt(bytes: openSSLRandomBytes(66)).modulo(p) }
        for (index, x) in values.enumerated() {
            let y = values[(index * 7 + 3) % values.count]
            var r = [Limb](repeating: 0, count: 9)
            emrtd_p521_mul_words(&r, Self.words(x), Self.words(y))
            #expect(Self.value(r) == x.multiplied(by: y, modulo: p), "\(x) · \(y)")
            emrtd_p521_sqr_words(&r, Self.words(x))
            #expect(Self.value(r) == x.multiplied(by: x, modulo: p), "\(x)²")
            emrtd_p521_sub_words(&r, Self.words(x), Self.words(y))
            #expect(Self.value(r) == x.subtracting(y, modulo: p), "\(x) - \(y)")
            emrtd_p521_inv_words(&r, Self.words(x))
            let expected = x.modulo(p).isZero ? BigInt(0) : try #require(x.inverse(modulo: p))
            #expect(Self.value(r) == expected, "1/\(x)")
            // The extended-gcd inversions: the public paths' plain one and the secret paths' blinded one.
            emrtd_p521_inv_gcd_words(&r, Self.words(x), 0)
            #expect(Self.value(r) == expected, "1/\(x) by gcd")
            emrtd_p521_inv_gcd_words(&r, Self.words(x), 1)
            #expect(Self.value(r) == expected, "1/\(x) blinded")
        }
    }

    /// The kernel chosen when the library loads follows the CPU: MULX exactly where Linux lists bmi2.
    @Test func defaultKernelFollowsTheCPU() throws {
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
            print("P521KernelTests: /proc/cpuinfo unreadable, the default kernel is not checked")
            return
        }
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ") ?? []
        #if arch(x86_64)
            #expect(emrtd_p521_kernel(-1) == (flags.contains("bmi2") ? 1 : 0))
        #else
            #expect(emrtd_p521_kernel(-1) == 0)
        #endif
    }

    @Test func curveUsesTheDedicatedBackEnd() throws {
        let curve = try #require(standardCurve(Self.id))
        #expect(curve.context.dedicated is P521Curve)
    }

    /// Random and edge scalars (1…4, n - 1…n - 4, n) on a random point and on the generator, through the
    /// public, secret and fixed-base paths; P + P and P + (-P); the public combination u1·G + u2·Q with
    /// u2·Q = ±u1·G (doubling and cancelling inside the accumulation).
    @Test(arguments: kernels) func scalarMultiplicationMatchesOpenSSL(kernel: Int32) throws {
        let previous = Self.use(kernel)
        defer { Self.use(previous) }
        let curve = try #require(standardCurve(Self.id))
        let reference = try #require(OpenSSLCurve(parameterID: Self.id))
        var scalars = (1...4).map { BigInt($0) } + (1...4).map { curve.order - BigInt($0) }
        for _ in 0..<differentialCases(default: 8) {
            scalars.append(try BigInt.random(below: curve.order, using: openSSLRandomSource))
        }
        let pointScalar = try BigInt.random(below: curve.order, using: openSSLRandomSource)
        let pointBytes = try #require(reference.multiply(nil, by: pointScalar))
        let point = try curve.decodePoint(pointBytes)
        for k in scalars {
            let expected = reference.multiply(pointBytes, by: k)
            #expect(try curve.encode(curve.multiply(point, by: k)) == expected, "k = \(k)")
            #expect(try curve.encode(curve.multiplySecret(point, by: k)) == expected, "k = \(k)")
            #expect(try curve.encode(curve.multiplyGenerator(by: k)) == reference.multiply(nil, by: k), "k = \(k)")
        }
        #expect(curve.multiply(point, by: curve.order) == .infinity)
        #expect(curve.multiply(point, by: BigInt(0)) == .infinity)
        #expect(throws: ArithmeticError.self) { try curve.multiplySecret(point, by: curve.order) }
        #expect(throws: ArithmeticError.self) { try curve.multiplySecret(point, by: BigInt(0)) }
        #expect(try curve.encode(curve.add(point, point)) == reference.multiply(pointBytes, by: BigInt(2)))
        #expect(curve.add(point, curve.negate(point)) == .infinity)
        // Odd multiples of a point through the C batch (the wNAF table of a public base).
        let table = try #require(curve.context.dedicated).oddMultiplesAffine(
            curve.context.generatorLimbs.pointer, count: 8)
        let workspace = Workspace(limbCount: 9, temporaries: 0)
        for index in 0..<8 {
            let x = curve.context.field.value(of: table.pointer + 18 * index, scratch: workspace.scratch)
            let y = curve.context.field.value(of: table.pointer + 18 * index + 9, scratch: workspace.scratch)
            let expected = try curve.decodePoint(try #require(reference.multiply(nil, by: BigInt(2 * index + 1))))
            #expect(ECPoint.affine(x: x, y: y) == expected, "\(2 * index + 1)G")
        }
    }

    /// ECDSA verification of OpenSSL's signatures (and the rejection of altered ones), including the
    /// combination where u1·G and u2·Q meet: Q = G with u1 = u2 doubles, Q = -G cancels.
    @Test(arguments: kernels) func ecdsaMatchesOpenSSL(kernel: Int32) throws {
        let previous = Self.use(kernel)
        defer { Self.use(previous) }
        let curve = try #require(standardCurve(Self.id))
        let reference = try #require(OpenSSLCurve(parameterID: Self.id))
        try expectVerifiesOpenSSLSignatures(
            on: curve, reference: reference, digestLength: 64, count: differentialCases(default: 6))
        // The public combination meeting its exceptional cases in the C accumulation: k·G + k·G
        // doubles, k·G + k·(-G) cancels, k·G + (n - k)·G is infinity too.
        let k = try BigInt.random(below: curve.order, using: openSSLRandomSource)
        let g = curve.generator
        #expect(
            try curve.encode(curve.linearCombination([(k, g), (k, g)]))
                == reference.multiply(nil, by: k.multiplied(by: BigInt(2), modulo: curve.order)))
        #expect(curve.linearCombination([(k, g), (k, curve.negate(g))]) == .infinity)
        #expect(curve.linearCombination([(k, g), (curve.order - k, g)]) == .infinity)
    }

    /// Release builds keep P-521's field plain (R = 1) where debug builds (these tests) use Montgomery
    /// form: the back end over a plain field, built by hand, against OpenSSL for the secret, fixed-base
    /// and public paths.
    @Test(arguments: kernels) func plainRepresentationMatchesOpenSSL(kernel: Int32) throws {
        let previous = Self.use(kernel)
        defer { Self.use(previous) }
        let curve = try #require(standardCurve(Self.id))
        let reference = try #require(OpenSSLCurve(parameterID: Self.id))
        let field = MontgomeryField(modulus: curve.p, swiftKernels: true)
        #expect(field.isPlainP521)
        let multiplier = ScalarMultiplier(
            curve: JacobianArithmetic(field: field, a: curve.a, b: curve.b), order: curve.order)
        let backEnd = P521Curve(multiplier: multiplier)
        func limbs(_ point: ECPoint) throws -> [Limb] {
            guard case .affine(let x, let y) = point else { throw ArithmeticError(.invalidPoint, "infinity") }
            return Self.words(x) + Self.words(y)
        }
        func point(_ limbs: [Limb]) -> ECPoint {
            .affine(x: Self.value(Array(limbs[0..<9])), y: Self.value(Array(limbs[9..<18])))
        }
        let generator = try limbs(curve.generator)
        let table = multiplier.fixedBaseTable(for: generator, width: CurveContext.p521GeneratorFixedWidth)
        let odd = backEnd.oddMultiplesAffine(generator, count: 8)
        var scalars = [BigInt(1), BigInt(2), curve.order - BigInt(1), curve.order - BigInt(2)]
        for _ in 0..<differentialCases(default: 4) {
            scalars.append(try BigInt.random(below: curve.order, using: openSSLRandomSource))
        }
        var result = [Limb](repeating: 0, count: 18)
        for k in scalars {
            let expected = try curve.decodePoint(try #require(reference.multiply(nil, by: k)))
            #expect(backEnd.multiplySecret(&result, point: generator, scalar: k))
            #expect(point(result) == expected, "secret k = \(k)")
            #expect(backEnd.multiplyFixed(&result, table: table, scalar: k))
            #expect(point(result) == expected, "fixed k = \(k)")
            let term = ScalarMultiplier.Term(digits: ScalarRecoding.wNAF(k, width: 5), table: odd.pointer)
            #expect(withExtendedLifetime(odd) { backEnd.multiplyPublic(&result, terms: [term]) })
            #expect(point(result) == expected, "public k = \(k)")
        }
    }

    /// Points off the curve, with a coordinate ≥ p, or the point at infinity are rejected before they
    /// reach the back end.
    @Test func invalidPointsAreRejected() throws {
        let curve = try #require(standardCurve(Self.id))
        let reference = try #require(OpenSSLCurve(parameterID: Self.id))
        let valid = try #require(reference.multiply(nil, by: BigInt(12345)))
        var offCurve = valid
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: ArithmeticError.self) { try curve.decodePoint(offCurve) }
        let length = 66
        let tooLarge = [UInt8(4)] + [UInt8](repeating: 0xFF, count: 2 * length)
        #expect(throws: ArithmeticError.self) { try curve.decodePoint(tooLarge) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint([0]) }
    }
}
