import Foundation
import JSON

/// The tenants a server serves: each `clientId` with the URL its results are POSTed to and
/// whether its clients get the result back. Read once at start from a JSON file:
///
/// ```json
/// {"tenants": {"acme": {"resultURL": "https://kyc.acme.example/results", "receiveResult": false}}}
/// ```
public struct Tenants: Sendable {
    public struct Tenant: Sendable, Equatable {
        public var resultURL: URL
        public var receiveResult: Bool

        public init(resultURL: URL, receiveResult: Bool = false) {
            self.resultURL = resultURL
            self.receiveResult = receiveResult
        }
    }

    public var byClientId: [String: Tenant]

    public init(_ byClientId: [String: Tenant]) { self.byClientId = byClientId }

    /// Parses the tenants file's text; result URLs must be http or https.
    public init(json text: String) throws(ValidationError) {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(text)
        } catch {
            throw ValidationError(.invalidArgument, "the tenants file is not JSON: \(error.reason) at \(error.offset)")
        }
        guard case .object(let members)? = value["tenants"] else {
            throw ValidationError(.invalidArgument, "the tenants file must be {\"tenants\": {CLIENTID: {…}, …}}")
        }
        var tenants: [String: Tenant] = [:]
        for member in members {
            guard case .string(let address)? = member.value["resultURL"], let url = URL(string: address),
                url.scheme == "http" || url.scheme == "https", url.host != nil
            else {
                throw ValidationError(.invalidArgument, "tenant \(member.key): resultURL must be an http(s) URL")
            }
            let receiveResult: Bool
            switch member.value["receiveResult"] {
            case nil, .null: receiveResult = false
            case .bool(let flag)?: receiveResult = flag
            default:
                throw ValidationError(.invalidArgument, "tenant \(member.key): receiveResult must be true or false")
            }
            tenants[member.key] = Tenant(resultURL: url, receiveResult: receiveResult)
        }
        byClientId = tenants
    }
}
