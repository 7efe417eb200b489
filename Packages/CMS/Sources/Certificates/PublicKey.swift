import ASN1
import ICAO

/// A certificate's public key: the reader's one public-key model, `ICAO.SubjectPublicKeyInfo`
/// (DG14, DG15 and EF.CardSecurity keys use it too), with what certificates need on top.
public typealias PublicKey = SubjectPublicKeyInfo

extension SubjectPublicKeyInfo {
    /// A certificate's SubjectPublicKeyInfo. An id-ecPublicKey key must name its curve, give it
    /// explicitly over a prime field, or inherit it (implicitlyCA, absent): anything else is an error
    /// here, where a chip's key would only be shown.
    init(certificateKey node: ASN1Node) throws(CMSError) {
        self = try reading("SubjectPublicKeyInfo") { () throws(ASN1Error) in try SubjectPublicKeyInfo(node: node) }
        guard algorithmIdentifier == OID.ecPublicKey else { return }
        switch parameterEncoding {
        case .explicit:
            guard let fieldType = ecParameters?.fieldType, fieldType == OID.primeField else {
                throw CMSError(.unsupported, "EC field type \(ecParameters?.fieldType?.dotted ?? "missing")")
            }
        case .none:
            if let tag = parametersTag, tag != .null {
                throw CMSError(.malformed, "SpecifiedECDomain: expected tag 30, found \(tag)")
            }
        case .named, .standardized:
            break
        }
    }

    /// Whether this is an id-ecPublicKey key (ECDSA), as opposed to a chip's id-PK-ECDH key.
    var isECDSAKey: Bool { algorithmIdentifier == OID.ecPublicKey }

    /// "RSA", "EC" or the algorithm's OID.
    public var algorithmName: String {
        if algorithm == .rsa { return "RSA" }
        if isECDSAKey { return "EC" }
        return algorithmIdentifier.name ?? algorithmIdentifier.dotted
    }

    /// The modulus size for RSA, the field size for EC; nil when unknown.
    public var sizeInBits: Int? {
        if algorithm == .rsa { return keySize }
        guard isECDSAKey else { return nil }
        return keySize ?? namedCurve.flatMap { Self.otherCurveBits[$0] }
    }

    /// brainpoolP160r1: named by some certificates though outside ICAO 9303-11's table.
    static let otherCurveBits: [ASN1ObjectIdentifier: Int] = ["1.3.36.3.3.2.8.1.1.1": 160]
}
