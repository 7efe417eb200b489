import ASN1
import Arithmetic

/// ICAO 9303-11 §9.5.1's standardized domain parameters, by ID: the RFC 5114 MODP groups (0–2)
/// and the NIST and Brainpool curves (8–18); 3–7 and 19–31 are reserved. A PACEInfo's
/// `parameterId`, a `standardizedDomainParameters` AlgorithmIdentifier and MSE:Set AT's tag 84
/// all name one of these. This is the one table of them: `domainParameters` is the curve or group
/// (built once, from Arithmetic's values), and explicit parameters are named by `init(explicitCurve:…)`
/// and `init(explicitGroup:…)`.
public enum StandardizedDomainParameters: Int, Sendable, Hashable, CaseIterable {
    case modp1024Subgroup160 = 0
    case modp2048Subgroup224 = 1
    case modp2048Subgroup256 = 2
    case secp192r1 = 8
    case brainpoolP192r1 = 9
    case secp224r1 = 10
    case brainpoolP224r1 = 11
    case secp256r1 = 12
    case brainpoolP256r1 = 13
    case brainpoolP320r1 = 14
    case secp384r1 = 15
    case brainpoolP384r1 = 16
    case brainpoolP512r1 = 17
    case secp521r1 = 18

    /// The parameter ID (0–18).
    public var id: Int { rawValue }

    public var keyAgreement: KeyAgreement { rawValue <= 2 ? .dh : .ecdh }

    /// The group's short RFC 5114 name (`modp2048-224 (RFC 5114)`), or the curve's name as SEC 2
    /// and RFC 5639 spell it (`secp256r1`, `brainpoolP256r1`). The JSON of SecurityInfos and
    /// public keys shows it.
    public var name: String {
        switch self {
        case .modp1024Subgroup160: "modp1024-160 (RFC 5114)"
        case .modp2048Subgroup224: "modp2048-224 (RFC 5114)"
        case .modp2048Subgroup256: "modp2048-256 (RFC 5114)"
        default: "\(self)"
        }
    }

    /// The curve's object identifier (namedCurve); nil for the MODP groups, which have none.
    public var curveIdentifier: ASN1ObjectIdentifier? {
        switch self {
        case .modp1024Subgroup160, .modp2048Subgroup224, .modp2048Subgroup256: nil
        case .secp192r1: "1.2.840.10045.3.1.1"
        case .brainpoolP192r1: "1.3.36.3.3.2.8.1.1.3"
        case .secp224r1: "1.3.132.0.33"
        case .brainpoolP224r1: "1.3.36.3.3.2.8.1.1.5"
        case .secp256r1: "1.2.840.10045.3.1.7"
        case .brainpoolP256r1: "1.3.36.3.3.2.8.1.1.7"
        case .brainpoolP320r1: "1.3.36.3.3.2.8.1.1.9"
        case .secp384r1: "1.3.132.0.34"
        case .brainpoolP384r1: "1.3.36.3.3.2.8.1.1.11"
        case .brainpoolP512r1: "1.3.36.3.3.2.8.1.1.13"
        case .secp521r1: "1.3.132.0.35"
        }
    }

    /// Bits of the field prime (the group's modulus, the curve's p).
    public var fieldBits: Int {
        switch self {
        case .modp1024Subgroup160: 1024
        case .modp2048Subgroup224, .modp2048Subgroup256: 2048
        case .secp192r1, .brainpoolP192r1: 192
        case .secp224r1, .brainpoolP224r1: 224
        case .secp256r1, .brainpoolP256r1: 256
        case .brainpoolP320r1: 320
        case .secp384r1, .brainpoolP384r1: 384
        case .brainpoolP512r1: 512
        case .secp521r1: 521
        }
    }

    /// The parameters with this ID, nil for reserved and unknown IDs.
    public init?(id: Int) { self.init(rawValue: id) }

    /// The curve with this namedCurve OID.
    public init?(curveIdentifier: ASN1ObjectIdentifier) {
        guard let match = Self.byCurveIdentifier[curveIdentifier] else { return nil }
        self = match
    }

