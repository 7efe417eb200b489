/// A short-Weierstrass curve y² = x³ + ax + b over the prime field F_p, with a generator G of prime
/// order n and cofactor h: the explicit domain parameters of X9.62 / TR-03111, standard or not.
///
/// Constructing a curve whose parameters equal a standardized one (ICAO 9303-11 ids 8–18) returns that
/// curve, so it shares its precomputed tables and reports its `standardParameterID` and `name`.
public struct EllipticCurve: Sendable, Hashable {
    let context: CurveContext
    /// The ICAO 9303-11 standardized domain parameter id, when these are standard parameters.
    public let standardParameterID: Int?
    /// The curve's name ("brainpoolP256r1", "P-256", …) when standard.
    public let name: String?

    public var p: BigInt { context.p }
    public var a: BigInt { context.a }
    public var b: BigInt { context.b }
    public var generator: ECPoint { context.generator }
    public var order: BigInt { context.order }
    public var cofactor: BigInt { context.cofactor }
    /// Length in bytes of a field element (a coordinate, an ECDH shared secret).
    public var coordinateLength: Int { context.field.byteLength }
    /// Length in bytes of the order (a scalar, half of a plain ECDSA signature).
    public var orderLength: Int { context.order.byteCount }

    init(context: CurveContext, standardParameterID: Int?, name: String?) {
        self.context = context
        self.standardParameterID = standardParameterID
        self.name = name
    }

    /// Explicit domain parameters, checked: p an odd prime > 3, 0 ≤ a, b < p, a non-singular curve
    /// (4a³ + 27b² ≠ 0), G on the curve, n a prime > 2^64 with n·G = O, and h ≥ 1.
    /// - Throws: `domainParametersTooLarge` beyond `DomainParameterLimits` (before any test runs),
    ///   `invalidDomainParameters` naming the failed check.
    public init(p: BigInt, a: BigInt, b: BigInt, generator: ECPoint, order: BigInt, cofactor: BigInt) throws {
        try DomainParameterLimits.checkCurve(
            fieldBits: p.bitWidth, orderBits: order.bitWidth, cofactorBits: cofactor.bitWidth)
        if let standard = StandardDomainParameters.curve(
            p: p, a: a, b: b, generator: generator, order: order, cofactor: cofactor)
        {
            self = standard
            return
        }
        func fail(_ reason: String) -> ArithmeticError { ArithmeticError(.invalidDomainParameters, reason) }
        guard p.isOdd, p > BigInt(3), p.isProbablePrime() else { throw fail("p is not an odd prime > 3") }
        guard a.signum >= 0, a < p, b.signum >= 0, b < p else { throw fail("a or b is out of [0, p)") }
        let discriminant = (BigInt(4) * a * a * a + BigInt(27) * b * b).modulo(p)
        guard !discriminant.isZero else { throw fail("the curve is singular (4a³ + 27b² = 0)") }
        guard order.bitWidth > 64, order.isProbablePrime() else { throw fail("the order n is not a large prime") }
        guard cofactor.signum > 0 else { throw fail("the cofactor is not positive") }
        guard case .affine(let gx, let gy) = generator, gx < p, gy < p, gx.signum >= 0, gy.signum >= 0 else {
            throw fail("the generator is not an affine point with coordinates in [0, p)")
        }
        let context = CurveContext(
            p: p, a: a, b: b, generator: generator, order: order, cofactor: cofactor, keepsTables: false)
        let curve = EllipticCurve(context: context, standardParameterID: nil, name: nil)
        guard curve.isOnCurve(generator) else { throw fail("the generator is not on the curve") }
        guard curve.multiply(generator, by: order) == .infinity else { throw fail("n·G is not the point at infinity") }
        self = curve
    }

