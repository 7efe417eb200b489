import Synchronization

/// Everything computed once per curve: the Montgomery field, the point arithmetic, the generator in
/// Montgomery form and, on first use, the generator's precomputed tables.
final class CurveContext: @unchecked Sendable {
    let p: BigInt
    let a: BigInt
    let b: BigInt
    let generator: ECPoint
    let order: BigInt
    let cofactor: BigInt
    let field: MontgomeryField
    let arithmetic: JacobianArithmetic
    /// When a ≠ -3 and the curve has an isomorphic form with a = -3 (Brainpool's r1 curves do: their t1
    /// twins), the arithmetic runs there, where doubling is cheaper; points are mapped at the boundary.
    let isomorphism: CurveIsomorphism?
    let multiplier: ScalarMultiplier
    /// The dedicated arithmetic of P-256 and P-224 (`FourLimbNISTCurve`) and of P-521 (`P521Curve`), which serves every scalar
    /// multiplication when present; the generic back end still builds the generator's tables.
    let dedicated: (any DedicatedCurveArithmetic)?
    /// The generator, affine, in Montgomery form.
    let generatorLimbs: LimbBuffer
    /// Whether to build and keep generator tables (standard curves: they are used again and again).
    let keepsGeneratorTables: Bool
    private let tables = Mutex<GeneratorTables?>(nil)

    /// Width of the generator's wNAF table for public scalars (signature verification).
    static let generatorWNAFWidth = 7
    /// Width of the generator's fixed-base table for secret scalars.
    static let generatorFixedWidth = 5
    /// The same for the dedicated back end (P-256, P-224): 7-bit windows, 64 affine points each (37
    /// windows, 150 KB for P-256), fewer additions for a longer masked read, which its AVX2 read makes cheap.
    static let dedicatedGeneratorFixedWidth = 7
    /// P-521's: its additions cost most, so ⌈521/6⌉ = 87 of them instead of 105 are worth a table of
    /// 32 entries per window (400 KB) read whole for each.
    static let p521GeneratorFixedWidth = 6

    final class GeneratorTables: @unchecked Sendable {
        /// Affine odd multiples G, 3G, …, for the public interleaved wNAF.
        let oddMultiples: LimbBuffer
        let fixed: ScalarMultiplier.FixedBaseTable

        init(oddMultiples: LimbBuffer, fixed: ScalarMultiplier.FixedBaseTable) {
            self.oddMultiples = oddMultiples
            self.fixed = fixed
        }
    }

    /// Parameters must already be checked (`EllipticCurve.init`): p an odd prime > 3, G affine on the curve.
    init(p: BigInt, a: BigInt, b: BigInt, generator: ECPoint, order: BigInt, cofactor: BigInt, keepsTables: Bool) {
        self.p = p
        self.a = a
        self.b = b
        self.generator = generator
        self.order = order
        self.cofactor = cofactor
        field = MontgomeryField(modulus: p)
        isomorphism = CurveIsomorphism(p: p, a: a)
        arithmetic = JacobianArithmetic(
            field: field, a: isomorphism == nil ? a : p - BigInt(3), b: isomorphism?.mapB(b, p: p) ?? b)
        multiplier = ScalarMultiplier(curve: arithmetic, order: order)
        dedicated = CurveContext.dedicatedArithmetic(p: p, a: a, isomorphism: isomorphism, multiplier: multiplier)
        generatorLimbs = LimbBuffer(count: 2 * field.limbCount)
        keepsGeneratorTables = keepsTables
        loadAffine(generator, into: generatorLimbs.pointer)
    }

    private static func dedicatedArithmetic(
        p: BigInt, a: BigInt, isomorphism: CurveIsomorphism?, multiplier: ScalarMultiplier
    ) -> (any DedicatedCurveArithmetic)? {
        guard isomorphism == nil, a == p - BigInt(3) else { return nil }
        if P521Curve.serves(p: p, a: a, isomorphism: isomorphism) { return P521Curve(multiplier: multiplier) }
        guard let prime = NISTMontgomery.prime(for: p) else { return nil }
        return FourLimbNISTCurve(prime: prime, multiplier: multiplier)
    }

