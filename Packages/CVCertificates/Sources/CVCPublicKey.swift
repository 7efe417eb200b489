import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO

/// A CV certificate's public key (7F49, TR-03110 D.3): the algorithm's OID, then for ECDSA the
/// domain parameters (a CVCA's certificate only; the others inherit them) and the point, for RSA
/// the modulus and exponent.
public struct CVCPublicKey: Sendable, Hashable {
    /// Explicit elliptic-curve domain parameters (81 p, 82 a, 83 b, 84 G, 85 r, 87 f), unsigned
    /// big-endian as the certificate holds them.
    public struct CurveParameters: Sendable, Hashable {
        public let prime, a, b, generator, order, cofactor: [UInt8]

        public init(prime: [UInt8], a: [UInt8], b: [UInt8], generator: [UInt8], order: [UInt8], cofactor: [UInt8]) {
            (self.prime, self.a, self.b, self.generator, self.order, self.cofactor) =
                (prime, a, b, generator, order, cofactor)
        }

        /// A curve's parameters as a certificate writes them (lengths as the field and order have).
        public init(_ curve: EllipticCurve) throws(CVCError) {
            do {
                let length = curve.coordinateLength
                self.init(
                    prime: try curve.p.bytes(length: length), a: try curve.a.bytes(length: length),
                    b: try curve.b.bytes(length: length), generator: try curve.encode(curve.generator),
                    order: try curve.order.bytes(length: curve.orderLength), cofactor: curve.cofactor.minimalBytes)
            } catch {
                throw CVCError(.unusableKey, "the curve's parameters cannot be encoded: \(error)")
            }
        }

        /// The curve, built and checked by Arithmetic; a standardized one when the parameters match.
        public func curve() throws(CVCError) -> EllipticCurve {
            if let standard = StandardizedDomainParameters(
                explicitCurve: prime, a: a, b: b, generator: generator, order: order),
                let curve = standard.curve, BigInt(bytes: cofactor) == curve.cofactor
            {
                return curve
            }
            do {
                return try EllipticCurve(p: prime, a: a, b: b, generator: generator, order: order, cofactor: cofactor)
            } catch {
                throw CVCError(.unusableKey, "explicit curve parameters: \(error)")
            }
        }

        /// The standardized domain parameters these are, if any (for printing).
        public var standardized: StandardizedDomainParameters? {
            StandardizedDomainParameters(explicitCurve: prime, a: a, b: b, generator: generator, order: order)
        }
    }

    public enum Key: Sendable, Hashable {
        /// The public point, encoded (uncompressed), and the curve when the certificate carries it.
        case ecdsa(point: [UInt8], curve: CurveParameters?)
        case rsa(modulus: [UInt8], exponent: [UInt8])
    }

    public let algorithm: TerminalAuthenticationAlgorithm
    public let key: Key

    public init(algorithm: TerminalAuthenticationAlgorithm, key: Key) throws(CVCError) {
        switch (algorithm, key) {
        case (.ecdsa, .ecdsa), (.rsaPKCS1, .rsa), (.rsaPSS, .rsa): break
        default: throw CVCError(.malformed, "a \(algorithm) key of the other kind")
        }
        self.algorithm = algorithm
        self.key = key
    }

    /// The longest field any public key's value may have (an RSA modulus of 16384 bits).
    static let maximumFieldLength = 2048

    /// Parses the content of 7F49; `holder` names the certificate in errors.
    init(node: ASN1Node, holder: String) throws(CVCError) {
        let fields: [ASN1Node] = node.children
        guard let oidNode = fields.first, oidNode.tag == .objectIdentifier else {
            throw CVCError(.malformed, "\(holder): the public key (7F49) does not start with its OID")
        }
        let oid: ASN1ObjectIdentifier
        do { oid = try ASN1ObjectIdentifier(content: oidNode.content) } catch {
            throw CVCError(.malformed, "\(holder): the public key's OID: \(error)")
        }
        guard let algorithm = TerminalAuthenticationAlgorithm(objectIdentifier: oid) else {
            throw CVCError(
                .unsupported, "\(holder): the public key's algorithm \(oid) is not a Terminal Authentication one")
        }
        var values: [UInt32: [UInt8]] = [:]
        for field in fields.dropFirst() {
            guard field.tag.tagClass == .contextSpecific, !field.tag.isConstructed, (1...7).contains(field.tag.number),
                values[field.tag.number] == nil
            else { throw CVCError(.malformed, "\(holder): an unexpected field \(field.tag) in the public key") }
            guard field.content.count <= Self.maximumFieldLength else {
                throw CVCError(.malformed, "\(holder): public key field \(field.tag) of \(field.content.count) bytes")
            }
            values[field.tag.number] = Array(field.content)
        }
        func required(_ number: UInt32, _ name: String) throws(CVCError) -> [UInt8] {
            guard let value = values[number], !value.isEmpty else {
                throw CVCError(.malformed, "\(holder): the public key lacks its \(name) (8\(number))")
            }
            return value
        }
        switch algorithm {
        case .rsaPKCS1, .rsaPSS:
            guard values.keys.allSatisfy({ $0 <= 2 }) else {
                throw CVCError(.malformed, "\(holder): an RSA public key with fields beyond 81 and 82")
            }
            key = .rsa(modulus: try required(1, "modulus"), exponent: try required(2, "public exponent"))
        case .ecdsa:
            let point = try required(6, "public point")
            let domain = [1, 2, 3, 4, 5, 7].filter { values[UInt32($0)] != nil }
            var curve: CurveParameters?
            if !domain.isEmpty {
                curve = CurveParameters(
                    prime: try required(1, "prime"), a: try required(2, "coefficient a"),
                    b: try required(3, "coefficient b"), generator: try required(4, "base point"),
                    order: try required(5, "order"), cofactor: try required(7, "cofactor"))
            }
            key = .ecdsa(point: point, curve: curve)
        }
        self.algorithm = algorithm
    }

