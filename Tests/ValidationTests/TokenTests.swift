import Connector
import Foundation
import JSON
import Secrets
import TestSupport
import Testing

@testable import Validation

/// Tenant authentication: the tenants file's secrets, the token format, and `emrtd serve`
/// refusing every bad token with 4001 before the chip sees an APDU.
@Suite struct TokenTests {
    /// 32 bytes 0x01…0x20, and 32 bytes 0xA0…0xBF, in base64.
    static let secret = Data((1...32).map { UInt8($0) }).base64EncodedString()
    static let otherSecret = Data((0xA0...0xBF).map { UInt8($0) }).base64EncodedString()

    static func tenants(resultPort: Int = 9) -> String {
        """
        {"tenants": {
          "sealed": {"resultURL": "http://127.0.0.1:\(resultPort)/results", "secret": "\(secret)"},
          "other": {"resultURL": "http://127.0.0.1:\(resultPort)/results", "secret": "\(otherSecret)"},
          "demo": {"resultURL": "http://127.0.0.1:\(resultPort)/results", "open": true}
        }}
        """
    }

    static func tenant(_ name: String) throws -> Tenants.Tenant {
        try #require(try Tenants(json: tenants()).byClientId[name])
    }

    @Test func tenantsFileSecrets() throws {
        let parsed = try Tenants(json: Self.tenants())
        #expect(parsed.openClientIds == ["demo"])
        #expect(parsed.byClientId["sealed"]?.secret?.count == 32)
        let url = #""resultURL": "http://127.0.0.1:9/r""#
        let refused = [
            #"{"tenants": {"a": {\#(url)}}}"#,  // neither secret nor open
            #"{"tenants": {"a": {\#(url), "secret": "\#(Self.secret)", "open": true}}}"#,
            #"{"tenants": {"a": {\#(url), "secret": "c2hvcnQ="}}}"#,  // 5 bytes
            #"{"tenants": {"a": {\#(url), "secret": "not base64!"}}}"#,
            #"{"tenants": {"a": {\#(url), "secret": 42}}}"#,
            #"{"tenants": {"a": {\#(url), "open": "yes"}}}"#,
            #"{"tenants": {"": {\#(url), "open": true}}}"#,
        ]
        for text in refused {
            #expect(throws: ValidationError.self, "\(text)") { try Tenants(json: text) }
        }
        // A secret never shows in a description.
        #expect(!"\(try Self.tenant("sealed"))".contains(Self.secret))
    }

    /// The format, byte for byte, against Python's hmac (the README's example): the MAC input is
    /// "emrtd-token-v1" 0 clientId 0 validationId 0 expiry.
    @Test func formatMatchesTheDocumentedConstruction() throws {
        let secret = try #require(try Self.tenant("sealed").secret)
        let token = try SessionToken.mint(
            secret: secret, clientId: "sealed", validationId: "v-1", expiry: 1_900_000_000)
        // python3 -c 'import hmac,hashlib,base64; k=bytes(range(1,33));
        //   m=b"\0".join([b"emrtd-token-v1",b"sealed",b"v-1",b"1900000000"]);
        //   print(base64.urlsafe_b64encode(hmac.new(k,m,hashlib.sha256).digest()).rstrip(b"=").decode())'
        #expect(token == "v1.1900000000.zXLNSrvETpl5SCAicBmUCbuBKXKvyDfoePTtoQ-rsrQ")
    }

    @Test func verification() throws {
        let secret = try #require(try Self.tenant("sealed").secret)
        let now = 1_800_000_000
        let good = try SessionToken.mint(secret: secret, clientId: "sealed", validationId: "v", expiry: now + 60)
        func check(_ token: String, client: String = "sealed", id: String = "v") -> SessionToken.Rejection? {
            do throws(SessionToken.Rejection) {
                _ = try SessionToken.verify(token, secret: secret, clientId: client, validationId: id, now: now)
                return nil
            } catch {
                return error
            }
        }
        #expect(check(good) == nil)
        #expect(check(good, client: "other") == .wrong)
        #expect(check(good, id: "w") == .wrong)
        let parts = good.split(separator: ".").map(String.init)
        let malformed = [
            "", "v1", "v1..", "v2.\(parts[1]).\(parts[2])", "v1.0\(parts[1]).\(parts[2])",
            "v1.+\(parts[1]).\(parts[2])",
            "v1.\(parts[1]).\(parts[2])=", "v1.\(parts[1]).\(parts[2]).x", "v1.1234567890123.\(parts[2])",
            "v1.\(parts[1]).\(parts[2].dropLast())",
        ]
        for token in malformed { #expect(check(token) == .malformed, "\(token)") }
        // The MAC's last character carries 2 unused bits: another spelling of the same bytes is refused.
        let last = parts[2].last == "A" ? "B" : "A"
        #expect(check("v1.\(parts[1]).\(parts[2].dropLast())\(last)") == .wrong)
        #expect(
            check(try SessionToken.mint(secret: secret, clientId: "sealed", validationId: "v", expiry: now)) == .expired
        )
        let far = now + SessionToken.maximumLifetime + 1
        #expect(
            check(try SessionToken.mint(secret: secret, clientId: "sealed", validationId: "v", expiry: far))
                == .tooFarAhead)