    var generatorTables: GeneratorTables {
        tables.withLock { cached in
            if let cached { return cached }
            let workspace = Workspace(limbCount: field.limbCount)
            let built = GeneratorTables(
                oddMultiples: multiplier.oddMultiplesAffine(
                    generatorLimbs.pointer, count: 1 << (CurveContext.generatorWNAFWidth - 2), workspace),
                fixed: multiplier.fixedBaseTable(
                    for: generatorLimbs.pointer,
                    width: MersenneP521.isModulus(p)
                        ? CurveContext.p521GeneratorFixedWidth
                        : dedicated != nil
                            ? CurveContext.dedicatedGeneratorFixedWidth : CurveContext.generatorFixedWidth)
            )
            cached = built
            return built
        }
    }

    /// Writes an affine point's coordinates (reduced mod p) in Montgomery form; infinity is not allowed.
    func loadAffine(_ point: ECPoint, into limbs: Limbs) {
        guard case .affine(var x, var y) = point else { return }
        if let isomorphism { (x, y) = isomorphism.mapIn(x: x, y: y, p: p) }
        let workspace = Workspace(limbCount: field.limbCount, temporaries: 0)
        field.load(x.modulo(p), into: limbs, scratch: workspace.scratch)
        field.load(y.modulo(p), into: limbs + field.limbCount, scratch: workspace.scratch)
    }

    func affinePoint(from limbs: UnsafePointer<Limb>) -> ECPoint {
        let workspace = Workspace(limbCount: field.limbCount, temporaries: 0)
        let x = field.value(of: limbs, scratch: workspace.scratch)
        let y = field.value(of: limbs + field.limbCount, scratch: workspace.scratch)
        guard let isomorphism else { return .affine(x: x, y: y) }
        let (mappedX, mappedY) = isomorphism.mapOut(x: x, y: y, p: p)
        return .affine(x: mappedX, y: mappedY)
    }

    /// Affine form of a Jacobian point of public data.
    func publicPoint(fromJacobian limbs: UnsafePointer<Limb>, _ workspace: Workspace) -> ECPoint {
        if arithmetic.isInfinity(limbs) { return .infinity }
        let affine = LimbBuffer(count: 2 * field.limbCount)
        arithmetic.normalize(affine.pointer, limbs, regular: false, workspace)
        return affinePoint(from: affine.pointer)
    }
}

/// The isomorphism (x, y) ↦ (u²x, u³y) from y² = x³ + ax + b onto y² = x³ - 3x + b·u⁶, for a u with
/// a·u⁴ ≡ -3 (mod p), when one exists.
struct CurveIsomorphism: Sendable {
    let u2: BigInt
    let u3: BigInt
    let u2Inverse: BigInt
    let u3Inverse: BigInt

    init?(p: BigInt, a: BigInt) {
        let minusThree = p - BigInt(3)
        guard a != minusThree, !a.isZero, let aInverse = a.inverse(modulo: p) else { return nil }
        // u⁴ = -3/a: a square root s of it, then u with u² = s (one of ±s may be a square).
        let fourth = minusThree.multiplied(by: aInverse, modulo: p)
        guard let s = fourth.squareRoot(modulo: p) else { return nil }
        let candidates = [s, (p - s).modulo(p)]
        guard let u = candidates.lazy.compactMap({ $0.squareRoot(modulo: p) }).first, !u.isZero,
            let uInverse = u.inverse(modulo: p)
        else { return nil }
        u2 = u.multiplied(by: u, modulo: p)
        u3 = u2.multiplied(by: u, modulo: p)
        u2Inverse = uInverse.multiplied(by: uInverse, modulo: p)
        u3Inverse = u2Inverse.multiplied(by: uInverse, modulo: p)
        guard a.multiplied(by: u2.multiplied(by: u2, modulo: p), modulo: p) == minusThree else { return nil }
    }

    func mapB(_ b: BigInt, p: BigInt) -> BigInt { b.multiplied(by: u3.multiplied(by: u3, modulo: p), modulo: p) }

    func mapIn(x: BigInt, y: BigInt, p: BigInt) -> (BigInt, BigInt) {
        (x.multiplied(by: u2, modulo: p), y.multiplied(by: u3, modulo: p))
    }

    func mapOut(x: BigInt, y: BigInt, p: BigInt) -> (BigInt, BigInt) {
        (x.multiplied(by: u2Inverse, modulo: p), y.multiplied(by: u3Inverse, modulo: p))
    }
}
