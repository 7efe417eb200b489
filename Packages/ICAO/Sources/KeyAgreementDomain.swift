import ASN1
import Arithmetic
import Secrets

/// The domain parameters one key agreement runs on: a curve (ECDH) or a MODP group (DH), with the
/// generator in force. PACE starts on the static generator and maps it to an ephemeral one (ICAO
/// 9303-11 §4.4.3.3); Chip Authentication (§6.2) runs on the static key's parameters. Both take
/// the chip's public keys through `publicKey(_:)`, which validates them, and agree keys through
/// `sharedSecret(_:_:)`.
public enum KeyAgreementDomain: Sendable, Hashable {
    case curve(EllipticCurve, generator: ECPoint)
    case group(DHGroup, generator: BigInt)

    /// A standardized ID (0–18, 9303-11 §9.5.1) on its own generator.
    public init(standardized id: Int) throws(ArithmeticError) {
        guard let parameters = StandardizedDomainParameters(id: id) else {
            throw ArithmeticError(.invalidDomainParameters, "domain parameter ID \(id) is reserved or unknown")
        }
        switch parameters.domainParameters {
        case .ellipticCurve(let curve): self = .curve(curve, generator: curve.generator)
        case .dhGroup(let group): self = .group(group, generator: group.g)
        }
    }

    /// The parameters of an AlgorithmIdentifier as a PACEDomainParameterInfo or a
    /// ChipAuthenticationDomainParameterInfo holds them:
    ///
    /// ```
    /// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY }
    ///   -- id-ecPublicKey with ECParameters, dhpublicnumber with DomainParameters { p, g, q, … },
    ///   -- or standardizedDomainParameters with the ID
    /// ```
    public init(algorithmIdentifier: [UInt8]) throws(ArithmeticError) {
        switch try Self.parameters(ofAlgorithmIdentifier: algorithmIdentifier) {
        case nil:
            throw ArithmeticError(.invalidDomainParameters, "the domain parameters are neither a curve nor a group")
        case .standardized(let id): try self.init(standardized: id)
        case .explicitCurve(let explicit): try self.init(explicitCurve: explicit)
        case .group(let p, let g, let q): try self.init(group: p, generator: g, order: q)
        }
    }

    private enum GivenParameters {
        case standardized(Int)
        case explicitCurve(PublicKeyInfo.ECDomainParameters)
        case group(p: [UInt8], g: [UInt8], q: [UInt8])
    }

    /// nil for an algorithm that is neither EC nor DH.
    private static func parameters(ofAlgorithmIdentifier bytes: [UInt8]) throws(ArithmeticError) -> GivenParameters? {
        let unknown = ArithmeticError(.invalidDomainParameters, "the parameters name no prime curve this reader knows")
        do throws(ASN1Error) {
            var fields = try ASN1Node.parse(bytes).sequenceFields("AlgorithmIdentifier")
            let algorithm = try fields.next("algorithm").objectIdentifier()
            let parameters = try fields.next("parameters")
            switch algorithm {
            case ASN1ObjectIdentifier.standardizedDomainParameters:
                return .standardized(try parameters.intValue())
            case .ecPublicKey:
                let (_, _, _, id, explicit) = try PublicKeyInfo.ecParameters(parameters)
                if let id { return .standardized(id) }
                if let explicit { return .explicitCurve(explicit) }
                if parameters.tag == .objectIdentifier,
                    let named = StandardizedDomainParameters(curveIdentifier: try parameters.objectIdentifier())
                {
                    return .standardized(named.id)
                }
            case .dhPublicNumber:  // DomainParameters ::= SEQUENCE { p, g, q, … }
                var group = try parameters.sequenceFields("DomainParameters")
                return .group(
                    p: Array(try group.next("p").unsignedIntegerBytes()),
                    g: Array(try group.next("g").unsignedIntegerBytes()),
                    q: Array(try group.next("q").unsignedIntegerBytes()))
            default:
                return nil
            }
        } catch {
            throw ArithmeticError(.malformedEncoding, "the domain parameters do not parse: \(error.reason)")
        }
        throw unknown
    }

