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

extension HashAlgorithm {
    private static let byIdentifier: [ASN1ObjectIdentifier: HashAlgorithm] = [
        ASN1ObjectIdentifier.sha1: .sha1, ASN1ObjectIdentifier.sha224: .sha224, ASN1ObjectIdentifier.sha256: .sha256,
        ASN1ObjectIdentifier.sha384: .sha384, ASN1ObjectIdentifier.sha512: .sha512,
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
    /// The name without its hyphen (`SHA256`), for signature algorithm names; a switch, not Foundation's
    /// `replacingOccurrences`, which was 2–3 % of a seal's verification.
    var compactName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }
}
