import ASN1
import Foundation
import JSON

/// A public key as X.509 writes it (a SubjectPublicKeyInfo; `PublicKeyInfo` is the reference's name),
/// the one model of the reader: certificates' keys (CMS), DG15's Active Authentication key, DG14's
/// and EF.CardSecurity's Chip Authentication keys (LDS). It keeps
/// what a reader shows and what the protocols need: algorithm, key size, curve name ("explicit" when
/// explicit parameters match no standard curve), the RSA modulus and exponent, the explicit EC or DH
/// domain parameters. Integers are read as unsigned magnitudes (chips and some issuers omit the 00
/// sign byte DER needs); anything costly (a curve, a group) is built later, by its user.
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
/// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
/// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }
/// ECParameters ::= CHOICE { ecParameters SpecifiedECDomain, namedCurve OBJECT IDENTIFIER,
///     implicitlyCA NULL }   -- and TR-03110's standardized domain parameter ID (INTEGER)
/// SpecifiedECDomain ::= SEQUENCE { version INTEGER, fieldID SEQUENCE { fieldType, p INTEGER },
///     curve SEQUENCE { a OCTET STRING, b OCTET STRING, seed BIT STRING OPTIONAL },
///     base OCTET STRING, order INTEGER, cofactor INTEGER OPTIONAL }
/// DHParameter ::= SEQUENCE { p INTEGER, g INTEGER, privateValueLength INTEGER OPTIONAL }  (PKCS #3)
/// DomainParameters ::= SEQUENCE { p, g, q INTEGER, … }  (X9.42 dhpublicnumber)
/// ```
public struct PublicKeyInfo: Sendable, Hashable, JSONRepresentable {
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
    public struct ECDomainParameters: Sendable, Hashable, JSONRepresentable {
        /// The fieldID's fieldType (prime-field, 1.2.840.10045.1.1, for every curve in use); nil
        /// when it is not an OID.
        public let fieldType: ASN1ObjectIdentifier?
        public let prime: [UInt8]
        public let a: [UInt8]
        public let b: [UInt8]
        /// The base point as encoded (04‖x‖y, or compressed).
        public let generator: [UInt8]
        public let order: [UInt8]
        public let cofactor: [UInt8]?

        public init(
            fieldType: ASN1ObjectIdentifier? = .primeField, prime: [UInt8], a: [UInt8], b: [UInt8],
            generator: [UInt8], order: [UInt8], cofactor: [UInt8]?
        ) {
            self.fieldType = fieldType
            self.prime = prime
            self.a = a
            self.b = b
            self.generator = generator
            self.order = order
            self.cofactor = cofactor
        }

        /// The standard curve with these parameters, if any.
        public var standardized: StandardizedDomainParameters? {
            StandardizedDomainParameters(explicitCurve: prime, a: a, b: b, generator: generator, order: order)
        }

        public var json: JSONValue {
            [
                "prime": .bytes(prime), "a": .bytes(a), "b": .bytes(b), "generator": .bytes(generator),
                "order": .bytes(order), "cofactor": .optional(cofactor),
            ]
        }
    }

    /// Diffie-Hellman group parameters, big-endian unsigned integers.
    public struct DHDomainParameters: Sendable, Hashable, JSONRepresentable {
        public let prime: [UInt8]
        public let generator: [UInt8]
        /// The subgroup order (X9.42 only).
        public let order: [UInt8]?

        public var json: JSONValue {
            ["prime": .bytes(prime), "generator": .bytes(generator), "order": .optional(order)]
        }
    }

