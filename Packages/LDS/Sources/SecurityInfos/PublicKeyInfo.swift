import ASN1
import ICAO
import JSON

/// A public key as X.509 writes it (DG15's Active Authentication key, DG14's and EF.CardSecurity's
/// Chip Authentication keys), with what a reader shows and what the protocols need: algorithm,
/// key size, curve name (or "explicit" when explicit parameters match no standard curve), the
/// RSA modulus and exponent, the explicit EC or DH domain parameters.
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
/// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
/// ECParameters ::= SEQUENCE { version INTEGER, fieldID SEQUENCE { prime-field, p INTEGER },
///     curve SEQUENCE { a OCTET STRING, b OCTET STRING, seed BIT STRING OPTIONAL },
///     base OCTET STRING, order INTEGER, cofactor INTEGER OPTIONAL }
/// DHParameter ::= SEQUENCE { p INTEGER, g INTEGER, privateValueLength INTEGER OPTIONAL }  (PKCS #3)
/// DomainParameters ::= SEQUENCE { p, g, q INTEGER, … }  (X9.42 dhpublicnumber)
/// ```
public struct PublicKeyInfo: Sendable, Equatable, JSONRepresentable {
    public enum Algorithm: String, Sendable, JSONEnum {
        case rsa
        case ec
        case dh
        case unknown
    }

    /// How the domain parameters are given.
    public enum ParameterEncoding: String, Sendable, JSONEnum {
        /// A named-curve OID.
        case named
        /// The full parameters (ICAO 9303-12 requires these for CSCA/DSC keys).
        case explicit
        /// A BSI TR-03110 standardized domain parameter ID (0.4.0.127.0.7.1.2).
        case standardized
        /// None (RSA) or implicitlyCA.
        case none
    }

    /// Explicit prime-curve parameters, big-endian unsigned integers.
    public struct ECDomainParameters: Sendable, Equatable, JSONRepresentable {
        public let prime: [UInt8]
        public let a: [UInt8]
        public let b: [UInt8]
        /// The base point as encoded (04‖x‖y, or compressed).
        public let generator: [UInt8]
        public let order: [UInt8]
        public let cofactor: [UInt8]?

        public var json: JSONValue {
            [
                "prime": .bytes(prime), "a": .bytes(a), "b": .bytes(b), "generator": .bytes(generator),
                "order": .bytes(order), "cofactor": .optional(cofactor),
            ]
        }
    }

    /// Diffie-Hellman group parameters, big-endian unsigned integers.
    public struct DHDomainParameters: Sendable, Equatable, JSONRepresentable {
        public let prime: [UInt8]
        public let generator: [UInt8]
        /// The subgroup order (X9.42 only).
        public let order: [UInt8]?

        public var json: JSONValue {
            ["prime": .bytes(prime), "generator": .bytes(generator), "order": .optional(order)]
        }
    }

    /// The SubjectPublicKeyInfo exactly as read.
    public let encoded: [UInt8]
    public let algorithmIdentifier: ASN1ObjectIdentifier
    public let algorithm: Algorithm
    /// RSA modulus bits, EC field bits, DH prime bits.
    public let keySize: Int?
    /// The standard curve or group name, "explicit" for explicit EC parameters of no known curve.
    public let curveName: String?
    public let parameterEncoding: ParameterEncoding
    public let standardizedDomainParameterId: Int?
    /// The subjectPublicKey bits: an EC point, a DER RSAPublicKey, a DER INTEGER for DH.
    public let publicKey: [UInt8]
    public let rsaModulus: [UInt8]?
    public let rsaPublicExponent: [UInt8]?
    public let ecParameters: ECDomainParameters?
    public let dhParameters: DHDomainParameters?

    /// Parses a DER/BER SubjectPublicKeyInfo.
    public init(_ bytes: some Collection<UInt8>) throws(LDSError) {
        let node = try asn1 { () throws(ASN1Error) in try ASN1Node.parse(bytes, maxDepth: OuterTLV.maximumDepth) }
        try self.init(node: node)
    }

