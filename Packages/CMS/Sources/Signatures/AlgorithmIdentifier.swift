import ASN1
import CryptoPrimitives

/// An algorithm and its parameters, as X.509 and CMS name them.
///
/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///     algorithm   OBJECT IDENTIFIER,
///     parameters  ANY DEFINED BY algorithm OPTIONAL }
/// ```
public struct AlgorithmIdentifier: Sendable, Hashable {
    public let algorithm: ASN1ObjectIdentifier
    /// The parameters node when present (absent and NULL are told apart by the caller if it must).
    public let parameters: ASN1Node?

    init(_ node: ASN1Node) throws(CMSError) {
        (algorithm, parameters) = try reading("AlgorithmIdentifier") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("AlgorithmIdentifier")
            let algorithm = try fields.next("algorithm").objectIdentifier()
            return (algorithm, fields.next())
        }
    }

    /// Parameters other than absent or NULL.
    var meaningfulParameters: ASN1Node? {
        guard let parameters, parameters.tag != .null else { return nil }
        return parameters
    }
}

/// The object identifiers this package acts on.
enum OID {
    static let sha1: ASN1ObjectIdentifier = "1.3.14.3.2.26"
    static let sha224: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.4"
    static let sha256: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    static let sha384: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.2"
    static let sha512: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.3"

    static let rsaEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.1"
    static let rsassaPSS: ASN1ObjectIdentifier = "1.2.840.113549.1.1.10"
    static let mgf1: ASN1ObjectIdentifier = "1.2.840.113549.1.1.8"
    static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"
    static let primeField: ASN1ObjectIdentifier = "1.2.840.10045.1.1"

    static let contentType: ASN1ObjectIdentifier = "1.2.840.113549.1.9.3"
    static let messageDigest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.4"
    static let signingTime: ASN1ObjectIdentifier = "1.2.840.113549.1.9.5"

    static let signedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    static let data: ASN1ObjectIdentifier = "1.2.840.113549.1.7.1"
    static let ldsSecurityObject: ASN1ObjectIdentifier = "2.23.136.1.1.1"
    static let cscaMasterList: ASN1ObjectIdentifier = "2.23.136.1.1.2"

    static let subjectKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.14"
    static let keyUsage: ASN1ObjectIdentifier = "2.5.29.15"
    static let privateKeyUsagePeriod: ASN1ObjectIdentifier = "2.5.29.16"
    static let basicConstraints: ASN1ObjectIdentifier = "2.5.29.19"
    static let authorityKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.35"
}

extension HashAlgorithm {
    private static let byIdentifier: [ASN1ObjectIdentifier: HashAlgorithm] = [
        OID.sha1: .sha1, OID.sha224: .sha224, OID.sha256: .sha256, OID.sha384: .sha384, OID.sha512: .sha512,
    ]

    /// The hash a DigestAlgorithmIdentifier names.
    init(digestAlgorithm identifier: AlgorithmIdentifier) throws(CMSError) {
        guard let hash = Self.byIdentifier[identifier.algorithm] else {
            throw CMSError(.unsupported, "digest algorithm \(identifier.algorithm)")
        }
        self = hash
    }

    /// The name the verdicts print: "SHA-1", "SHA-256", …
    public var displayName: String {
        switch self {
        case .sha1: "SHA-1"
        case .sha224: "SHA-224"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    /// The spelling inside JCA signature names ("SHA256withRSA").
    var compactName: String { displayName.replacingOccurrences(of: "-", with: "") }
}
