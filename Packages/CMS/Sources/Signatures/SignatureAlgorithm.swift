import ASN1
import CryptoPrimitives

/// A signature scheme with every parameter needed to verify it.
///
/// ```
/// RSASSA-PSS-params ::= SEQUENCE {
///     hashAlgorithm      [0] HashAlgorithm    DEFAULT sha1,
///     maskGenAlgorithm   [1] MaskGenAlgorithm DEFAULT mgf1SHA1,
///     saltLength         [2] INTEGER          DEFAULT 20,
///     trailerField       [3] TrailerField     DEFAULT trailerFieldBC }
/// ```
public enum SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    case rsaPKCS1(HashAlgorithm)
    case rsaPSS(hash: HashAlgorithm, mgf1Hash: HashAlgorithm, saltLength: Int)
    /// ECDSA; the signature may be DER `Ecdsa-Sig-Value` or plain r‖s (BSI TR-03111).
    case ecdsa(HashAlgorithm)

    public var hash: HashAlgorithm {
        switch self {
        case .rsaPKCS1(let hash), .ecdsa(let hash), .rsaPSS(let hash, _, _): hash
        }
    }

    /// The JCA name: "SHA256withRSA", "SHA256withRSAandMGF1", "SHA256withECDSA".
    public var description: String {
        switch self {
        case .rsaPKCS1(let hash): "\(hash.compactName)withRSA"
        case .rsaPSS(let hash, _, _): "\(hash.compactName)withRSAandMGF1"
        case .ecdsa(let hash): "\(hash.compactName)withECDSA"
        }
    }

    private static let fixed: [ASN1ObjectIdentifier: SignatureAlgorithm] = [
        .sha1WithRSAEncryption: .rsaPKCS1(.sha1),
        .sha224WithRSAEncryption: .rsaPKCS1(.sha224),
        .sha256WithRSAEncryption: .rsaPKCS1(.sha256),
        .sha384WithRSAEncryption: .rsaPKCS1(.sha384),
        .sha512WithRSAEncryption: .rsaPKCS1(.sha512),
        .ecdsaWithSHA1: .ecdsa(.sha1),
        .ecdsaWithSHA224: .ecdsa(.sha224),
        .ecdsaWithSHA256: .ecdsa(.sha256),
        .ecdsaWithSHA384: .ecdsa(.sha384),
        .ecdsaWithSHA512: .ecdsa(.sha512),
        .ecdsaPlainSignatures.appending(1): .ecdsa(.sha1),
        .ecdsaPlainSignatures.appending(2): .ecdsa(.sha224),
        .ecdsaPlainSignatures.appending(3): .ecdsa(.sha256),
        .ecdsaPlainSignatures.appending(4): .ecdsa(.sha384),
        .ecdsaPlainSignatures.appending(5): .ecdsa(.sha512),
    ]

    /// The scheme a signature-algorithm OID names by itself (with its hash), nil for an OID that
    /// names only a key type; DG14's ActiveAuthenticationInfo names the ECDSA hash this way.
    public init?(identifier: ASN1ObjectIdentifier) {
        guard let known = Self.fixed[identifier] else { return nil }
        self = known
    }

    /// The scheme an AlgorithmIdentifier names. `digest` is the SignerInfo's digest
    /// algorithm, used when the identifier names only the key type (rsaEncryption,
    /// ecPublicKey), as some SODs do.
    init(_ identifier: AlgorithmIdentifier, digest: HashAlgorithm? = nil) throws(CMSError) {
        if let known = Self.fixed[identifier.algorithm] {
            self = known
            return
        }
        switch identifier.algorithm {
        case ASN1ObjectIdentifier.rsassaPSS:
            self = try Self.pss(identifier.meaningfulParameters)
        case ASN1ObjectIdentifier.rsaEncryption where digest != nil:
            self = .rsaPKCS1(digest ?? .sha256)
        case ASN1ObjectIdentifier.ecPublicKey where digest != nil:
            self = .ecdsa(digest ?? .sha256)
        default:
            throw CMSError(.unsupported, "signature algorithm \(identifier.algorithm)")
        }
    }

    private static func pss(_ parameters: ASN1Node?) throws(CMSError) -> SignatureAlgorithm {
        guard let parameters else { return .rsaPSS(hash: .sha1, mgf1Hash: .sha1, saltLength: 20) }
        var hash = HashAlgorithm.sha1
        var mgf1Hash = HashAlgorithm.sha1
        var saltLength = 20
        let fields = try reading("RSASSA-PSS-params") { () throws(ASN1Error) in
            try parameters.expect(.sequence, "RSASSA-PSS-params").children
        }
        for field in fields {
            let inner = try reading("RSASSA-PSS-params") { () throws(ASN1Error) in
                try field.wrapped("RSASSA-PSS-params field")
            }
            switch field.tag {
            case .contextSpecific(0, constructed: true):
                hash = try HashAlgorithm(digestAlgorithm: AlgorithmIdentifier(inner))
            case .contextSpecific(1, constructed: true):
                let mask = try AlgorithmIdentifier(inner)
                guard mask.algorithm == ASN1ObjectIdentifier.mgf1, let maskHash = mask.meaningfulParameters else {
                    throw CMSError(.unsupported, "PSS mask generation \(mask.algorithm)")
                }
                mgf1Hash = try HashAlgorithm(digestAlgorithm: AlgorithmIdentifier(maskHash))
            case .contextSpecific(2, constructed: true):
                saltLength = try reading("PSS saltLength") { () throws(ASN1Error) in try inner.intValue() }
                guard (0...1024).contains(saltLength) else {
                    throw CMSError(.malformed, "PSS salt length \(saltLength)")
                }
            case .contextSpecific(3, constructed: true):
                let trailer = try reading("PSS trailerField") { () throws(ASN1Error) in try inner.intValue() }
                guard trailer == 1 else { throw CMSError(.unsupported, "PSS trailer field \(trailer)") }
            default:
                throw CMSError(.malformed, "unexpected RSASSA-PSS-params field \(field.tag)")
            }
        }
        return .rsaPSS(hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
    }
}