    /// The 7F49 data object.
    public var encoded: [UInt8] {
        var fields = [DER.objectIdentifier(algorithm.objectIdentifier)]
        func field(_ number: UInt32, _ value: [UInt8]) -> [UInt8] {
            DER.tlv(.contextSpecific(number, constructed: false), value)
        }
        switch key {
        case .rsa(let modulus, let exponent):
            fields += [field(1, modulus), field(2, exponent)]
        case .ecdsa(let point, let curve):
            if let curve {
                fields += [
                    field(1, curve.prime), field(2, curve.a), field(3, curve.b), field(4, curve.generator),
                    field(5, curve.order),
                ]
            }
            fields.append(field(6, point))
            if let curve { fields.append(field(7, curve.cofactor)) }
        }
        return DER.constructed(CVCTag.publicKey, fields)
    }

    /// The curve parameters this key carries.
    public var curveParameters: CurveParameters? {
        if case .ecdsa(_, let curve) = key { return curve }
        return nil
    }

    /// This key with the issuer's curve where it carries none (TR-03110: only a CVCA's key has them).
    public func inheritingCurve(of issuer: CVCPublicKey) -> CVCPublicKey {
        guard case .ecdsa(let point, nil) = key, let curve = issuer.curveParameters else { return self }
        return CVCPublicKey(checkedAlgorithm: algorithm, key: .ecdsa(point: point, curve: curve))
    }

    private init(checkedAlgorithm: TerminalAuthenticationAlgorithm, key: Key) {
        algorithm = checkedAlgorithm
        self.key = key
    }

    /// Whether `signature` is this key's signature of `message` under its algorithm. An ECDSA key
    /// needs its curve (inherited first); `holder` names the key in errors.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], holder: String) throws(CVCError) -> Bool {
        switch key {
        case .ecdsa(let point, let parameters):
            guard let parameters else {
                throw CVCError(.unusableKey, "\(holder): an ECDSA key without its curve (no CVCA above it gave one)")
            }
            let curve = try parameters.curve()
            guard signature.count == 2 * curve.orderLength else { return false }
            do {
                return try ECDSA.verify(
                    publicKey: point, digest: algorithm.hash.hash(message), signature: signature, format: .plain,
                    curve: curve)
            } catch {
                throw CVCError(.unusableKey, "\(holder): the public point: \(error)")
            }
        case .rsa(let modulus, let exponent):
            guard let padding = algorithm.rsaPadding else { return false }
            do {
                return try RSAPublicKey(modulus: modulus, exponent: exponent)
                    .isValidSignature(signature, for: message, padding: padding)
            } catch {
                throw CVCError(.unusableKey, "\(holder): the RSA key: \(error)")
            }
        }
    }
}

/// The tags of CV certificates (TR-03110 D.2).
enum CVCTag {
    static let certificate = ASN1Tag(0x7F21)
    static let body = ASN1Tag(0x7F4E)
    static let profileIdentifier = ASN1Tag(0x5F29)
    static let authorityReference = ASN1Tag(0x42)
    static let publicKey = ASN1Tag(0x7F49)
    static let holderReference = ASN1Tag(0x5F20)
    static let holderAuthorization = ASN1Tag(0x7F4C)
    static let effectiveDate = ASN1Tag(0x5F25)
    static let expirationDate = ASN1Tag(0x5F24)
    static let extensions = ASN1Tag(0x65)
    static let signature = ASN1Tag(0x5F37)
    static let authentication = ASN1Tag(0x67)
    static let discretionaryData = ASN1Tag(0x53)
}
