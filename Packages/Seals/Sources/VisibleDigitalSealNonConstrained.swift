import CMS
import CryptoPrimitives
import Foundation
import JSON

/// A VDS for non-constrained environments (ICAO TR "VDS-NC", 2021): a JSON object whose `data`
/// (`hdr` and `msg`) is signed in its RFC 8785 canonical form, and whose `sig` carries the
/// algorithm, the signer certificate and the signature value.
public struct VisibleDigitalSealNonConstrained: Sendable, Equatable {
    /// A QR code holds at most 2,953 bytes; room for a seal printed across two.
    public static let maximumLength = 8192

    /// `data` as written (key order kept).
    public let data: JSONValue
    /// `hdr.t`: the type (`icao.vacc`, `icao.test`, …).
    public let type: String
    /// `hdr.v`: the version.
    public let version: Int
    /// `hdr.is`: the issuing state, three letters.
    public let issuingCountry: String
    /// `sig.alg`: `ES256`, `ES384` or `ES512`.
    public let algorithm: String
    /// The hash `algorithm` names.
    public let hashAlgorithm: HashAlgorithm
    /// `sig.cer`: the signer certificate (base64url DER).
    public let signerCertificate: Certificate
    /// `sig.sigvl`: r‖s.
    public let signature: [UInt8]

    /// The bytes the signature covers: `data` in RFC 8785 canonical form, UTF-8.
    public var signedBytes: [UInt8] { Array(CanonicalJSON.text(data).utf8) }

    /// Parses the JSON text of a VDS-NC as a QR code reader gives it.
    public init(bytes: [UInt8]) throws(SealError) {
        guard bytes.count <= Self.maximumLength else {
            throw SealError(.tooLarge, "a VDS-NC of \(bytes.count) bytes (at most \(Self.maximumLength))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SealError(.malformed, "a VDS-NC is UTF-8 JSON")
        }
        let root: JSONValue
        do {
            root = try JSONValue.parse(text)
        } catch {
            throw SealError(.malformed, "VDS-NC: \(error.description)")
        }
        guard let data = root["data"], case .object = data, let header = data["hdr"], data["msg"] != nil,
            let sig = root["sig"]
        else { throw SealError(.malformed, "a VDS-NC is an object of data (hdr, msg) and sig") }
        self.data = data
        type = try Self.string(header["t"], "hdr.t")
        guard case .integer(let version)? = header["v"] else { throw SealError(.malformed, "hdr.v is not an integer") }
        self.version = version
        issuingCountry = try Self.string(header["is"], "hdr.is")
        algorithm = try Self.string(sig["alg"], "sig.alg")
        switch algorithm {
        case "ES256": hashAlgorithm = .sha256
        case "ES384": hashAlgorithm = .sha384
        case "ES512": hashAlgorithm = .sha512
        default: throw SealError(.unsupported, "signature algorithm \(algorithm)")
        }
        let certificate = try Self.base64URL(sig["cer"], "sig.cer")
        do {
            signerCertificate = try Certificate(derEncoded: certificate)
        } catch {
            throw SealError(.malformed, "sig.cer: \(error.reason)")
        }
        signature = try Self.base64URL(sig["sigvl"], "sig.sigvl")
    }

    /// The value at a dotted path of `data.msg` (`pid.n`, `uvci`) when it is a string.
    public func message(_ path: String) -> String? {
        var value = data["msg"]
        for key in path.split(separator: ".") { value = value?[String(key)] }
        guard case .string(let text)? = value else { return nil }
        return text
    }

    private static func string(_ value: JSONValue?, _ what: String) throws(SealError) -> String {
        guard case .string(let text)? = value else { throw SealError(.malformed, "\(what) is not a string") }
        return text
    }

    /// Base64url, padded or not (the Australian seals pad, 9303's example does not).
    private static func base64URL(_ value: JSONValue?, _ what: String) throws(SealError) -> [UInt8] {
        var text = String(try string(value, what).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.hasSuffix("=") { text.removeLast() }
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let bytes = Data(base64Encoded: text) else { throw SealError(.malformed, "\(what) is not base64url") }
        return Array(bytes)
    }
}

/// RFC 8785 (JSON Canonicalization Scheme) for the values `JSONValue` holds: members sorted by
/// their keys' UTF-16 code units, no whitespace, strings escaped and numbers written as
/// ECMAScript's JSON.stringify does. Every number is a double there, so an integer is written as
/// the double nearest it (beyond 2^53 that may differ from its digits).
enum CanonicalJSON {
    static func text(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += JSONValue.ecmaScriptText(Double(number))
        case .number(let number): output += JSONValue.ecmaScriptText(number)
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            let sorted = members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { output += "," }
                writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{8}": output += "\\b"
            case "\t": output += "\\t"
            case "\n": output += "\\n"
            case "\u{C}": output += "\\f"
            case "\r": output += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