        // The ledger admits a token once while it lives, and forgets it only once expired.
        let ledger = TokenLedger(capacity: 2)
        #expect(throws: Never.self) { try ledger.spend(good, clientId: "sealed", expiry: now + 60, now: now) }
        #expect(throws: SessionToken.Rejection.replayed) {
            try ledger.spend(good, clientId: "sealed", expiry: now + 60, now: now + 30)
        }
        #expect(throws: Never.self) { try ledger.spend("b", clientId: "sealed", expiry: now + 10, now: now) }
        #expect(throws: SessionToken.Rejection.ledgerFull) {
            try ledger.spend("c", clientId: "sealed", expiry: now + 60, now: now)
        }
        #expect(throws: Never.self) { try ledger.spend("c", clientId: "sealed", expiry: now + 90, now: now + 20) }
    }

    /// Every bad token closes 4001 with no APDU relayed; a good one (from `emrtd token`) runs,
    /// once; an open tenant runs without one.
    @Test func serverRefusesEveryBadTokenBeforeAnyAPDU() throws {
        guard let harness = try ServiceHarness.make() else { return }
        defer { harness.stop() }
        guard let (_, resultPort) = try harness.resultServer(log: "posts.jsonl", name: "results"),
            let (server, port) = try harness.server(
                tenants: Self.tenants(resultPort: resultPort), outbox: "outbox", name: "serve")
        else { return }
        let secret = try #require(try Self.tenant("sealed").secret)
        let other = try #require(try Self.tenant("other").secret)
        let now = Int(Date().timeIntervalSince1970)
        func mint(_ key: SecretBytes, client: String = "sealed", id: String, expiry: Int? = nil) throws -> String {
            try SessionToken.mint(secret: key, clientId: client, validationId: id, expiry: expiry ?? now + 300)
        }
        let bad: [(String, String?)] = [
            ("t-missing", nil),
            ("t-malformed", "v1.123.abc"),
            ("t-expired", try mint(secret, id: "t-expired", expiry: now - 5)),
            ("t-far", try mint(secret, id: "t-far", expiry: now + 3600)),
            ("t-wrong-mac", try mint(other, id: "t-wrong-mac")),
            ("t-wrong-client", try mint(secret, client: "other", id: "t-wrong-client")),
            ("t-other-id", try mint(secret, id: "t-some-other-id")),
        ]
        for (id, token) in bad {
            let (outcome, run) = try harness.relay(port: port, client: "sealed", validationId: id, token: token)
            #expect(outcome?["code"] == .integer(Int(CloseCode.unknownTenant.rawValue)), "\(id): \(run.combinedOutput)")
            #expect(outcome?["apdus"] == .integer(0), "\(id)")
        }

        let cli = try Subprocess.run(
            harness.emrtd,
            [
                "token", "--tenants", harness.path("serve-tenants.json"), "--client-id", "sealed", "--validation-id",
                "t-good", "--ttl", "120",
            ])
        #expect(cli.status == 0, "\(cli.combinedOutput)")
        let token = cli.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let (good, goodRun) = try harness.relay(port: port, client: "sealed", validationId: "t-good", token: token)
        #expect(good?["code"] == .integer(1000), "\(goodRun.combinedOutput)")
        let (replayed, _) = try harness.relay(port: port, client: "sealed", validationId: "t-good", token: token)
        #expect(replayed?["code"] == .integer(Int(CloseCode.unknownTenant.rawValue)))
        #expect(replayed?["apdus"] == .integer(0))

        let (open, openRun) = try harness.relay(port: port, client: "demo", validationId: "t-open", token: nil)
        #expect(open?["code"] == .integer(1000), "\(openRun.combinedOutput)")

        let delivered = harness.posts("posts.jsonl").compactMap { entry -> String? in
            guard case .string(let id)? = entry["idempotencyKey"] else { return nil }
            return id
        }
        #expect(delivered.sorted() == ["t-good", "t-open"])
        let log = harness.log(of: server)
        #expect(log.contains("\"event\":\"openTenant\"") && log.contains("\"clientId\":\"demo\""))
        #expect(!log.contains(token) && !log.contains(Self.secret), "the server logged a token or a secret")

        // emrtd token refuses an open tenant and an unknown one (1), a wrong command line (2).
        let tokenRuns: [([String], Int32)] = [
            (["--client-id", "demo", "--validation-id", "x"], 1),
            (["--client-id", "nobody", "--validation-id", "x"], 1),
            (["--client-id", "sealed", "--validation-id", "x", "--ttl", "601"], 2),
            (["--client-id", "sealed", "--validation-id", "a b"], 2), (["--client-id", "sealed"], 2),
        ]
        for (arguments, status) in tokenRuns {
            let run = try Subprocess.run(
                harness.emrtd, ["token", "--tenants", harness.path("serve-tenants.json")] + arguments)
            #expect(run.status == status, "\(arguments): \(run.combinedOutput)")
        }
    }
}