    /// The parameters a public key names (DG14's and EF.CardSecurity's Chip Authentication keys,
    /// DG15's EC key): a standardized ID, a named curve, explicit curve parameters, or a DH group
    /// (X9.42 with its subgroup order, or PKCS #3 without one).
    public init(publicKeyInfo key: PublicKeyInfo) throws(ArithmeticError) {
        if let id = key.standardizedDomainParameterId {
            try self.init(standardized: id)
            return
        }
        switch key.keyAlgorithm {
        case .ec:
            if let named = key.namedCurve {
                guard let parameters = StandardizedDomainParameters(curveIdentifier: named) else {
                    throw ArithmeticError(
                        .invalidDomainParameters, "the curve \(named.dotted) is not one this reader knows")
                }
                try self.init(standardized: parameters.id)
            } else if let explicit = key.ecParameters {
                try self.init(explicitCurve: explicit)
            } else {
                throw ArithmeticError(.invalidDomainParameters, "the EC key names no domain parameters")
            }
        case .dh:
            guard let parameters = key.dhParameters else {
                throw ArithmeticError(.invalidDomainParameters, "the DH key names no group")
            }
            try self.init(group: parameters.prime, generator: parameters.generator, order: parameters.order)
        case .rsa, .unknown:
            throw ArithmeticError(
                .invalidDomainParameters,
                "a \(key.algorithmIdentifier.name ?? key.algorithmIdentifier.dotted) key has no key agreement")
        }
    }

    /// Explicit curve parameters; a standard curve's are used as that curve (its fast arithmetic).
    private init(explicitCurve explicit: PublicKeyInfo.ECDomainParameters) throws(ArithmeticError) {
        if let standard = explicit.standardized {
            try self.init(standardized: standard.id)
            return
        }
        do {
            let curve = try EllipticCurve(
                p: explicit.prime, a: explicit.a, b: explicit.b, generator: explicit.generator, order: explicit.order,
                cofactor: explicit.cofactor ?? [1])
            self = .curve(curve, generator: curve.generator)
        } catch let error as ArithmeticError {
            throw error
        } catch {
            throw ArithmeticError(.invalidDomainParameters, "\(error)")
        }
    }

    /// An explicit group; a standard group's are used as that group.
    private init(group prime: [UInt8], generator: [UInt8], order: [UInt8]?) throws(ArithmeticError) {
        if let standard = StandardizedDomainParameters(explicitGroup: prime, generator: generator, order: order) {
            try self.init(standardized: standard.id)
            return
        }
        do {
            let group = try DHGroup(
                p: BigInt(bytes: prime), g: BigInt(bytes: generator), subgroupOrder: order.map { BigInt(bytes: $0) })
            self = .group(group, generator: group.g)
        } catch let error as ArithmeticError {
            throw error
        } catch {
            throw ArithmeticError(.invalidDomainParameters, "\(error)")
        }
    }

    public var keyAgreement: KeyAgreement {
        switch self {
        case .curve: .ecdh
        case .group: .dh
        }
    }

    /// Bits of the field prime (the modulus).
    public var primeBits: Int {
        switch self {
        case .curve(let curve, _): curve.p.bitWidth
        case .group(let group, _): group.p.bitWidth
        }
    }

    /// The same curve or group on another generator (PACE's mapped one).
    public func with(generator: KeyAgreementPublicKey.Value) throws(ArithmeticError) -> KeyAgreementDomain {
        switch (self, generator) {
        case (.curve(let curve, _), .point(let point)): return .curve(curve, generator: point)
        case (.group(let group, _), .groupElement(let value)): return .group(group, generator: value)
        default: throw ArithmeticError(.invalidPoint, "a generator of the other key agreement")
        }
    }

