import Foundation

/// The JSON form of this package's verdicts and certificate descriptions, as a tree that
/// `Emrtd` can fold into its own document or print with `serialized(pretty:)`.
///
/// Shape rules shared with the rest of the reader: lowerCamel keys, bytes as padded
/// standard base64, absent optionals as `null` with the key present, enums by case name.
public indirect enum JSONTree: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case string(String)
    case array([JSONTree])
    /// Members in the order written.
    case object([(key: String, value: JSONTree)])

    static func bytes(_ bytes: [UInt8]?) -> JSONTree {
        bytes.map { .string(Data($0).base64EncodedString()) } ?? .null
    }

    static func string(_ text: String?) -> JSONTree { text.map(JSONTree.string) ?? .null }

    public func serialized(pretty: Bool = true) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: "")
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: String) {
        let inner = indent + "  "
        let newline = pretty ? "\n" : ""
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .string(let value): Self.quote(value, to: &output)
        case .array(let elements) where elements.isEmpty: output += "[]"
        case .object(let members) where members.isEmpty: output += "{}"
        case .array(let elements):
            output += "[" + newline
            for (index, element) in elements.enumerated() {
                output += pretty ? inner : ""
                element.write(to: &output, pretty: pretty, indent: inner)
                output += (index < elements.count - 1 ? "," : "") + newline
            }
            output += (pretty ? indent : "") + "]"
        case .object(let members):
            output += "{" + newline
            for (index, member) in members.enumerated() {
                output += pretty ? inner : ""
                Self.quote(member.key, to: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, indent: inner)
                output += (index < members.count - 1 ? "," : "") + newline
            }
            output += (pretty ? indent : "") + "}"
        }
    }

    private static func quote(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    public static func == (lhs: JSONTree, rhs: JSONTree) -> Bool {
        lhs.serialized(pretty: false) == rhs.serialized(pretty: false)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized(pretty: false)) }
}

extension CertificateInfo {
    public var json: JSONTree {
        .object([
            ("subject", .string(subject)), ("issuer", .string(issuer)), ("country", .string(country)),
            ("organization", .string(organization)), ("commonName", .string(commonName)),
            ("serialNumber", .string(serialNumber)), ("notBefore", .string(notBefore)),
            ("notAfter", .string(notAfter)), ("signatureAlgorithm", .string(signatureAlgorithm)),
            ("publicKeyAlgorithm", .string(publicKeyAlgorithm)),
            ("publicKeySize", publicKeySize.map(JSONTree.integer) ?? .null),
            ("subjectKeyIdentifier", .bytes(subjectKeyIdentifier)),
            ("authorityKeyIdentifier", .bytes(authorityKeyIdentifier)),
            ("fingerprintSha256", .bytes(fingerprintSha256)), ("der", .bytes(der)),
        ])
    }
}

extension DataAuthenticationStatus {
    public var json: JSONTree {
        .object([
            ("status", .string(status.rawValue)), ("sodSignatureValid", .bool(sodSignatureValid)),
            ("certificateChainValid", .bool(certificateChainValid)),
            ("dataGroupHashesValid", .bool(dataGroupHashesValid)),
            ("dataGroupHashes", .array(dataGroupHashes.map(\.json))),
            ("hashAlgorithm", .string(hashAlgorithm)), ("signatureAlgorithm", .string(signatureAlgorithm)),
            ("documentSignerCertificate", documentSignerCertificate?.json ?? .null),
            ("countrySigningCertificate", countrySigningCertificate?.json ?? .null),
            ("issuingCountry", .string(issuingCountry)),
            ("errors", .array(errors.map { .string($0.description) })),
        ])
    }
}

extension DataGroupHashResult {
    public var json: JSONTree {
        .object([
            ("dataGroup", .integer(dataGroup)), ("status", .string(status.rawValue)),
            ("expectedHash", .bytes(expectedHash)), ("computedHash", .bytes(computedHash)),
        ])
    }
}