    /// Explicit domain parameters as they appear in certificates and SecurityInfos: big-endian
    /// integers, the generator as an encoded point (`04`‖x‖y or compressed).
    public init(p: [UInt8], a: [UInt8], b: [UInt8], generator: [UInt8], order: [UInt8], cofactor: [UInt8]) throws {
        // Before the generator is decoded: a compressed one costs a square root mod p.
        try DomainParameterLimits.checkCurve(
            fieldBits: DomainParameterLimits.bitLength(p), orderBits: DomainParameterLimits.bitLength(order),
            cofactorBits: DomainParameterLimits.bitLength(cofactor))
        let prime = BigInt(bytes: p)
        let aValue = BigInt(bytes: a)
        let bValue = BigInt(bytes: b)
        guard prime.isOdd, prime > BigInt(3) else {
            throw ArithmeticError(.invalidDomainParameters, "p is not an odd number > 3")
        }
        let point = try EllipticCurve.decodeCoordinates(generator, p: prime, a: aValue, b: bValue)
        try self.init(
            p: prime, a: aValue, b: bValue, generator: point, order: BigInt(bytes: order),
            cofactor: cofactor.isEmpty ? BigInt(1) : BigInt(bytes: cofactor))
    }

    public static func == (lhs: EllipticCurve, rhs: EllipticCurve) -> Bool {
        lhs.context === rhs.context
            || (lhs.p == rhs.p && lhs.a == rhs.a && lhs.b == rhs.b && lhs.generator == rhs.generator
                && lhs.order == rhs.order && lhs.cofactor == rhs.cofactor)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(p)
        hasher.combine(a)
        hasher.combine(b)
        hasher.combine(order)
    }

    // MARK: Points

    /// Whether the affine point satisfies the curve equation (coordinates reduced or not).
    public func isOnCurve(_ point: ECPoint) -> Bool {
        guard case .affine(let x, let y) = point else { return false }
        let left = (y * y).modulo(p)
        let right = (x * x * x + a * x + b).modulo(p)
        return left == right
    }

    /// Checks a point received from outside: not infinity, coordinates in [0, p), on the curve and, when
    /// the cofactor is not 1, in the subgroup of order n.
    /// - Throws: `invalidPoint` naming the failed check.
    public func validate(_ point: ECPoint) throws {
        guard case .affine(let x, let y) = point else {
            throw ArithmeticError(.invalidPoint, "the point at infinity")
        }
        guard x.signum >= 0, x < p, y.signum >= 0, y < p else {
            throw ArithmeticError(.invalidPoint, "a coordinate is out of [0, p)")
        }
        guard isOnCurve(point) else { throw ArithmeticError(.invalidPoint, "the point is not on the curve") }
        if cofactor != BigInt(1) && multiply(point, by: order) != .infinity {
            throw ArithmeticError(.invalidPoint, "the point is outside the subgroup of order n")
        }
    }

    /// Decodes and validates a point: uncompressed `04`‖x‖y or compressed `02`/`03`‖x, coordinates
    /// exactly `coordinateLength` bytes.
    public func decodePoint(_ bytes: [UInt8]) throws -> ECPoint {
        let point = try EllipticCurve.decodeCoordinates(bytes, p: p, a: a, b: b)
        try validate(point)
        return point
    }

    /// The SEC 1 encoding: `04`‖x‖y, or `02`/`03`‖x when `compressed`.
    /// - Throws: `invalidPoint` for infinity or coordinates longer than the field.
    public func encode(_ point: ECPoint, compressed: Bool = false) throws -> [UInt8] {
        guard case .affine(let x, let y) = point else {
            throw ArithmeticError(.invalidPoint, "the point at infinity has no encoding here")
        }
        let xBytes = try x.bytes(length: coordinateLength)
        if compressed { return [y.isOdd ? 0x03 : 0x02] + xBytes }
        return [0x04] + xBytes + (try y.bytes(length: coordinateLength))
    }