    /// The SubjectPublicKeyInfo exactly as read (bytes, as the protocols and certificates consume
    /// them; `der` is the reference's `Data` view of the same bytes).
    public let encoded: [UInt8]
    public let algorithmIdentifier: ASN1ObjectIdentifier
    /// The key's family, typed (the reference's `algorithm` is its name).
    public let keyAlgorithm: Algorithm
    /// RSA modulus bits, EC field bits, DH prime bits; 0 when unknown (the reference's `u32`).
    public let keySize: UInt32
    /// The standard curve or group name, "explicit" for explicit EC parameters of no known curve.
    public let curve: String?
    public let parameterEncoding: ParameterEncoding
    /// The namedCurve OID, when the parameters are one.
    public let namedCurve: ASN1ObjectIdentifier?
    public let standardizedDomainParameterId: Int?
    /// The tag of the AlgorithmIdentifier's parameters; nil when absent.
    public let parametersTag: ASN1Tag?
    /// The subjectPublicKey bits: an EC point, a DER RSAPublicKey, a DER INTEGER for DH.
    public let publicKey: [UInt8]
    public let rsaModulus: [UInt8]?
    public let rsaPublicExponent: [UInt8]?
    public let ecParameters: ECDomainParameters?
    public let dhParameters: DHDomainParameters?

    /// Parses a DER/BER SubjectPublicKeyInfo; bytes after it are an error.
    public init(_ bytes: some Collection<UInt8>, maxDepth: Int = 24) throws(ASN1Error) {
        try self.init(node: try ASN1Node.parse(bytes, maxDepth: maxDepth))
    }

    public init(node: ASN1Node) throws(ASN1Error) {
        var fields = try node.sequenceFields("SubjectPublicKeyInfo")
        let algorithm = try fields.next("algorithm")
        let key = try fields.next("subjectPublicKey")
        try self.init(algorithmNode: algorithm, keyNode: key, encoded: Array(node.encodedBytes))
    }

    /// From the AlgorithmIdentifier and the BIT STRING (some chips write these two inline in a
    /// ChipAuthenticationPublicKeyInfo instead of inside a SubjectPublicKeyInfo).
    public init(algorithmNode: ASN1Node, keyNode: ASN1Node, encoded: [UInt8]) throws(ASN1Error) {
        var algorithm = Algorithm.unknown
        var keySize: Int?
        var curveName: String?
        var encoding = ParameterEncoding.none
        var namedCurve: ASN1ObjectIdentifier?
        var standardizedId: Int?
        var modulus: [UInt8]?
        var exponent: [UInt8]?
        var ecParameters: ECDomainParameters?
        var dhParameters: DHDomainParameters?
        var algorithmFields = try algorithmNode.sequenceFields("AlgorithmIdentifier")
        let identifier = try algorithmFields.next("algorithm").objectIdentifier()
        let parameters = algorithmFields.next()
        let key = Array(try keyNode.expect(.bitString, "subjectPublicKey").bitString().bytes)
        switch identifier {
        case .rsaEncryption, .rsassaPSS:
            algorithm = .rsa
            var rsaKey = try ASN1Node.parse(key, maxDepth: 4).fields
            modulus = try rsaKey.next("modulus").magnitude()
            exponent = try rsaKey.next("publicExponent").magnitude()
            keySize = modulus.map(Self.bitLength)
        case .ecPublicKey, .chipAuthenticationPublicKey.appending(2):  // id-PK-ECDH
            algorithm = .ec
            if let parameters {
                let ec = try Self.ecParameters(parameters)
                (encoding, curveName, keySize, standardizedId, ecParameters) = ec
                if encoding == .named { namedCurve = try parameters.objectIdentifier() }
            }
        case .dhKeyAgreement, .dhPublicNumber, .chipAuthenticationPublicKey.appending(1):  // PKCS#3, X9.42, id-PK-DH
            algorithm = .dh
            if let parameters, parameters.tag == .sequence {
                var group = parameters.fields
                dhParameters = DHDomainParameters(
                    prime: try group.next("p").magnitude(), generator: try group.next("g").magnitude(),
                    order: identifier == .dhPublicNumber ? try group.next("q").magnitude() : nil)
                encoding = .explicit
                keySize = dhParameters.map { Self.bitLength($0.prime) }
            } else if let parameters {
                (encoding, curveName, keySize, standardizedId) = try Self.standardized(parameters)
            }
        case .standardizedDomainParameters:  // EC or DH by the ID
            if let parameters {
                (encoding, curveName, keySize, standardizedId) = try Self.standardized(parameters)
                algorithm = (standardizedId ?? 0) <= 2 ? .dh : .ec
            }
        default:
            break
        }
        self.encoded = encoded
        algorithmIdentifier = identifier
        keyAlgorithm = algorithm
        self.keySize = keySize.map { UInt32(clamping: $0) } ?? 0
        curve = curveName
        parameterEncoding = encoding
        self.namedCurve = namedCurve
        standardizedDomainParameterId = standardizedId
        parametersTag = parameters?.tag
        publicKey = key
        rsaModulus = modulus
        rsaPublicExponent = exponent
        self.ecParameters = ecParameters
        self.dhParameters = dhParameters
    }

