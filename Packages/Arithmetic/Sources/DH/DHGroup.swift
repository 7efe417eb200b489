import CGMP
import Secrets
import Synchronization

/// A multiplicative group mod a prime p with generator g, and the order q of the subgroup g generates
/// when known (the RFC 5114 groups): the DH domain parameters of PACE and Chip Authentication.
public struct DHGroup: Sendable, Hashable {
    public let p: BigInt
    public let g: BigInt
    /// q, the prime order of g, when known; public values are checked against it.
    public let subgroupOrder: BigInt?
    /// The ICAO 9303-11 standardized domain parameter id, when standard.
    public let standardParameterID: Int?
    public let name: String?
    let precomputation: DHPrecomputation

    /// Length in bytes of p: the length of public values and shared secrets.
    public var length: Int { p.byteCount }

    /// A group from explicit parameters: p an odd prime, 1 < g < p - 1, q (when given) prime with g^q = 1.
    /// Standard parameters are recognised and get the standard id, name and precomputation.
    /// - Throws: `domainParametersTooLarge` beyond `DomainParameterLimits` (before any test runs),
    ///   `invalidDomainParameters` naming the failed check.
    public init(p: BigInt, g: BigInt, subgroupOrder q: BigInt?) throws {
        try DomainParameterLimits.checkGroup(
            modulusBits: p.bitWidth, generatorBits: g.bitWidth, orderBits: q?.bitWidth)
        if let standard = StandardDomainParameters.group(p: p, g: g, q: q) {
            self = standard
            return
        }
        func fail(_ reason: String) -> ArithmeticError { ArithmeticError(.invalidDomainParameters, reason) }
        guard p.isOdd, p.bitWidth >= 512, p.isProbablePrime() else {
            throw fail("p is not an odd prime of at least 512 bits")
        }
        guard g > BigInt(1), g < p - BigInt(1) else { throw fail("g is out of (1, p - 1)") }
        if let q {
            guard q.isProbablePrime(), g.power(q, modulo: p) == BigInt(1) else {
                throw fail("g does not have prime order q")
            }
        }
        self.init(p: p, g: g, q: q, id: nil, name: nil, keepsTable: false)
    }

    init(p: BigInt, g: BigInt, q: BigInt?, id: Int?, name: String?, keepsTable: Bool) {
        self.p = p
        self.g = g
        subgroupOrder = q
        standardParameterID = id
        self.name = name
        precomputation = DHPrecomputation(keepsTable: keepsTable)
    }

    public static func == (lhs: DHGroup, rhs: DHGroup) -> Bool {
        lhs.p == rhs.p && lhs.g == rhs.g && lhs.subgroupOrder == rhs.subgroupOrder
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(p)
        hasher.combine(g)
    }

    /// Checks a public value from outside: 1 < y < p - 1 and, when q is known, y^q ≡ 1 (mod p).
    public func validatePublicValue(_ y: BigInt) throws {
        guard y > BigInt(1), y < p - BigInt(1) else {
            throw ArithmeticError(.invalidPublicValue, "the public value is out of (1, p - 1)")
        }
        if let q = subgroupOrder, power(y, q) != BigInt(1) {
            throw ArithmeticError(.invalidPublicValue, "the public value is outside the subgroup of order q")
        }
    }

    /// Decodes a public value (big-endian, at most `length` bytes) and validates it.
    public func decodePublicValue(_ bytes: [UInt8]) throws -> BigInt {
        guard bytes.count <= length else {
            throw ArithmeticError(
                .malformedEncoding, "a public value of \(bytes.count) bytes for a \(length)-byte group")
        }
        let y = BigInt(bytes: bytes)
        try validatePublicValue(y)
        return y
    }

    /// The public value's encoding: exactly `length` bytes.
    public func encodePublicValue(_ y: BigInt) throws -> [UInt8] { try y.bytes(length: length) }

    /// base^exponent mod p for a public exponent: the IFMA kernel's fixed window over the exponent's
    /// own length where the CPU has it (`WideMontgomeryKernel`), else GMP `mpz_powm` (variable time:
    /// its sliding window beats `WindowedPower`'s fixed one when the exponent need not be hidden).
    public func power(_ base: BigInt, _ exponent: BigInt) -> BigInt {
        if exponent.signum >= 0, let kernel = precomputation.windowedPower(for: self).kernel,
            let result = kernel.power(base.modulo(p), exponent, bits: exponent.bitWidth)
        {
            return result
        }
        return base.power(exponent, modulo: p) ?? BigInt(0)
    }

