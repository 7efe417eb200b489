import ASN1
import Foundation

/// The certificate extensions Passive Authentication acts on; others are kept by ASN1ObjectIdentifier.
///
/// ```
/// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension
/// Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }
/// SubjectKeyIdentifier ::= KeyIdentifier          -- KeyIdentifier ::= OCTET STRING
/// AuthorityKeyIdentifier ::= SEQUENCE {
///     keyIdentifier [0] KeyIdentifier OPTIONAL, authorityCertIssuer [1] GeneralNames OPTIONAL,
///     authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL }
/// BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }
/// PrivateKeyUsagePeriod ::= SEQUENCE { notBefore [0] GeneralizedTime OPTIONAL, notAfter [1] GeneralizedTime OPTIONAL }
/// ```
public struct CertificateExtensions: Sendable, Hashable {
    public var keyUsage: KeyUsage?
    public var isCertificateAuthority: Bool?
    public var pathLengthConstraint: Int?
    public var subjectKeyIdentifier: [UInt8]?
    public var authorityKeyIdentifier: [UInt8]?
    public var privateKeyUsageNotBefore: Date?
    public var privateKeyUsageNotAfter: Date?
    /// Every extension's OID and criticality, in order.
    public var all: [(oid: ASN1ObjectIdentifier, critical: Bool)] { entries.map { ($0.oid, $0.critical) } }

    private var entries: [Entry] = []
    private struct Entry: Sendable, Hashable {
        let oid: ASN1ObjectIdentifier
        let critical: Bool
    }

    init() {}

    /// From the `[3] EXPLICIT Extensions` node of a TBSCertificate.
    init(_ wrapper: ASN1Node) throws(CMSError) {
        let list = try reading("Extensions") { () throws(ASN1Error) in
            try wrapper.wrapped("Extensions").expect(.sequence, "Extensions").children
        }
        for extensionNode in list {
            let (oid, critical, value) = try reading("Extension") { () throws(ASN1Error) in
                // Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE,
                //     extnValue OCTET STRING }
                var fields = try extensionNode.sequenceFields("Extension")
                let oid = try fields.next("extnID").objectIdentifier()
                let critical = try fields.next(optional: .boolean)?.booleanValue() ?? false
                let value = try fields.next(.octetString, "extnValue").octetString()
                return (oid, critical, value)
            }
            entries.append(Entry(oid: oid, critical: critical))
            // A known extension that does not decode is left absent rather than rejecting the
            // certificate (master lists carry a few such CSCAs); the policies then treat it as missing.
            try? decode(oid, value)
        }
    }

    private mutating func decode(_ oid: ASN1ObjectIdentifier, _ value: ArraySlice<UInt8>) throws(CMSError) {
        let what = oid.name ?? oid.dotted
        try reading(what) { () throws(ASN1Error) in
            switch oid {
            case ASN1ObjectIdentifier.subjectKeyIdentifier:
                subjectKeyIdentifier = Array(try ASN1Node.parse(value).octetString())
            case ASN1ObjectIdentifier.authorityKeyIdentifier:
                let node = try ASN1Node.parse(value).expect(.sequence, "AuthorityKeyIdentifier")
                authorityKeyIdentifier = node.child(.contextSpecific(0, constructed: false)).map { Array($0.content) }
            case ASN1ObjectIdentifier.keyUsage:
                let (bytes, _) = try ASN1Node.parse(value).bitString()
                var raw: UInt16 = 0
                for (index, byte) in bytes.prefix(2).enumerated() {
                    for bit in 0..<8 where byte & (0x80 >> bit) != 0 { raw |= 1 << (index * 8 + bit) }
                }
                keyUsage = KeyUsage(rawValue: raw)
            case ASN1ObjectIdentifier.basicConstraints:
                let node = try ASN1Node.parse(value).expect(.sequence, "BasicConstraints")
                isCertificateAuthority = try node.child(.boolean)?.booleanValue() ?? false
                pathLengthConstraint = try node.child(.integer)?.intValue()
            case ASN1ObjectIdentifier.privateKeyUsagePeriod:
                let node = try ASN1Node.parse(value).expect(.sequence, "PrivateKeyUsagePeriod")
                func time(_ number: UInt32) throws(ASN1Error) -> Date? {
                    guard let field = node.child(.contextSpecific(number, constructed: false)) else { return nil }
                    return try ASN1Node.parse(DER.tlv(.generalizedTime, field.content)).time()
                }
                privateKeyUsageNotBefore = try time(0)
                privateKeyUsageNotAfter = try time(1)
            default:
                break
            }
        }
    }

}

/// ```
/// KeyUsage ::= BIT STRING { digitalSignature (0), nonRepudiation (1), keyEncipherment (2),
///     dataEncipherment (3), keyAgreement (4), keyCertSign (5), cRLSign (6), encipherOnly (7), decipherOnly (8) }
/// ```
/// Bit n of the BIT STRING is `1 << n` here.
public struct KeyUsage: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
}