    /// A key pair on the generator in force, the private key from `random`.
    public func generateKeyPair(random: RandomSource) throws -> EphemeralKeyPair {
        switch self {
        case .curve(let curve, let generator):
            let (privateKey, point) = try curve.generateKeyPair(generator: generator, random: random)
            return EphemeralKeyPair(
                privateKey: privateKey,
                publicKey: KeyAgreementPublicKey(value: .point(point), encoded: try curve.encode(point)))
        case .group(let group, let generator):
            let (privateKey, value) = try group.generateKeyPair(generator: generator, random: random)
            return EphemeralKeyPair(
                privateKey: privateKey,
                publicKey: KeyAgreementPublicKey(
                    value: .groupElement(value), encoded: try group.encodePublicValue(value)))
        }
    }

    /// A public key from the other side, validated: an uncompressed point on the curve, in the
    /// subgroup of order n, not the point at infinity; a DH value with 1 < y < p − 1 and y^q = 1
    /// when q is known. A DH value shorter than the modulus (leading zeros stripped) is accepted.
    public func publicKey(_ bytes: [UInt8]) throws -> KeyAgreementPublicKey {
        switch self {
        case .curve(let curve, _):
            guard bytes.first == 0x04 else {
                throw ArithmeticError(.malformedEncoding, "not an uncompressed point (9303-11 uses no other)")
            }
            return KeyAgreementPublicKey(value: .point(try curve.decodePoint(bytes)), encoded: bytes)
        case .group(let group, _):
            return KeyAgreementPublicKey(value: .groupElement(try group.decodePublicValue(bytes)), encoded: bytes)
        }
    }

    /// The public key a SubjectPublicKeyInfo on these parameters holds (an EC point, or a DH
    /// value as a DER INTEGER), validated like `publicKey(_:)`.
    public func publicKey(of key: PublicKeyInfo) throws -> KeyAgreementPublicKey {
        switch self {
        case .curve: return try publicKey(key.publicKey)
        case .group(let group, _):
            let value = try ASN1Node.parse(key.publicKey, maxDepth: 1).unsignedIntegerBytes()
            return try publicKey(try BigInt(bytes: value).bytes(length: group.length))
        }
    }

    /// The shared secret: the x-coordinate of SK·PK, or PK^SK mod p, each as long as the field.
    public func sharedSecret(_ keyPair: EphemeralKeyPair, _ peerKey: KeyAgreementPublicKey) throws -> SecretBytes {
        var secret: [UInt8]
        switch (self, peerKey.value) {
        case (.curve(let curve, _), .point(let point)):
            secret = try curve.sharedSecret(privateKey: keyPair.privateKey, peerPublicKey: point)
        case (.group(let group, _), .groupElement(let value)):
            secret = try group.sharedSecret(privateKey: keyPair.privateKey, peerPublicValue: value)
        default:
            throw ArithmeticError(.invalidPoint, "a public key of the other key agreement")
        }
        return SecretBytes(consuming: &secret)
    }
}

/// A public key of a key agreement as sent on the link (an uncompressed point, or a DH value as an
/// unsigned integer) with the value it encodes, so that keys compare by value (PACE's reflection
/// check) and are MAC'ed as exchanged (PACE's authentication tokens).
public struct KeyAgreementPublicKey: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case point(ECPoint)
        case groupElement(BigInt)
    }

    public let value: Value
    public let encoded: [UInt8]

    public init(value: Value, encoded: [UInt8]) {
        self.value = value
        self.encoded = encoded
    }

    public static func == (lhs: KeyAgreementPublicKey, rhs: KeyAgreementPublicKey) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The terminal's ephemeral key pair (PACE's mapping and key agreement, Chip Authentication). The
/// private key is a `BigInt`, whose storage wipes its limbs when released.
public struct EphemeralKeyPair: Sendable {
    public let privateKey: BigInt
    public let publicKey: KeyAgreementPublicKey

    public init(privateKey: BigInt, publicKey: KeyAgreementPublicKey) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }
}
