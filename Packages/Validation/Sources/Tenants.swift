import Foundation
import JSON
import Secrets

/// The tenants a server serves: each `clientId` with the URL its results are POSTed to, whether
/// its clients get the result back, and the secret its session tokens are keyed with. Read once
/// at start from a JSON file:
///
/// ```json
/// {"tenants": {"acme": {"resultURL": "https://kyc.acme.example/results", "receiveResult": false,
///                       "secret": "q83vEjRWeJq7zN7/ASNFZ4mrze8BI0VniavN7wEjRWc="}}}
/// ```
public struct Tenants: Sendable {
    public struct Tenant: Sendable, Equatable {
        public var resultURL: URL
        public var receiveResult: Bool
        /// The key of the tenant's session tokens (`SessionToken`); nil for an open tenant
        /// (`"open": true`), whose sessions need no token: demos only.
        public var secret: SecretBytes?

        public init(resultURL: URL, receiveResult: Bool = false, secret: SecretBytes?) {
            self.resultURL = resultURL
            self.receiveResult = receiveResult
            self.secret = secret
        }
    }

    /// A secret's decoded length: at least the HMAC's output (RFC 2104 §3), at most its block.
    public static let secretLengths = 32...64

    public var byClientId: [String: Tenant]

    public init(_ byClientId: [String: Tenant]) { self.byClientId = byClientId }

    /// The tenants that need no token, sorted (the server names them loudly at start).
    public var openClientIds: [String] { byClientId.filter { $0.value.secret == nil }.map(\.key).sorted() }

    /// Parses the tenants file's text. Result URLs must be http or https; each tenant has either
    /// `"secret"` (standard base64 with padding, as `openssl rand -base64 32` prints, decoding to
    /// 32–64 bytes) or `"open": true`; a clientId is what a hello can carry (1–128 characters, no
    /// control character). At least one tenant; no key given twice, no key but the known ones.
    public init(json text: String) throws(ValidationError) {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(text)
        } catch {
            throw ValidationError(.invalidArgument, "the tenants file is not JSON: \(error.reason) at \(error.offset)")
        }
        guard case .object(let top) = value, top.map(\.key) == ["tenants"], case .object(let members) = top[0].value
        else {
            throw ValidationError(.invalidArgument, "the tenants file must be {\"tenants\": {CLIENTID: {…}, …}}")
        }
        guard !members.isEmpty else { throw ValidationError(.invalidArgument, "the tenants file names no tenant") }
        try Self.refuseDuplicates(members.map(\.key), in: "the tenants")
        var tenants: [String: Tenant] = [:]
        for member in members {
            let name = member.key
            guard !name.isEmpty, name.count <= 128,
                name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
            else {
                throw ValidationError(
                    .invalidArgument, "a clientId must be 1 to 128 characters without control characters")
            }
            guard case .object(let fields) = member.value else {
                throw ValidationError(.invalidArgument, "tenant \(name) must be an object {\"resultURL\": …}")
            }
            try Self.refuseDuplicates(fields.map(\.key), in: "tenant \(name)")
            if let unknown = fields.first(where: { !Self.fieldNames.contains($0.key) }) {
                throw ValidationError(
                    .invalidArgument,
                    "tenant \(name): unknown key \"\(unknown.key)\" (known: \(Self.fieldNames.joined(separator: ", ")))"
                )
            }
            guard case .string(let address)? = member.value["resultURL"], let url = URL(string: address),
                url.scheme == "http" || url.scheme == "https", url.host != nil
            else {
                throw ValidationError(.invalidArgument, "tenant \(name): resultURL must be an http(s) URL")
            }
            let receiveResult = try Self.flag(member.value["receiveResult"], "receiveResult", tenant: name)
            let open = try Self.flag(member.value["open"], "open", tenant: name)
            let secret: SecretBytes?
            switch (member.value["secret"], open) {
            case (.string(let encoded)?, false): secret = try Self.secret(encoded, tenant: name)
            case (nil, true), (.null?, true): secret = nil
            case (nil, false), (.null?, false):
                throw ValidationError(
                    .invalidArgument, "tenant \(name): give a secret (base64, 32 to 64 bytes) or \"open\": true")
            case (_, true):
                throw ValidationError(.invalidArgument, "tenant \(name): an open tenant has no secret")
            default:
                throw ValidationError(.invalidArgument, "tenant \(name): secret must be a base64 string")
            }
            tenants[name] = Tenant(resultURL: url, receiveResult: receiveResult, secret: secret)
        }
        byClientId = tenants
    }

    /// The keys a tenant's object may have: a misspelled one is refused, not ignored.
    static let fieldNames = ["resultURL", "receiveResult", "secret", "open"]

    /// A key given twice is refused: last-wins let a second "acme" silently open a secret tenant.
    private static func refuseDuplicates(_ keys: [String], in place: String) throws(ValidationError) {
        var seen = Set<String>()
        for key in keys where !seen.insert(key).inserted {
            throw ValidationError(.invalidArgument, "\(place): \"\(key)\" is given twice")
        }
    }

    private static func flag(_ value: JSONValue?, _ name: String, tenant: String) throws(ValidationError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        default: throw ValidationError(.invalidArgument, "tenant \(tenant): \(name) must be true or false")
        }
    }

    /// The decoded secret; the decoder's copies are zeroed (the file's text is the caller's).
    private static func secret(_ encoded: String, tenant: String) throws(ValidationError) -> SecretBytes {
        guard var data = Data(base64Encoded: encoded) else {
            throw ValidationError(.invalidArgument, "tenant \(tenant): secret is not base64 (standard, padded)")
        }
        defer { data.resetBytes(in: 0..<data.count) }
        guard secretLengths.contains(data.count) else {
            throw ValidationError(
                .invalidArgument,
                "tenant \(tenant): secret decodes to \(data.count) bytes, not \(secretLengths.lowerBound) to \(secretLengths.upperBound)"
            )
        }
        var bytes = [UInt8](data)
        return SecretBytes(consuming: &bytes)
    }
}
