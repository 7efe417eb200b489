import ASN1
import CryptoPrimitives
import Foundation

/// A CMS SignedData (RFC 5652) from its ContentInfo, BER with indefinite lengths accepted; the
/// envelope is `ASN1.SignedDataEnvelope`'s, the certificates and SignerInfos are parsed here.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType ContentType, content [0] EXPLICIT ANY DEFINED BY contentType }
/// SignedData ::= SEQUENCE {
///     version           CMSVersion,
///     digestAlgorithms  DigestAlgorithmIdentifiers,
///     encapContentInfo  EncapsulatedContentInfo,
///     certificates      [0] IMPLICIT CertificateSet OPTIONAL,
///     crls              [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///     signerInfos       SignerInfos }
/// EncapsulatedContentInfo ::= SEQUENCE { eContentType ContentType, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
public struct SignedData: Sendable {
    public let version: Int
    /// `eContentType`.
    public let contentType: ASN1ObjectIdentifier
    /// The `eContent` octets (segments of a constructed OCTET STRING joined); nil when detached.
    public let content: [UInt8]?
    /// The certificates carried (other CertificateChoices are skipped).
    public let certificates: [Certificate]
    public let signerInfos: [SignerInfo]

    /// Parses a DER/BER ContentInfo holding SignedData.
    public init(contentInfo bytes: some Collection<UInt8>) throws(CMSError) {
        try self.init(contentInfo: reading("ContentInfo") { () throws(ASN1Error) in try ASN1Node.parse(bytes) })
    }

    init(contentInfo node: ASN1Node) throws(CMSError) {
        let envelope = try reading("SignedData") { () throws(ASN1Error) in try SignedDataEnvelope(contentInfo: node) }
        version = envelope.version
        contentType = envelope.contentType
        content = envelope.content
        certificates = try (envelope.certificates ?? []).filter { $0.tag == .sequence }.map {
            node throws(CMSError) in try Certificate(node: node)
        }
        signerInfos = try envelope.signerInfos.map { node throws(CMSError) in try SignerInfo(node) }
    }

    /// The certificates in this SignedData that `signer.identifier` names.
    public func certificates(matching signer: SignerInfo) -> [Certificate] {
        certificates.filter { signer.identifier.matches($0) }
    }

    /// Checks `signer`'s signature over this content with `certificate`'s key: the
    /// contentType and messageDigest attributes when signed attributes are present (their
    /// DER SET is what is signed), else the signature over the eContent itself.
    /// Returns the problems found; empty means the signature is valid.
    public func signatureProblems(of signer: SignerInfo, certificate: Certificate) -> [PassiveAuthenticationError] {
        guard let content else { return [.malformedSignedData("no encapsulated content to check")] }
        guard let algorithm = signer.signatureAlgorithm else {
            return [.unsupportedAlgorithm("signature algorithm \(signer.signatureAlgorithmIdentifier)")]
        }
        var problems: [PassiveAuthenticationError] = []
        let signedBytes: [UInt8]
        if let attributes = signer.signedAttributes {
            if attributes.contentType != contentType {
                problems.append(
                    .contentTypeMismatch(attribute: attributes.contentType?.dotted, eContentType: contentType.dotted))
            }
            if attributes.messageDigest != signer.digestAlgorithm.hash(content) {
                problems.append(.messageDigestMismatch)
            }
            signedBytes = attributes.der
        } else {
            signedBytes = content
        }
        do {
            if try !certificate.publicKey.isValidSignature(signer.signature, over: signedBytes, algorithm: algorithm) {
                problems.append(.signatureInvalid(signer: certificate.identification))
            }
        } catch {
            problems.append(.unsupportedAlgorithm(error.reason))
        }
        return problems
    }
}

/// One signer of a SignedData.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///     version             CMSVersion,
///     sid                 SignerIdentifier,
///     digestAlgorithm     DigestAlgorithmIdentifier,
///     signedAttrs         [0] IMPLICIT SignedAttributes OPTIONAL,
///     signatureAlgorithm  SignatureAlgorithmIdentifier,
///     signature           SignatureValue,
///     unsignedAttrs       [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// SignerIdentifier ::= CHOICE {
///     issuerAndSerialNumber IssuerAndSerialNumber,   -- SEQUENCE { issuer Name, serialNumber INTEGER }
///     subjectKeyIdentifier  [0] SubjectKeyIdentifier }
/// ```
public struct SignerInfo: Sendable {
    public enum Identifier: Sendable, Hashable {
        case issuerAndSerialNumber(issuer: DistinguishedName, serialNumber: [UInt8])
        case subjectKeyIdentifier([UInt8])

        /// Whether `certificate` is the one named: issuer compared after normalisation
        /// (string type, case, spacing, RDN order), serial by value.
        public func matches(_ certificate: Certificate) -> Bool {
            switch self {
            case .issuerAndSerialNumber(let issuer, let serial):
                return issuer == certificate.issuer && sameInteger(serial, certificate.serialNumber)
            case .subjectKeyIdentifier(let identifier):
                return certificate.extensions.subjectKeyIdentifier == identifier
            }
        }
    }