    /// base^exponent mod p for a secret exponent > 0, regular (`WindowedPower`, every table entry read
    /// for each window). The schedule covers q's bits (p's without q), or the exponent's when it is
    /// longer: a private key below q runs the same operations whatever its value.
    /// - Throws: `noResult` for an exponent ≤ 0.
    public func powerSecret(_ base: BigInt, _ exponent: BigInt) throws -> BigInt {
        guard exponent.signum > 0 else { throw ArithmeticError(.noResult, "a secret exponent must be positive") }
        let bits = max((subgroupOrder ?? p).bitWidth, exponent.bitWidth)
        return precomputation.windowedPower(for: self).power(base.modulo(p), exponent, bits: bits)
    }

    /// g^exponent mod p for a secret exponent > 0, regular: standard groups use a fixed-base table (one
    /// Montgomery multiplication per 6 exponent bits, every entry of a window read): the IFMA kernel's
    /// (`WideMontgomeryKernel.FixedBaseTable`) where the CPU has it, else `FixedBasePowerTable`'s on
    /// GMP. Other groups use `powerSecret`.
    public func generatorPower(_ exponent: BigInt) throws -> BigInt {
        guard exponent.signum > 0 else { throw ArithmeticError(.invalidScalar, "a DH exponent must be positive") }
        guard precomputation.keepsTable else { return try powerSecret(g, exponent) }
        // g has order q, so the exponent may be reduced mod q (the tables cover q's bits).
        let bits = DHPrecomputation.tableExponentBits(for: self)
        let reduced = exponent.bitWidth > bits ? exponent.modulo(subgroupOrder ?? p) : exponent
        if let table = precomputation.wideTable(for: self), let result = table.power(reduced) { return result }
        return precomputation.table(for: self).power(reduced)
    }

    /// A key pair: a private exponent uniform in [1, q) (or [1, p - 1) without q) and g^x mod p.
    public func generateKeyPair(random: RandomSource = .system) throws -> (
        privateKey: BigInt, publicKey: BigInt
    ) {
        let privateKey = try BigInt.random(below: subgroupOrder ?? (p - BigInt(1)), using: random)
        return (privateKey, try generatorPower(privateKey))
    }

    /// A key pair on another generator (a PACE mapped generator).
    public func generateKeyPair(
        generator base: BigInt, random: RandomSource = .system
    ) throws -> (privateKey: BigInt, publicKey: BigInt) {
        let privateKey = try BigInt.random(below: subgroupOrder ?? (p - BigInt(1)), using: random)
        return (privateKey, try powerSecret(base, privateKey))
    }

    /// DH shared secret peer^x mod p, exactly `length` bytes; the peer's value is validated first.
    public func sharedSecret(privateKey: BigInt, peerPublicValue: BigInt) throws -> [UInt8] {
        try validatePublicValue(peerPublicValue)
        return try powerSecret(peerPublicValue, privateKey).bytes(length: length)
    }
}

/// What a group computes once and keeps: its Montgomery field and IFMA kernel for every
/// exponentiation (any group), and the fixed-base tables of a standard group's generator; all built on
/// first use. The GMP table is built only when the IFMA one is missing (a CPU without IFMA, or a test
/// that deselected the kernel), so a group holds one table in practice.
final class DHPrecomputation: Sendable {
    let keepsTable: Bool
    private let cached = Mutex<FixedBasePowerTable?>(nil)
    private let cachedWide = Mutex<WideMontgomeryKernel.FixedBaseTable?>(nil)
    private let cachedPower = Mutex<WindowedPower?>(nil)

    init(keepsTable: Bool) { self.keepsTable = keepsTable }

    /// The exponent bits the fixed-base tables cover: q's (p's without q).
    static func tableExponentBits(for group: DHGroup) -> Int { (group.subgroupOrder ?? group.p).bitWidth }

    /// The window width of the fixed-base tables.
    static let tableWidth = 6

    func windowedPower(for group: DHGroup) -> WindowedPower {
        cachedPower.withLock { power in
            if let power { return power }
            let built = WindowedPower(
                field: MontgomeryField(modulus: group.p), kernel: WideMontgomeryKernel(modulus: group.p))
            power = built
            return built
        }
    }

    /// The IFMA fixed-base table, or nil without the kernel (then not kept, so a later call with the
    /// kernel selected again builds it).
    func wideTable(for group: DHGroup) -> WideMontgomeryKernel.FixedBaseTable? {
        guard keepsTable, let kernel = windowedPower(for: group).kernel else { return nil }
        return cachedWide.withLock { table in
            if let table { return table }
            let built = kernel.fixedBaseTable(
                base: group.g, exponentBits: DHPrecomputation.tableExponentBits(for: group),
                width: DHPrecomputation.tableWidth)
            table = built
            return built
        }
    }

    func table(for group: DHGroup) -> FixedBasePowerTable {
        cached.withLock { table in
            if let table { return table }
            let built = FixedBasePowerTable(
                base: group.g, modulus: group.p, exponentBits: DHPrecomputation.tableExponentBits(for: group),
                width: DHPrecomputation.tableWidth)
            table = built
            return built
        }
    }
}