    /// EC parameters in any of their forms: how given, the curve's name, field bits, the standardized
    /// ID, the explicit parameters. Another tag is `.none`.
    public static func ecParameters(
        _ parameters: ASN1Node
    ) throws(ASN1Error) -> (ParameterEncoding, String?, Int?, Int?, ECDomainParameters?) {
        switch parameters.tag {
        case .objectIdentifier:
            let oid = try parameters.objectIdentifier()
            let curve = StandardizedDomainParameters(curveIdentifier: oid)
            return (.named, curve?.name ?? oid.name ?? oid.dotted, curve?.fieldBits, nil, nil)
        case .integer:
            let (encoding, name, size, id) = try standardized(parameters)
            return (encoding, name, size, id, nil)
        case .sequence:
            var fields = parameters.fields
            _ = try fields.next("version")
            var field = try fields.next("fieldID").fields
            let fieldType = field.next().flatMap { try? $0.objectIdentifier() }
            let prime = try field.next("prime").magnitude()
            var curve = try fields.next("curve").fields
            let a = Array(try curve.next("a").octetString())
            let b = Array(try curve.next("b").octetString())
            let domain = ECDomainParameters(
                fieldType: fieldType, prime: prime, a: a, b: b,
                generator: Array(try fields.next("base").octetString()), order: try fields.next("order").magnitude(),
                cofactor: try fields.next().map { (node) throws(ASN1Error) in try node.magnitude() })
            return (.explicit, domain.standardized?.name ?? "explicit", bitLength(domain.prime), nil, domain)
        default:
            return (.none, nil, nil, nil, nil)
        }
    }

    /// A TR-03110 standardized domain parameter ID (an INTEGER parameter).
    private static func standardized(_ parameters: ASN1Node) throws(ASN1Error) -> (
        ParameterEncoding, String?, Int?, Int?
    ) {
        let id = try parameters.intValue()
        let entry = StandardizedDomainParameters(id: id)
        return (.standardized, entry?.name, entry?.fieldBits, id)
    }

    /// Bits of a big-endian unsigned integer.
    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }

    /// The reference's `algorithm`: `RSA`, `EC` or `DH`, else the algorithm's OID, dotted.
    public var algorithm: String {
        keyAlgorithm == .unknown ? algorithmIdentifier.dotted : keyAlgorithm.rawValue.uppercased()
    }

    /// The reference's `der`: the SubjectPublicKeyInfo as read (`encoded`, as `Data`).
    public var der: Data { Data(encoded) }

    /// The reference's `PublicKeyInfo`: `algorithm` (`RSA`, `EC`, `DH`, else the OID), `keySize` (0 when
    /// unknown), `curve`, `der` (the SubjectPublicKeyInfo as read); then the key's parts.
    public var json: JSONValue {
        [
            "algorithm": .string(algorithm),
            "keySize": .integer(Int(keySize)),
            "curve": .optional(curve),
            "der": .bytes(encoded),
            "algorithmIdentifier": .string(algorithmIdentifier.dotted),
            "algorithmName": .optional(algorithmIdentifier.name),
            "parameterEncoding": parameterEncoding.json,
            "standardizedDomainParameterId": .optional(standardizedDomainParameterId),
            "publicKey": .bytes(publicKey),
            "rsaModulus": .optional(rsaModulus),
            "rsaPublicExponent": .optional(rsaPublicExponent),
            "ecParameters": .optional(ecParameters),
            "dhParameters": .optional(dhParameters),
        ]
    }
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