    /// The curves by OID, built once: `curveIdentifier` parses its dotted literal on every call, and a
    /// search through every case cost about 5 % of a seal's verification.
    private static let byCurveIdentifier: [ASN1ObjectIdentifier: StandardizedDomainParameters] = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { parameters in parameters.curveIdentifier.map { ($0, parameters) } })

    /// The curve or group, built once from Arithmetic's values (with its precomputed tables).
    public var domainParameters: DomainParameters {
        guard let entry = StandardDomainParameters.parameters(id: rawValue) else {
            preconditionFailure("Arithmetic has no standardized domain parameters \(rawValue)")
        }
        return entry.parameters
    }

    /// The curve (IDs 8–18), nil for a MODP group.
    public var curve: EllipticCurve? {
        if case .ellipticCurve(let curve) = domainParameters { return curve }
        return nil
    }

    /// The MODP group (IDs 0–2), nil for a curve.
    public var group: DHGroup? {
        if case .dhGroup(let group) = domainParameters { return group }
        return nil
    }

    /// The standard curve whose explicit parameters these are (big-endian unsigned integers, the
    /// base point encoded uncompressed or compressed), nil for any other curve. The field, a, b, the
    /// base point's x and the order are compared; the cofactor (1 for every curve here) is not, nor
    /// is y (which x and the curve fix up to sign). Nothing is built from the input: sizes are
    /// compared first, so oversized parameters cost nothing.
    public init?(
        explicitCurve prime: some Collection<UInt8>, a: some Collection<UInt8>, b: some Collection<UInt8>,
        generator: some Collection<UInt8>, order: some Collection<UInt8>
    ) {
        let prime = Self.trimmed(prime)
        let encodedBase = Array(generator)
        let x: ArraySlice<UInt8>
        switch encodedBase.first {
        case 0x04: x = encodedBase.dropFirst().prefix((encodedBase.count - 1) / 2)
        case 0x02, 0x03: x = encodedBase.dropFirst()
        default: return nil
        }
        let match = Self.allCases.first { candidate in
            guard Self.bitLength(prime) == candidate.fieldBits, let curve = candidate.curve,
                Self.equal(prime, curve.p), Self.equal(Self.trimmed(a), curve.a),
                Self.equal(Self.trimmed(b), curve.b), Self.equal(Self.trimmed(order), curve.order),
                case .affine(let gx, _) = curve.generator
            else { return false }
            return Self.equal(Self.trimmed(x), gx)
        }
        guard let match else { return nil }
        self = match
    }

    /// The standard MODP group with this modulus and generator (and subgroup order, when given).
    public init?(
        explicitGroup prime: some Collection<UInt8>, generator: some Collection<UInt8>, order: [UInt8]? = nil
    ) {
        let prime = Self.trimmed(prime)
        let match = Self.allCases.first { candidate in
            guard Self.bitLength(prime) == candidate.fieldBits, let group = candidate.group,
                Self.equal(prime, group.p), Self.equal(Self.trimmed(generator), group.g)
            else { return false }
            guard let order else { return true }
            return group.subgroupOrder.map { Self.equal(Self.trimmed(order), $0) } ?? false
        }
        guard let match else { return nil }
        self = match
    }

    private static func trimmed(_ bytes: some Collection<UInt8>) -> ArraySlice<UInt8> {
        ArraySlice(bytes).drop { $0 == 0 }
    }

    private static func bitLength(_ trimmed: ArraySlice<UInt8>) -> Int {
        guard let first = trimmed.first else { return 0 }
        return (trimmed.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// Whether `bytes` (no leading zeros) is the big-endian form of `value`.
    private static func equal(_ bytes: ArraySlice<UInt8>, _ value: BigInt) -> Bool {
        guard bytes.count == value.byteCount, let expected = try? value.bytes(length: bytes.count) else {
            return false
        }
        return bytes.elementsEqual(expected)
    }
}
