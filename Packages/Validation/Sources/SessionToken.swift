import CryptoPrimitives
import Foundation
import Secrets
import Synchronization

/// A tenant's session token: what its back end gives its app for one scan, so that knowing a
/// `clientId` is not enough to run validations that post to the tenant's result server.
///
/// `v1.EXPIRY.MAC`: `EXPIRY` the Unix time in seconds after which the token is refused (decimal,
/// no sign, no leading zero), `MAC` the unpadded base64url (RFC 4648 §5) of
/// HMAC-SHA-256(secret, `emrtd-token-v1` 0x00 clientId 0x00 validationId 0x00 EXPIRY), the strings
/// in UTF-8. Neither identifier can hold 0x00 (a hello refuses control characters), so the input
/// names one triple only. README.md of this package has a minting example.
public enum SessionToken {
    /// The furthest ahead an expiry may be: a token lives at most this long.
    public static let maximumLifetime = 600

    /// A token for `clientId` and `validationId` that expires at `expiry` (Unix seconds).
    public static func mint(secret: SecretBytes, clientId: String, validationId: String, expiry: Int)
        throws(ValidationError) -> String
    {
        guard expiry > 0 else { throw ValidationError(.invalidArgument, "a token's expiry is a positive Unix time") }
        let code = try mac(secret: secret, clientId: clientId, validationId: validationId, expiry: String(expiry))
        return "v1.\(expiry).\(code)"
    }

    /// Why a token is refused (the close reason; never the token or the secret).
    enum Rejection: Error, Equatable {
        case missing, malformed, expired, tooFarAhead, wrong, replayed, ledgerFull

        var reason: String {
            switch self {
            case .missing: "this tenant needs a session token"
            case .malformed: "the session token is malformed"
            case .expired: "the session token has expired"
            case .tooFarAhead: "the session token expires more than \(SessionToken.maximumLifetime) s ahead"
            case .wrong: "the session token is not this tenant's for this clientId and validationId"
            case .replayed: "the session token was used before"
            case .ledgerFull: "too many live session tokens: try again"
            }
        }
    }

    /// The expiry of `token` once its MAC checks for `clientId` and `validationId` (compared in
    /// constant time, as text: only the canonical encoding of the MAC is accepted).
    static func verify(_ token: String, secret: SecretBytes, clientId: String, validationId: String, now: Int)
        throws(Rejection) -> Int
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", parts[2].utf8.count == 43 else { throw .malformed }
        let expiryText = parts[1]
        guard (1...12).contains(expiryText.utf8.count), expiryText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            expiryText.first != "0", let expiry = Int(expiryText)
        else { throw .malformed }
        guard expiry > now else { throw .expired }
        guard expiry <= now + maximumLifetime else { throw .tooFarAhead }
        let expected: String
        do throws(ValidationError) {
            expected = try mac(
                secret: secret, clientId: clientId, validationId: validationId, expiry: String(expiryText))
        } catch {
            throw .wrong
        }
        guard constantTimeEquals(Array(expected.utf8), Array(parts[2].utf8)) else { throw .wrong }
        return expiry
    }

    private static func mac(secret: SecretBytes, clientId: String, validationId: String, expiry: String)
        throws(ValidationError) -> String
    {
        let input =
            Array("emrtd-token-v1".utf8) + [0] + Array(clientId.utf8) + [0] + Array(validationId.utf8) + [0]
            + Array(expiry.utf8)
        do throws(CryptoError) {
            return base64URL(try HMAC(.sha256, key: secret).authenticate(input))
        } catch {
            throw ValidationError(.io, "HMAC-SHA-256 failed: \(error.reason)")
        }
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        String(
            Data(bytes).base64EncodedString().compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }
}

/// The tokens accepted and not yet expired, so that each admits one session: a replay within its
/// lifetime is refused. Bounded: expired entries go when the ledger fills, and a ledger full of
/// live tokens refuses new ones (so it can never forget one that could still be replayed).
final class TokenLedger: Sendable {
    private let capacity: Int
    private let spent = Mutex<[String: Int]>([:])

    init(capacity: Int = 65_536) { self.capacity = capacity }

    /// Records `token` of `clientId`, valid until `expiry`; throws when it was seen before.
    func spend(_ token: String, clientId: String, expiry: Int, now: Int) throws(SessionToken.Rejection) {
        let key = clientId + "\u{0}" + token
        let outcome: SessionToken.Rejection? = spent.withLock { spent in
            if let until = spent[key], until >= now { return .replayed }
            if spent.count >= capacity { spent = spent.filter { $0.value >= now } }
            guard spent.count < capacity else { return .ledgerFull }
            spent[key] = expiry
            return nil
        }
        if let outcome { throw outcome }
    }
}

/// Whether a hello may proceed: its tenant is known, and its token (unless the tenant is open)
/// verifies and was not used before.
struct TenantAuthenticator: Sendable {
    let tenants: Tenants
    let ledger = TokenLedger()

    /// The tenant, or why the session is refused.
    func admit(clientId: String, validationId: String, token: String?, now: Int = Int(Date().timeIntervalSince1970))
        throws(SessionToken.Rejection) -> Tenants.Tenant?
    {
        guard let tenant = tenants.byClientId[clientId] else { return nil }
        guard let secret = tenant.secret else { return tenant }
        guard let token else { throw .missing }
        let expiry = try SessionToken.verify(
            token, secret: secret, clientId: clientId, validationId: validationId, now: now)
        try ledger.spend(token, clientId: clientId, expiry: expiry, now: now)
        return tenant
    }
}