    init(node: ASN1Node) throws(LDSError) {
        let (algorithmNode, keyNode) = try asn1 { () throws(ASN1Error) in
            try node.expect(.sequence, "SubjectPublicKeyInfo")
            return (try node.child(at: 0, "algorithm"), try node.child(at: 1, "subjectPublicKey"))
        }
        try self.init(algorithmNode: algorithmNode, keyNode: keyNode, encoded: Array(node.encodedBytes))
    }

    /// From the AlgorithmIdentifier and the BIT STRING (some chips write these two inline in a
    /// ChipAuthenticationPublicKeyInfo instead of inside a SubjectPublicKeyInfo).
    init(algorithmNode: ASN1Node, keyNode: ASN1Node, encoded: [UInt8]) throws(LDSError) {
        var algorithm = Algorithm.unknown
        var keySize: Int?
        var curveName: String?
        var encoding = ParameterEncoding.none
        var standardizedId: Int?
        var modulus: [UInt8]?
        var exponent: [UInt8]?
        var ecParameters: ECDomainParameters?
        var dhParameters: DHDomainParameters?
        let (identifier, parameters, key) = try asn1 {
            () throws(ASN1Error) -> (ASN1ObjectIdentifier, ASN1Node?, [UInt8]) in
            try algorithmNode.expect(.sequence, "AlgorithmIdentifier")
            let identifier = try algorithmNode.child(at: 0, "algorithm").objectIdentifier()
            let key = try keyNode.expect(.bitString, "subjectPublicKey").bitString()
            return (identifier, algorithmNode.children.dropFirst().first, Array(key.bytes))
        }
        switch identifier.dotted {
        case "1.2.840.113549.1.1.1", "1.2.840.113549.1.1.10":  // rsaEncryption, RSASSA-PSS
            algorithm = .rsa
            let rsaKey = try asn1 { () throws(ASN1Error) in try ASN1Node.parse(key, maxDepth: 4) }
            (modulus, exponent) = try asn1 { () throws(ASN1Error) in
                (
                    try rsaKey.child(at: 0, "modulus").magnitude(),
                    try rsaKey.child(at: 1, "publicExponent").magnitude()
                )
            }
            keySize = modulus.map(bitLength)
        case "1.2.840.10045.2.1", "0.4.0.127.0.7.2.2.1.2":  // ecPublicKey, id-PK-ECDH
            algorithm = .ec
            if let parameters {
                (encoding, curveName, keySize, standardizedId, ecParameters) = try Self.ecParameters(parameters)
            }
        case "1.2.840.113549.1.3.1", "1.2.840.10046.2.1", "0.4.0.127.0.7.2.2.1.1":  // PKCS#3, X9.42, id-PK-DH
            algorithm = .dh
            if let parameters, parameters.tag == .sequence {
                dhParameters = try asn1 { () throws(ASN1Error) in
                    DHDomainParameters(
                        prime: try parameters.child(at: 0, "p").magnitude(),
                        generator: try parameters.child(at: 1, "g").magnitude(),
                        order: identifier.dotted == "1.2.840.10046.2.1"
                            ? try parameters.child(at: 2, "q").magnitude() : nil)
                }
                encoding = .explicit
                keySize = dhParameters.map { bitLength($0.prime) }
            } else if let parameters {
                (encoding, curveName, keySize, standardizedId) = try Self.standardized(parameters)
            }
        case "0.4.0.127.0.7.1.2":  // standardizedDomainParameters: EC or DH by the ID
            if let parameters {
                (encoding, curveName, keySize, standardizedId) = try Self.standardized(parameters)
                algorithm = (standardizedId ?? 0) <= 2 ? .dh : .ec
            }
        default:
            break
        }
        self.encoded = encoded
        algorithmIdentifier = identifier
        self.algorithm = algorithm
        self.keySize = keySize
        self.curveName = curveName
        parameterEncoding = encoding
        standardizedDomainParameterId = standardizedId
        publicKey = key
        rsaModulus = modulus
        rsaPublicExponent = exponent
        self.ecParameters = ecParameters
        self.dhParameters = dhParameters
    }