    public let version: Int
    public let identifier: Identifier
    public let digestAlgorithm: HashAlgorithm
    public let signedAttributes: SignedAttributes?
    /// Nil when this package does not know the algorithm (`signatureAlgorithmIdentifier` names it).
    public let signatureAlgorithm: SignatureAlgorithm?
    public let signatureAlgorithmIdentifier: ASN1ObjectIdentifier
    public let signature: [UInt8]

    init(_ node: ASN1Node) throws(CMSError) {
        let fields = try reading("SignerInfo") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("SignerInfo")
            // unsignedAttrs [1] and anything after the signature are ignored.
            return (
                version: try fields.next("version").intValue(), sid: try fields.next("sid"),
                digest: try fields.next("digestAlgorithm"),
                attributes: fields.next(optional: .contextSpecific(0, constructed: true)),
                algorithm: try fields.next("signatureAlgorithm"),
                signature: Array(try fields.next("signature").octetString())
            )
        }
        version = fields.version
        identifier = try Self.identifier(fields.sid)
        digestAlgorithm = try HashAlgorithm(digestAlgorithm: AlgorithmIdentifier(fields.digest))
        signedAttributes = try fields.attributes.map { node throws(CMSError) in try SignedAttributes(node) }
        let algorithm = try AlgorithmIdentifier(fields.algorithm)
        signatureAlgorithmIdentifier = algorithm.algorithm
        signatureAlgorithm = try? SignatureAlgorithm(algorithm, digest: digestAlgorithm)
        signature = fields.signature
    }

    private static func identifier(_ node: ASN1Node) throws(CMSError) -> Identifier {
        if node.tag == .contextSpecific(0, constructed: false) {
            return .subjectKeyIdentifier(Array(node.content))
        }
        let (issuerNode, serial) = try reading("IssuerAndSerialNumber") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("IssuerAndSerialNumber")
            return (try fields.next("issuer"), Array(try fields.next("serialNumber").integerBytes()))
        }
        return .issuerAndSerialNumber(issuer: try DistinguishedName(issuerNode), serialNumber: serial)
    }
}

/// The signed attributes CMS and ICAO 9303 rely on.
///
/// ```
/// SignedAttributes ::= SET SIZE (1..MAX) OF Attribute
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
/// ContentType ::= OBJECT IDENTIFIER;  MessageDigest ::= OCTET STRING;  SigningTime ::= Time
/// ```
public struct SignedAttributes: Sendable {
    /// The DER SET that the signature covers: the `[0] IMPLICIT` encoding with its tag
    /// replaced by SET (RFC 5652 §5.4), re-encoded only when it arrived with an indefinite length.
    public let der: [UInt8]
    public let contentType: ASN1ObjectIdentifier?
    public let messageDigest: [UInt8]?
    public let signingTime: Date?

    init(_ node: ASN1Node) throws(CMSError) {
        if node.isIndefiniteLength {
            der = DER.constructed(.set, node.children.map { Array($0.encodedBytes) })
        } else {
            der = ASN1Tag.set.encoded + node.encodedBytes.dropFirst()
        }
        var values: [ASN1ObjectIdentifier: ASN1Node] = [:]
        for attribute in node.children {
            let (type, value) = try reading("Attribute") { () throws(ASN1Error) in
                var fields = try attribute.sequenceFields("Attribute")
                let type = try fields.next("attrType").objectIdentifier()
                var values = try fields.next("attrValues").fields(.set, "attrValues")
                guard let value = values.next(), values.isAtEnd else {
                    throw ASN1Error(
                        .invalidValue, "attribute \(type) has \(values.container.children.count) values, not 1")
                }
                return (type, value)
            }
            guard values[type] == nil else { throw CMSError(.malformed, "signed attribute \(type) appears twice") }
            values[type] = value
        }
        contentType = try values[ASN1ObjectIdentifier.contentType].map { node throws(CMSError) in
            try reading("contentType attribute") { () throws(ASN1Error) in try node.objectIdentifier() }
        }
        messageDigest = try values[ASN1ObjectIdentifier.messageDigest].map { node throws(CMSError) in
            try reading("messageDigest attribute") { () throws(ASN1Error) in Array(try node.octetString()) }
        }
        signingTime = try values[ASN1ObjectIdentifier.signingTime].map { node throws(CMSError) in
            try reading("signingTime attribute") { () throws(ASN1Error) in try node.time() }
        }
    }
}

/// Two INTEGER encodings of the same value (BER allows redundant leading bytes).
func sameInteger(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    func minimal(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var slice = bytes[...]
        while slice.count > 1, let first = slice.first, first == 0 || first == 0xFF,
            (slice.dropFirst().first ?? 0) & 0x80 == first & 0x80
        {
            slice = slice.dropFirst()
        }
        return slice
    }
    return minimal(lhs) == minimal(rhs)
}
