import ASN1
import CryptoPrimitives
import Foundation

/// An X.509 certificate (CSCA, link certificate, DSC, master list signer), read BER-tolerantly
/// with the exact bytes of its `tbsCertificate` kept for signature checks.
///
/// ```
/// Certificate ::= SEQUENCE {
///     tbsCertificate       TBSCertificate,
///     signatureAlgorithm   AlgorithmIdentifier,
///     signatureValue       BIT STRING }
/// TBSCertificate ::= SEQUENCE {
///     version         [0] EXPLICIT Version DEFAULT v1,
///     serialNumber         CertificateSerialNumber,
///     signature            AlgorithmIdentifier,
///     issuer               Name,
///     validity             Validity,          -- SEQUENCE { notBefore Time, notAfter Time }
///     subject              Name,
///     subjectPublicKeyInfo SubjectPublicKeyInfo,
///     issuerUniqueID  [1] IMPLICIT UniqueIdentifier OPTIONAL,
///     subjectUniqueID [2] IMPLICIT UniqueIdentifier OPTIONAL,
///     extensions      [3] EXPLICIT Extensions OPTIONAL }
/// ```
public struct Certificate: Sendable, Hashable {
    /// The certificate as encoded.
    public let der: [UInt8]
    /// The `tbsCertificate` TLV as encoded: what the issuer signed.
    public let tbsCertificate: [UInt8]
    public let version: Int
    /// The serial number's two's-complement bytes as encoded (negative serials occur).
    public let serialNumber: [UInt8]
    public let issuer: DistinguishedName
    public let subject: DistinguishedName
    public let notBefore: Date
    public let notAfter: Date
    public let publicKey: PublicKey
    public let extensions: CertificateExtensions
    /// The outer `signatureAlgorithm`; nil when this package does not know it.
    public let signatureAlgorithm: SignatureAlgorithm?
    /// The algorithm's OID, known or not.
    public let signatureAlgorithmIdentifier: ASN1ObjectIdentifier
    public let signature: [UInt8]
    /// SHA-256 of `der`: the identity used for deduplication and hashing.
    public let sha256Fingerprint: [UInt8]

    /// Parses one DER (or BER) certificate; bytes after it are an error.
    public init(derEncoded bytes: some Collection<UInt8>) throws(CMSError) {
        try self.init(node: reading("Certificate") { () throws(ASN1Error) in try ASN1Node.parse(bytes) })
    }

    init(node: ASN1Node) throws(CMSError) {
        let fields = try reading("Certificate") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("Certificate")
            let tbs = try fields.next("tbsCertificate").expect(.sequence, "TBSCertificate")
            return (
                tbs: tbs, algorithm: try fields.next("signatureAlgorithm"),
                signature: try fields.next("signatureValue").bitString().bytes
            )
        }
        der = Array(node.encodedBytes)
        sha256Fingerprint = HashAlgorithm.sha256.hash(der)
        tbsCertificate = Array(fields.tbs.encodedBytes)
        signature = Array(fields.signature)
        let algorithm = try AlgorithmIdentifier(fields.algorithm)
        signatureAlgorithmIdentifier = algorithm.algorithm
        signatureAlgorithm = try? SignatureAlgorithm(algorithm)

        let tbs = try reading("TBSCertificate") { () throws(ASN1Error) in
            var fields = fields.tbs.fields
            let version = try fields.next(optional: .contextSpecific(0, constructed: true)).map {
                (wrapper) throws(ASN1Error) in try wrapper.wrapped("version").intValue()
            }
            let serialNumber = try fields.next("serialNumber").integerBytes()
            _ = try fields.next("signature")
            let (issuer, validity, subject) = (
                try fields.next("issuer"), try fields.next("validity"), try fields.next("subject")
            )
            let subjectPublicKeyInfo = try fields.next("subjectPublicKeyInfo")
            // issuerUniqueID and subjectUniqueID are skipped; fields after the extensions ignored.
            let extensions = fields.skip(to: .contextSpecific(3, constructed: true))
            return (version ?? 0, serialNumber, issuer, validity, subject, subjectPublicKeyInfo, extensions)
        }
        version = tbs.0
        serialNumber = Array(tbs.1)
        issuer = try DistinguishedName(tbs.2)
        (notBefore, notAfter) = try reading("Validity") { () throws(ASN1Error) in
            // Validity ::= SEQUENCE { notBefore Time, notAfter Time }
            var validity = try tbs.3.sequenceFields("Validity")
            return (try validity.next("notBefore").time(), try validity.next("notAfter").time())
        }
        subject = try DistinguishedName(tbs.4)
        publicKey = try PublicKey(certificateKey: tbs.5)
        extensions =
            try tbs.6.map { node throws(CMSError) in try CertificateExtensions(node) } ?? CertificateExtensions()
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.der == rhs.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(sha256Fingerprint) }

    /// Issuer and subject are the same name (a root CSCA, or a link certificate).
    public var isSelfIssued: Bool { issuer == subject }

    /// Serial number as upper-case hexadecimal, leading zero bytes removed.
    public var serialNumberHex: String {
        let trimmed = serialNumber.drop { $0 == 0 }
        return trimmed.isEmpty ? "00" : Hex.encode(trimmed)
    }

    /// The certificate in an error message: its subject and serial number, which together
    /// name it for a person looking it up in a trust list.
    public var identification: String { "the certificate \(subject.rfc4514) (serial \(serialNumberHex))" }

    /// A Document Signer's shape: no CA (basic constraints) and a key usage without keyCertSign.
    /// Such a certificate signs documents, never certificates, so a trust store never takes it for
    /// an issuer.
    public var isDocumentSignerOnly: Bool {
        extensions.isCertificateAuthority != true && extensions.keyUsage.map { !$0.contains(.keyCertSign) } == true
    }

    /// Whether `date` lies within notBefore…notAfter.
    public func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }

    /// Whether `issuer`'s key verifies this certificate's signature. A key or algorithm this
    /// package cannot use throws; a wrong signature is `false`.
    public func isSignature(verifiedBy issuer: Certificate) throws(CMSError) -> Bool {
        guard let signatureAlgorithm else {
            throw CMSError(.unsupported, "certificate signature algorithm \(signatureAlgorithmIdentifier)")
        }
        return try issuer.publicKey.isValidSignature(
            signature, over: tbsCertificate, algorithm: signatureAlgorithm)
    }
}
