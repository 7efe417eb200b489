import ASN1
import ICAO

/// A certificate's public key: the reader's one public-key model, `ICAO.PublicKeyInfo`
/// (DG14, DG15 and EF.CardSecurity keys use it too), with what certificates need on top.
public typealias PublicKey = PublicKeyInfo

extension PublicKeyInfo {
    /// A certificate's SubjectPublicKeyInfo. Certificates are held to DER's integers (a modulus or a
    /// prime without its 00 sign byte is an error here, where a chip's key is read as meant), and
    /// an id-ecPublicKey key must name its curve, give it explicitly over a prime field, or inherit
    /// it (implicitlyCA, absent).
    init(certificateKey node: ASN1Node) throws(CMSError) {
        self = try reading("SubjectPublicKeyInfo") { () throws(ASN1Error) in try PublicKeyInfo(node: node) }
        if keyAlgorithm == .rsa {
            try reading("RSAPublicKey") { () throws(ASN1Error) in
                var fields = try ASN1Node.parse(publicKey).sequenceFields("RSAPublicKey")
                _ = try fields.next("modulus").unsignedIntegerBytes()
                _ = try fields.next("publicExponent").unsignedIntegerBytes()
            }
        }
        guard algorithmIdentifier == ASN1ObjectIdentifier.ecPublicKey else { return }
        switch parameterEncoding {
        case .explicit:
            guard let fieldType = ecParameters?.fieldType, fieldType == ASN1ObjectIdentifier.primeField else {
                throw CMSError(.unsupported, "EC field type \(ecParameters?.fieldType?.dotted ?? "missing")")
            }
            try reading("SpecifiedECDomain") { () throws(ASN1Error) in try Self.checkUnsignedIntegers(node) }
        case .none:
            if let tag = parametersTag, tag != .null {
                throw CMSError(.malformed, "SpecifiedECDomain: expected tag 30, found \(tag)")
            }
        case .standardized:
            // An INTEGER is TR-03110's, not X.509's.
            throw CMSError(.malformed, "SpecifiedECDomain: expected tag 30, found 02")
        case .named:
            break
        }
    }

    /// p, the order and the cofactor of explicit parameters are non-negative DER INTEGERs.
    private static func checkUnsignedIntegers(_ node: ASN1Node) throws(ASN1Error) {
        var info = node.fields
        var algorithm = try info.next("algorithm").fields
        _ = algorithm.next()
        var domain = try algorithm.next("parameters").fields
        _ = domain.next()
        var field = try domain.next("fieldID").fields
        _ = field.next()
        _ = try field.next("prime").unsignedIntegerBytes()
        _ = domain.next()
        _ = domain.next()
        _ = try domain.next("order").unsignedIntegerBytes()
        _ = try domain.next().map { (cofactor) throws(ASN1Error) in try cofactor.unsignedIntegerBytes() }
    }

    /// Whether this is an id-ecPublicKey key (ECDSA), as opposed to a chip's id-PK-ECDH key.
    var isECDSAKey: Bool { algorithmIdentifier == ASN1ObjectIdentifier.ecPublicKey }

    /// "RSA", "EC" or the algorithm's ASN1ObjectIdentifier.
    public var algorithmName: String {
        if keyAlgorithm == .rsa { return "RSA" }
        if isECDSAKey { return "EC" }
        return algorithmIdentifier.name ?? algorithmIdentifier.dotted
    }

    /// The modulus size for RSA, the field size for EC; nil when unknown.
    public var sizeInBits: Int? {
        if keyAlgorithm == .rsa { return keySize == 0 ? nil : Int(keySize) }
        guard isECDSAKey else { return nil }
        return keySize > 0 ? Int(keySize) : namedCurve.flatMap { Self.otherCurveBits[$0] }
    }

    /// brainpoolP160r1: named by some certificates though outside ICAO 9303-11's table.
    static let otherCurveBits: [ASN1ObjectIdentifier: Int] = [.brainpoolP160r1: 160]
}