    static func decodeCoordinates(_ bytes: [UInt8], p: BigInt, a: BigInt, b: BigInt) throws -> ECPoint {
        let length = p.byteCount
        guard let tag = bytes.first else { throw ArithmeticError(.malformedEncoding, "an empty point encoding") }
        switch tag {
        case 0x04:
            guard bytes.count == 1 + 2 * length else {
                throw ArithmeticError(
                    .malformedEncoding, "an uncompressed point of \(bytes.count) bytes, expected \(1 + 2 * length)")
            }
            return .affine(x: BigInt(bytes: bytes[1...length]), y: BigInt(bytes: bytes[(1 + length)...]))
        case 0x02, 0x03:
            guard bytes.count == 1 + length else {
                throw ArithmeticError(
                    .malformedEncoding, "a compressed point of \(bytes.count) bytes, expected \(1 + length)")
            }
            let x = BigInt(bytes: bytes[1...])
            guard x < p else { throw ArithmeticError(.invalidPoint, "x is out of [0, p)") }
            let right = (x * x * x + a * x + b).modulo(p)
            guard var y = right.squareRoot(modulo: p) else {
                throw ArithmeticError(.invalidPoint, "no point on the curve has this x")
            }
            if y.isOdd != (tag == 0x03) { y = (p - y).modulo(p) }
            return .affine(x: x, y: y)
        case 0x00:
            throw ArithmeticError(.invalidPoint, "the point at infinity")
        default:
            throw ArithmeticError(.malformedEncoding, "unknown point encoding tag \(tag)")
        }
    }

    // MARK: Group law (public data, variable time)

    public func negate(_ point: ECPoint) -> ECPoint {
        guard case .affine(let x, let y) = point else { return .infinity }
        return .affine(x: x, y: (p - y).modulo(p))
    }

    public func add(_ first: ECPoint, _ second: ECPoint) -> ECPoint {
        guard case .affine = first else { return second }
        guard case .affine = second else { return first }
        let arithmetic = context.arithmetic
        let workspace = Workspace(limbCount: context.field.limbCount)
        let q1 = LimbBuffer(count: arithmetic.jacobianLimbs)
        let q2 = LimbBuffer(count: arithmetic.affineLimbs)
        let affine = LimbBuffer(count: arithmetic.affineLimbs)
        context.loadAffine(first, into: affine.pointer)
        arithmetic.lift(q1.pointer, affine.pointer)
        context.loadAffine(second, into: q2.pointer)
        arithmetic.mixedAddPublic(q1.pointer, q1.pointer, q2.pointer, workspace)
        return context.publicPoint(fromJacobian: q1.pointer, workspace)
    }

    public func double(_ point: ECPoint) -> ECPoint { add(point, point) }

    /// k·P for a public scalar k ≥ 0 (variable time: signature verification, checks). Not reduced
    /// modulo n, so it also serves for subgroup checks.
    public func multiply(_ point: ECPoint, by scalar: BigInt) -> ECPoint {
        linearCombination([(scalar, point)])
    }

    /// Σ kᵢ·Pᵢ for public scalars kᵢ ≥ 0 with one shared doubling chain; the generator uses its
    /// precomputed table on standard curves.
    func linearCombination(_ terms: [(scalar: BigInt, point: ECPoint)]) -> ECPoint {
        let arithmetic = context.arithmetic
        let workspace = Workspace(limbCount: context.field.limbCount)
        let (tables, wnafTerms) = publicTerms(terms, workspace)
        if let dedicated = context.dedicated {
            let result = LimbBuffer(count: arithmetic.affineLimbs)
            let finite = withExtendedLifetime(tables) { dedicated.multiplyPublic(result.pointer, terms: wnafTerms) }
            return finite ? context.affinePoint(from: result.pointer) : .infinity
        }
        let result = LimbBuffer(count: arithmetic.jacobianLimbs)
        withExtendedLifetime(tables) {
            context.multiplier.multiplyPublic(result.pointer, terms: wnafTerms, workspace)
        }
        return context.publicPoint(fromJacobian: result.pointer, workspace)
    }

    /// Whether Σ kᵢ·Pᵢ is a finite point whose x-coordinate is ≡ r (mod n), 0 ≤ r < n: ECDSA's last
    /// check. The dedicated back ends compare X with x·Z² for each x = r + j·n below p, which spares the
    /// inversion to affine form.
    func linearCombinationHasX(_ terms: [(scalar: BigInt, point: ECPoint)], congruentTo r: BigInt) -> Bool {
        guard let dedicated = context.dedicated else {
            guard case .affine(let x, _) = linearCombination(terms) else { return false }
            return x.modulo(order) == r
        }
        let workspace = Workspace(limbCount: context.field.limbCount)
        let (tables, wnafTerms) = publicTerms(terms, workspace)
        var candidates: [BigInt] = []
        var x = r
        while x < p {
            candidates.append(x)
            x = x + order
        }
        let n = context.field.limbCount
        let limbs = LimbBuffer(count: max(candidates.count, 1) * n)
        for (index, candidate) in candidates.enumerated() {
            context.field.load(candidate, into: limbs.pointer + index * n, scratch: workspace.scratch)
        }
        return withExtendedLifetime(tables) {
            dedicated.publicCombinationHasX(in: limbs.pointer, count: candidates.count, terms: wnafTerms)
        }
    }

