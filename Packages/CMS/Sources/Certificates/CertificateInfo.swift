import ASN1
import Foundation

/// A certificate described for people and JSON, field for field the reference `CertificateInfo`.
public struct CertificateInfo: Sendable, Hashable {
    /// RFC 4514 strings.
    public let subject: String
    public let issuer: String
    /// The subject's country, upper-cased.
    public let country: String?
    public let organization: String?
    public let commonName: String?
    /// Upper-case hexadecimal.
    public let serialNumber: String
    /// ISO 8601 UTC, e.g. "2024-01-01T00:00:00Z".
    public let notBefore: String
    public let notAfter: String
    /// "SHA256withECDSA" …, or the OID when unknown.
    public let signatureAlgorithm: String
    /// "RSA", "EC" …
    public let publicKeyAlgorithm: String
    /// RSA modulus or EC field size in bits; 0 when the key is not understood.
    public let publicKeySize: UInt32
    /// Upper-case hexadecimal, as the reference model writes identifiers.
    public let subjectKeyIdentifier: String?
    public let authorityKeyIdentifier: String?
    /// The SHA-256 of the DER encoding, upper-case hexadecimal.
    public let sha256Fingerprint: String
    public let der: Data

    public init(_ certificate: Certificate) {
        subject = certificate.subject.rfc4514
        issuer = certificate.issuer.rfc4514
        country = certificate.subject.country
        organization = certificate.subject.organization
        commonName = certificate.subject.commonName
        serialNumber = certificate.serialNumberHex
        notBefore = iso8601(certificate.notBefore)
        notAfter = iso8601(certificate.notAfter)
        signatureAlgorithm =
            certificate.signatureAlgorithm?.description ?? certificate.signatureAlgorithmIdentifier.name
            ?? certificate.signatureAlgorithmIdentifier.dotted
        publicKeyAlgorithm = certificate.publicKey.algorithmName
        publicKeySize = UInt32(clamping: certificate.publicKey.sizeInBits ?? 0)
        subjectKeyIdentifier = certificate.extensions.subjectKeyIdentifier.map { Hex.encode($0) }
        authorityKeyIdentifier = certificate.extensions.authorityKeyIdentifier.map { Hex.encode($0) }
        sha256Fingerprint = Hex.encode(certificate.sha256Fingerprint)
        der = Data(certificate.der)
    }
}

/// The `CertificateInfo` of every certificate in a PEM bundle, DER certificate, master list
/// (its CSCA certificates, unverified) or EF.SOD (its DSCs); empty when none parses, as the
/// reference's (`CertificateFile(bytes:)` says why).
public func certificateInfos(pemOrDer bytes: Data) -> [CertificateInfo] {
    ((try? CertificateFile(bytes: [UInt8](bytes)))?.certificates ?? []).map(CertificateInfo.init)
}

/// "YYYY-MM-DDTHH:MM:SSZ".
func iso8601(_ date: Date) -> String { UTCDateTime(date).iso8601 }