    static func ecParameters(
        _ parameters: ASN1Node
    ) throws(LDSError) -> (ParameterEncoding, String?, Int?, Int?, ECDomainParameters?) {
        switch parameters.tag {
        case .objectIdentifier:
            let oid = try asn1 { () throws(ASN1Error) in try parameters.objectIdentifier() }
            let curve = StandardizedDomainParameters(curveIdentifier: oid)
            return (.named, curve?.name ?? oid.name ?? oid.dotted, curve?.fieldBits, nil, nil)
        case .integer:
            let (encoding, name, size, id) = try standardized(parameters)
            return (encoding, name, size, id, nil)
        case .sequence:
            let domain = try asn1 { () throws(ASN1Error) -> ECDomainParameters in
                let field = try parameters.child(at: 1, "fieldID")
                let curve = try parameters.child(at: 2, "curve")
                return ECDomainParameters(
                    prime: try field.child(at: 1, "prime").magnitude(),
                    a: Array(try curve.child(at: 0, "a").octetString()),
                    b: Array(try curve.child(at: 1, "b").octetString()),
                    generator: Array(try parameters.child(at: 3, "base").octetString()),
                    order: try parameters.child(at: 4, "order").magnitude(),
                    cofactor: parameters.children.count > 5
                        ? try parameters.child(at: 5, "cofactor").magnitude() : nil)
            }
            let name = identifyCurve(domain)?.name ?? "explicit"
            return (.explicit, name, bitLength(domain.prime), nil, domain)
        default:
            return (.none, nil, nil, nil, nil)
        }
    }

    /// A TR-03110 standardized domain parameter ID (an INTEGER parameter).
    private static func standardized(_ parameters: ASN1Node) throws(LDSError) -> (
        ParameterEncoding, String?, Int?, Int?
    ) {
        let id = try asn1 { () throws(ASN1Error) in try parameters.intValue() }
        let entry = StandardizedDomainParameters(id: id)
        return (.standardized, entry?.name, entry?.fieldBits, id)
    }

    /// The standard curve whose parameters these are.
    static func identifyCurve(_ domain: ECDomainParameters) -> StandardizedDomainParameters? {
        StandardizedDomainParameters(
            explicitCurve: domain.prime, a: domain.a, b: domain.b, generator: domain.generator, order: domain.order)
    }

    public var json: JSONValue {
        [
            "algorithm": algorithm.json,
            "algorithmIdentifier": .string(algorithmIdentifier.dotted),
            "algorithmName": .optional(algorithmIdentifier.name),
            "keySize": .optional(keySize),
            "curveName": .optional(curveName),
            "parameterEncoding": parameterEncoding.json,
            "standardizedDomainParameterId": .optional(standardizedDomainParameterId),
            "publicKey": .bytes(publicKey),
            "rsaModulus": .optional(rsaModulus),
            "rsaPublicExponent": .optional(rsaPublicExponent),
            "ecParameters": .optional(ecParameters),
            "dhParameters": .optional(dhParameters),
            "encoded": .bytes(encoded),
        ]
    }
}

/// Bits of a big-endian unsigned integer.
func bitLength(_ bytes: [UInt8]) -> Int {
    guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
    return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
}

extension ASN1Node {
    /// An INTEGER's content read as an unsigned big-endian magnitude, leading zeros dropped.
    /// Chips write moduli and primes without the 00 sign byte DER needs, so a "negative"
    /// encoding is taken as the unsigned value it was meant to be.
    func magnitude() throws(ASN1Error) -> [UInt8] {
        try expect(.integer, "INTEGER")
        guard !content.isEmpty else { throw ASN1Error(.invalidValue, "empty INTEGER") }
        let value = content.drop { $0 == 0 }
        return value.isEmpty ? [0] : Array(value)
    }
}
