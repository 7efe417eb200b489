import ASN1

/// An X.501 name (a certificate's subject or issuer, a SignerInfo's issuer).
///
/// ```
/// Name ::= CHOICE { rdnSequence RDNSequence }
/// RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
/// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
/// AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
/// ```
///
/// Two names are equal when they match after normalisation: string type, letter case,
/// runs of spaces and the order of the RDNs do not count. Issuers write the same name in
/// different ways (PrintableString vs UTF8String, another RDN order in a SignerInfo), and
/// a lookup must still find the certificate.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    public struct Attribute: Sendable, Hashable {
        public let type: ASN1ObjectIdentifier
        /// The value as text when it is a string type.
        public let value: String?
        /// The value's TLV as encoded.
        public let encodedValue: [UInt8]
    }

    /// The RDNs in encoded order (most significant first), each a set of attributes.
    public let relativeNames: [[Attribute]]
    /// The Name's TLV as encoded.
    public let encoded: [UInt8]
    /// The normalised form that equality and trust-store lookups use.
    let matchKey: String

    init(_ node: ASN1Node) throws(CMSError) {
        relativeNames = try reading("Name") { () throws(ASN1Error) in
            try node.expect(.sequence, "Name").children.map { (rdn: ASN1Node) throws(ASN1Error) in
                try rdn.expect(.set, "RelativeDistinguishedName").children.map { (pair: ASN1Node) throws(ASN1Error) in
                    // AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY }
                    var fields = try pair.sequenceFields("AttributeTypeAndValue")
                    let type = try fields.next("type").objectIdentifier()
                    let valueNode = try fields.next("value")
                    return Attribute(
                        type: type,
                        value: try? valueNode.string(),
                        encodedValue: Array(valueNode.encodedBytes))
                }
            }
        }
        encoded = Array(node.encodedBytes)
        matchKey = relativeNames.joined().map(Self.normalised).sorted().joined(separator: "\u{1}")
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.matchKey == rhs.matchKey }
    public func hash(into hasher: inout Hasher) { hasher.combine(matchKey) }

    /// The first value of an attribute type, e.g. `DistinguishedName.country`.
    public func value(of type: ASN1ObjectIdentifier) -> String? {
        relativeNames.joined().first { $0.type == type }?.value
    }

    public var country: String? { value(of: .countryName)?.uppercased() }
    public var organization: String? { value(of: .organizationName) }
    public var commonName: String? { value(of: .commonName) }

    /// RFC 4514 short names, then the attribute names of X.520 and PKCS #9 that CSCA and DSC
    /// names carry (`serialNumber`, `emailAddress`…, as OpenSSL writes them); any other type is
    /// written as its OID with a `#`-hex value.
    private static let shortNames: [ASN1ObjectIdentifier: String] = [
        .commonName: "CN", "2.5.4.7": "L", "2.5.4.8": "ST", .organizationName: "O", .organizationalUnitName: "OU",
        .countryName: "C",
        "2.5.4.9": "STREET", "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
        "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.12": "title", "2.5.4.42": "GN", "2.5.4.43": "initials",
        "2.5.4.44": "generationQualifier", "2.5.4.46": "dnQualifier", "2.5.4.65": "pseudonym",
        "2.5.4.97": "organizationIdentifier", "2.5.4.17": "postalCode", "2.5.4.15": "businessCategory",
        .emailAddress: "emailAddress",
    ]

    /// The RFC 4514 string: last RDN first, `+` inside a multi-valued RDN.
    public var rfc4514: String {
        relativeNames.reversed().map { rdn in
            rdn.map { attribute in
                if let short = Self.shortNames[attribute.type], let value = attribute.value {
                    return short + "=" + Self.escaped(value)
                }
                return attribute.type.dotted + "=#" + Hex.encode(attribute.encodedValue, uppercase: false)
            }.joined(separator: "+")
        }.joined(separator: ",")
    }

    public var description: String { rfc4514 }

    /// RFC 4514 §2.4 escaping.
    private static func escaped(_ value: String) -> String {
        var result = ""
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"", "+", ",", ";", "<", ">", "\\":
                result += "\\" + String(scalar)
            case "#" where index == 0, " " where index == 0 || index == scalars.count - 1:
                result += "\\" + String(scalar)
            case "\u{0}":
                result += "\\00"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func normalised(_ attribute: Attribute) -> String {
        guard let value = attribute.value else {
            return attribute.type.dotted + "#" + Hex.encode(attribute.encodedValue)
        }
        var normalised = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in value.lowercased().unicodeScalars {
            if scalar.value <= 0x20 || scalar == "\u{A0}" {
                pendingSpace = !normalised.isEmpty
                continue
            }
            if pendingSpace { normalised.append(" ") }
            pendingSpace = false
            normalised.append(scalar)
        }
        return attribute.type.dotted + "=" + String(normalised)
    }
}
