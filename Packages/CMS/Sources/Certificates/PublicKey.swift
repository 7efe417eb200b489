import ASN1
import ICAO

/// A certificate's public key, decoded from its SubjectPublicKeyInfo.
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE {
///     algorithm         AlgorithmIdentifier,
///     subjectPublicKey  BIT STRING }
/// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }
/// ECPoint ::= OCTET STRING   -- the BIT STRING's bytes for id-ecPublicKey
/// ```
public enum PublicKey: Sendable, Hashable {
    case rsa(modulus: [UInt8], exponent: [UInt8])
    case ec(domain: ECDomain, point: [UInt8])
    /// A key of another algorithm: kept so that a certificate still parses.
    case other(algorithm: ASN1ObjectIdentifier)

    init(subjectPublicKeyInfo node: ASN1Node) throws(CMSError) {
        let (algorithmNode, keyBits) = try reading("SubjectPublicKeyInfo") { () throws(ASN1Error) in
            try node.expect(.sequence, "SubjectPublicKeyInfo")
            return (try node.child(at: 0, "algorithm"), try node.child(at: 1, "subjectPublicKey").bitString().bytes)
        }
        let algorithm = try AlgorithmIdentifier(algorithmNode)
        switch algorithm.algorithm {
        case OID.rsaEncryption, OID.rsassaPSS:
            self = try reading("RSAPublicKey") { () throws(ASN1Error) in
                let key = try ASN1Node.parse(keyBits).expect(.sequence, "RSAPublicKey")
                return .rsa(
                    modulus: Array(try key.child(at: 0, "modulus").unsignedIntegerBytes()),
                    exponent: Array(try key.child(at: 1, "publicExponent").unsignedIntegerBytes()))
            }
        case OID.ecPublicKey:
            self = .ec(domain: try ECDomain(algorithm.parameters), point: Array(keyBits))
        default:
            self = .other(algorithm: algorithm.algorithm)
        }
    }

    /// "RSA", "EC" or the algorithm's OID.
    public var algorithmName: String {
        switch self {
        case .rsa: "RSA"
        case .ec: "EC"
        case .other(let algorithm): algorithm.name ?? algorithm.dotted
        }
    }

    /// The modulus size for RSA, the field size for EC; nil when unknown.
    public var sizeInBits: Int? {
        switch self {
        case .rsa(let modulus, _): bitLength(modulus)
        case .ec(let domain, _): domain.fieldSizeInBits
        case .other: nil
        }
    }
}

/// The curve of an EC key.
///
/// ```
/// ECParameters ::= CHOICE { ecParameters SpecifiedECDomain, namedCurve OBJECT IDENTIFIER, implicitlyCA NULL }
/// SpecifiedECDomain ::= SEQUENCE {
///     version ECPVer, fieldID FieldID, curve Curve, base ECPoint, order INTEGER, cofactor INTEGER OPTIONAL }
/// FieldID ::= SEQUENCE { fieldType OBJECT IDENTIFIER, parameters ANY }  -- prime-field: p
/// Curve ::= SEQUENCE { a FieldElement, b FieldElement, seed BIT STRING OPTIONAL }
/// ```
public enum ECDomain: Sendable, Hashable {
    case named(ASN1ObjectIdentifier)
    /// Explicit prime-field parameters, as ICAO 9303-12 requires of CSCA and DSC keys.
    case explicit(ExplicitCurve)
    /// `implicitlyCA`: the curve is the issuer's (seen in a few master-list certificates).
    case inherited

    init(_ parameters: ASN1Node?) throws(CMSError) {
        guard let parameters, parameters.tag != .null else {
            self = .inherited
            return
        }
        if parameters.tag == .objectIdentifier {
            self = .named(try reading("namedCurve") { () throws(ASN1Error) in try parameters.objectIdentifier() })
            return
        }
        self = .explicit(try ExplicitCurve(parameters))
    }

    /// brainpoolP160r1: named by some certificates though outside ICAO 9303-11's table.
    static let otherCurveBits: [ASN1ObjectIdentifier: Int] = ["1.3.36.3.3.2.8.1.1.1": 160]

    var fieldSizeInBits: Int? {
        switch self {
        case .explicit(let curve): bitLength(curve.prime)
        case .named(let oid): StandardizedDomainParameters(curveIdentifier: oid)?.fieldBits ?? Self.otherCurveBits[oid]
        case .inherited: nil
        }
    }
}

/// A short-Weierstrass curve over a prime field, all values unsigned big-endian.
public struct ExplicitCurve: Sendable, Hashable {
    public let prime: [UInt8]
    public let a: [UInt8]
    public let b: [UInt8]
    /// The base point as an uncompressed or compressed ECPoint.
    public let generator: [UInt8]
    public let order: [UInt8]
    public let cofactor: [UInt8]?

    init(_ node: ASN1Node) throws(CMSError) {
        let fieldType = try reading("SpecifiedECDomain") { () throws(ASN1Error) in
            try node.expect(.sequence, "SpecifiedECDomain").child(at: 1, "fieldID").child(at: 0, "fieldType")
                .objectIdentifier()
        }
        guard fieldType == OID.primeField else { throw CMSError(.unsupported, "EC field type \(fieldType)") }
        (prime, a, b, generator, order, cofactor) = try reading("SpecifiedECDomain") { () throws(ASN1Error) in
            let field = try node.child(at: 1, "fieldID")
            let curve = try node.child(at: 2, "curve")
            let cofactorNode = node.children.count > 5 ? node.children[5] : nil
            return (
                Array(try field.child(at: 1, "prime").unsignedIntegerBytes()),
                Array(try curve.child(at: 0, "a").octetString()),
                Array(try curve.child(at: 1, "b").octetString()),
                Array(try node.child(at: 3, "base").octetString()),
                Array(try node.child(at: 4, "order").unsignedIntegerBytes()),
                try cofactorNode.map { node throws(ASN1Error) in Array(try node.unsignedIntegerBytes()) }
            )
        }
    }
}

/// The number of significant bits of an unsigned big-endian integer.
func bitLength(_ magnitude: [UInt8]) -> Int {
    guard let index = magnitude.firstIndex(where: { $0 != 0 }) else { return 0 }
    return (magnitude.count - index - 1) * 8 + (8 - magnitude[index].leadingZeroBitCount)
}
