import ASN1
import Foundation

/// An X.509 certificate revocation list (RFC 5280 §5), as a CSCA publishes it for the DSCs and
/// link certificates it revoked (ICAO 9303-12 §7.1.4), read BER-tolerantly with its `tbsCertList`
/// kept for the signature check.
///
/// ```
/// CertificateList ::= SEQUENCE {
///     tbsCertList          TBSCertList,
///     signatureAlgorithm   AlgorithmIdentifier,
///     signatureValue       BIT STRING }
/// TBSCertList ::= SEQUENCE {
///     version              Version OPTIONAL,   -- v2
///     signature            AlgorithmIdentifier,
///     issuer               Name,
///     thisUpdate           Time,
///     nextUpdate           Time OPTIONAL,
///     revokedCertificates  SEQUENCE OF SEQUENCE {
///         userCertificate      CertificateSerialNumber,
///         revocationDate       Time,
///         crlEntryExtensions   Extensions OPTIONAL } OPTIONAL,
///     crlExtensions        [0] EXPLICIT Extensions OPTIONAL }
/// ```
public struct CertificateRevocationList: Sendable, Hashable {
    public let der: [UInt8]
    public let tbsCertList: [UInt8]
    public let issuer: DistinguishedName
    public let thisUpdate: Date
    public let nextUpdate: Date?
    /// Serial number (two's-complement bytes as encoded, leading zeros removed) → revocation date.
    public let revoked: [[UInt8]: Date]
    public let signatureAlgorithm: SignatureAlgorithm?
    public let signatureAlgorithmIdentifier: ASN1ObjectIdentifier
    public let signature: [UInt8]

    /// Parses one DER (or BER) CRL; bytes after it are an error.
    public init(derEncoded bytes: some Collection<UInt8>) throws(CMSError) {
        try self.init(node: reading("CertificateList") { () throws(ASN1Error) in try ASN1Node.parse(bytes) })
    }

    init(node: ASN1Node) throws(CMSError) {
        let outer = try reading("CertificateList") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("CertificateList")
            return (
                tbs: try fields.next("tbsCertList").expect(.sequence, "TBSCertList"),
                algorithm: try fields.next("signatureAlgorithm"),
                signature: try fields.next("signatureValue").bitString().bytes
            )
        }
        der = Array(node.encodedBytes)
        tbsCertList = Array(outer.tbs.encodedBytes)
        signature = Array(outer.signature)
        let algorithm = try AlgorithmIdentifier(outer.algorithm)
        signatureAlgorithmIdentifier = algorithm.algorithm
        signatureAlgorithm = try? SignatureAlgorithm(algorithm)
        let tbs = try reading("TBSCertList") { () throws(ASN1Error) in
            var fields = outer.tbs.fields
            _ = fields.next(optional: .integer)
            _ = try fields.next("signature")
            let issuer = try fields.next("issuer")
            let thisUpdate = try fields.next("thisUpdate").time()
            let nextUpdate = try fields.nextIf { $0.tag == .utcTime || $0.tag == .generalizedTime }.map {
                (node) throws(ASN1Error) in try node.time()
            }
            var revoked: [[UInt8]: Date] = [:]
            if let list = fields.next(optional: .sequence) {
                for entry in list.children {
                    var entryFields = try entry.sequenceFields("revoked certificate")
                    let serial = try entryFields.next("userCertificate").integerBytes()
                    revoked[Array(serial.drop { $0 == 0 })] = try entryFields.next("revocationDate").time()
                }
            }
            return (issuer, thisUpdate, nextUpdate, revoked)
        }
        issuer = try DistinguishedName(tbs.0)
        (thisUpdate, nextUpdate, revoked) = (tbs.1, tbs.2, tbs.3)
    }

    /// When `certificate` was revoked by this list, or nil when it is not on it (the caller has
    /// checked that this list is its issuer's).
    public func revocationDate(of certificate: Certificate) -> Date? {
        revoked[Array(certificate.serialNumber.drop { $0 == 0 })]
    }

    /// Whether `issuer` signed this list: its name is the list's issuer and its key verifies the
    /// signature. A list that fails this is ignored, never trusted.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard issuer.subject == self.issuer, let signatureAlgorithm else { return false }
        return (try? issuer.publicKey.isValidSignature(signature, over: tbsCertList, algorithm: signatureAlgorithm))
            == true
    }
}

extension CertificateRevocationList {
    static let pemBegin = "-----BEGIN X509 CRL-----"
    static let pemEnd = "-----END X509 CRL-----"

    /// The lists a file holds: every `X509 CRL` block of PEM text, or the one DER CRL it is;
    /// empty when it holds none (certificates, a master list, anything else).
    public static func all(in bytes: [UInt8]) throws(CMSError) -> [CertificateRevocationList] {
        if let text = PEM.text(bytes) {
            return try PEM.blocks(in: text, begin: pemBegin, end: pemEnd).map {
                (der) throws(CMSError) in try CertificateRevocationList(derEncoded: der)
            }
        }
        guard let node = try? ASN1Node.parse(bytes), isRevocationList(node) else { return [] }
        return [try CertificateRevocationList(node: node)]
    }

    /// A CertificateList's TBSCertList has a Time among its own fields (thisUpdate); a
    /// certificate's TBSCertificate has its times inside Validity.
    static func isRevocationList(_ node: ASN1Node) -> Bool {
        guard node.tag == .sequence, let tbs = node.children.first, tbs.tag == .sequence else { return false }
        return tbs.children.contains { $0.tag == .utcTime || $0.tag == .generalizedTime }
    }

    /// This list as a PEM block, the form a bundle keeps it in beside the certificates.
    public var pem: String { PEM.encode(der, begin: Self.pemBegin, end: Self.pemEnd) }
}