    /// The wNAF terms of a public linear combination and the tables they point into (kept alive by the
    /// caller): the generator's precomputed table, or odd multiples computed for the point.
    private func publicTerms(
        _ terms: [(scalar: BigInt, point: ECPoint)], _ workspace: Workspace
    ) -> (tables: [LimbBuffer], terms: [ScalarMultiplier.Term]) {
        var tables: [LimbBuffer] = []
        var wnafTerms: [ScalarMultiplier.Term] = []
        for (scalar, point) in terms {
            guard case .affine = point, scalar.signum > 0 else { continue }
            if point == context.generator && context.keepsGeneratorTables {
                let table = context.generatorTables.oddMultiples
                tables.append(table)
                wnafTerms.append(
                    .init(
                        digits: ScalarRecoding.wNAF(scalar, width: CurveContext.generatorWNAFWidth),
                        table: table.pointer))
                continue
            }
            let width = 5
            let affine = LimbBuffer(count: context.arithmetic.affineLimbs)
            context.loadAffine(point, into: affine.pointer)
            let count = 1 << (width - 2)
            let table =
                context.dedicated?.oddMultiplesAffine(affine.pointer, count: count)
                ?? context.multiplier.oddMultiplesAffine(affine.pointer, count: count, workspace)
            tables.append(table)
            wnafTerms.append(.init(digits: ScalarRecoding.wNAF(scalar, width: width), table: table.pointer))
        }
        return (tables, wnafTerms)
    }

    // MARK: Secret scalars (regular schedule)

    /// k·P for a secret scalar (an ephemeral private key, a nonce), with a schedule independent of k.
    /// P must have order n (a validated point, the generator, a mapped generator); k is taken mod n.
    /// - Throws: `invalidScalar` when k ≡ 0 mod n, `invalidPoint` when P is infinity.
    public func multiplySecret(_ point: ECPoint, by scalar: BigInt) throws -> ECPoint {
        guard case .affine = point else { throw ArithmeticError(.invalidPoint, "the point at infinity") }
        if point == context.generator { return try multiplyGenerator(by: scalar) }
        let k = try reducedScalar(scalar)
        let affine = LimbBuffer(count: context.arithmetic.affineLimbs)
        context.loadAffine(point, into: affine.pointer)
        let result = LimbBuffer(count: context.arithmetic.affineLimbs)
        let multiplier: any SecretScalarMultiplication = context.dedicated ?? context.multiplier
        guard multiplier.multiplySecret(result.pointer, point: affine.pointer, scalar: k) else {
            return .infinity
        }
        return context.affinePoint(from: result.pointer)
    }

    /// k·G for a secret scalar, regular; standard curves use their fixed-base table.
    public func multiplyGenerator(by scalar: BigInt) throws -> ECPoint {
        let k = try reducedScalar(scalar)
        let result = LimbBuffer(count: context.arithmetic.affineLimbs)
        let multiplier: any SecretScalarMultiplication = context.dedicated ?? context.multiplier
        let finite: Bool
        if context.keepsGeneratorTables {
            finite = multiplier.multiplyFixed(result.pointer, table: context.generatorTables.fixed, scalar: k)
        } else {
            finite = multiplier.multiplySecret(result.pointer, point: context.generatorLimbs.pointer, scalar: k)
        }
        return finite ? context.affinePoint(from: result.pointer) : .infinity
    }

    private func reducedScalar(_ scalar: BigInt) throws -> BigInt {
        let k = scalar.signum >= 0 && scalar < order ? scalar : scalar.modulo(order)
        guard !k.isZero else { throw ArithmeticError(.invalidScalar, "the scalar is 0 mod n") }
        return k
    }
}
