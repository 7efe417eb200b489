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
    let multiplier: ScalarMultiplier
    /// The generator, affine, in Montgomery form.
    let generatorLimbs: LimbBuffer
    /// Whether to build and keep generator tables (standard curves: they are used again and again).
    let keepsGeneratorTables: Bool
    private let tables = Mutex<GeneratorTables?>(nil)

    /// Width of the generator's wNAF table for public scalars (signature verification).
    static let generatorWNAFWidth = 7
    /// Width of the generator's fixed-base table for secret scalars.
    static let generatorFixedWidth = 5

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
        arithmetic = JacobianArithmetic(field: field, a: a, b: b)
        multiplier = ScalarMultiplier(curve: arithmetic, order: order)
        generatorLimbs = LimbBuffer(count: 2 * field.limbCount)
        keepsGeneratorTables = keepsTables
        loadAffine(generator, into: generatorLimbs.pointer)
    }

    var generatorTables: GeneratorTables {
        tables.withLock { cached in
            if let cached { return cached }
            let workspace = Workspace(limbCount: field.limbCount)
            let built = GeneratorTables(
                oddMultiples: multiplier.oddMultiplesAffine(
                    generatorLimbs.pointer, count: 1 << (CurveContext.generatorWNAFWidth - 2), workspace),
                fixed: multiplier.fixedBaseTable(for: generatorLimbs.pointer, width: CurveContext.generatorFixedWidth)
            )
            cached = built
            return built
        }
    }

    /// Writes an affine point's coordinates (reduced mod p) in Montgomery form; infinity is not allowed.
    func loadAffine(_ point: ECPoint, into limbs: Limbs) {
        guard case .affine(let x, let y) = point else { return }
        let workspace = Workspace(limbCount: field.limbCount, temporaries: 0)
        field.load(x.modulo(p), into: limbs, scratch: workspace.scratch)
        field.load(y.modulo(p), into: limbs + field.limbCount, scratch: workspace.scratch)
    }

    func affinePoint(from limbs: UnsafePointer<Limb>) -> ECPoint {
        let workspace = Workspace(limbCount: field.limbCount, temporaries: 0)
        return .affine(
            x: field.value(of: limbs, scratch: workspace.scratch),
            y: field.value(of: limbs + field.limbCount, scratch: workspace.scratch)
        )
    }

    /// Affine form of a Jacobian point of public data.
    func publicPoint(fromJacobian limbs: UnsafePointer<Limb>, _ workspace: Workspace) -> ECPoint {
        if arithmetic.isInfinity(limbs) { return .infinity }
        let affine = LimbBuffer(count: 2 * field.limbCount)
        arithmetic.normalize(affine.pointer, limbs, regular: false, workspace)
        return affinePoint(from: affine.pointer)
    }
}
