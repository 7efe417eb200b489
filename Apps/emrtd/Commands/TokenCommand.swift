import Foundation
import Validation

/// `emrtd token`: mints a tenant's session token from the shell, as the tenant's back end does
/// for its app (Packages/Validation/README.md has the format and a Python equivalent).
enum TokenCommand: Command {
    static let name = "token"
    static let summary = "mint a tenant's session token for one validation (emrtd serve, emrtd relay --token)"
    static let usage = """
        usage: emrtd token --tenants FILE --client-id ID --validation-id ID [--ttl SECONDS]

        Prints the session token of tenant ID (its secret from the tenants file of emrtd serve)
        for one validation: v1.EXPIRY.MAC, where MAC is HMAC-SHA-256 over the clientId, the
        validationId and EXPIRY (now + --ttl, default 300, at most \(SessionToken.maximumLifetime) seconds). A server
        admits one session per token, before it expires. An open tenant needs no token.
        Exit status: 0 printed, 1 a tenants file that cannot be read or an open tenant, 2 wrong
        command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        guard let tenantsFile = try arguments.option("--tenants") else {
            throw UsageError("--tenants FILE is required")
        }
        guard let clientId = try arguments.option("--client-id") else { throw UsageError("--client-id is required") }
        guard let validationId = try arguments.option("--validation-id") else {
            throw UsageError("--validation-id is required")
        }
        let ttl = try arguments.integer("--ttl", in: 1...SessionToken.maximumLifetime, unit: "seconds")
        try arguments.noPositionals()
        guard !validationId.isEmpty, validationId.count <= 128,
            validationId.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else {
            throw UsageError("--validation-id takes 1 to 128 visible ASCII characters")
        }
        let tenants = try ServeCommand.readTenants(tenantsFile)
        guard let tenant = tenants.byClientId[clientId] else {
            throw CommandFailure("\(tenantsFile): no tenant \(clientId)")
        }
        guard let secret = tenant.secret else { throw CommandFailure("tenant \(clientId) is open: it needs no token") }
        let expiry = Int(Date().timeIntervalSince1970) + (ttl ?? 300)
        do throws(ValidationError) {
            print(try SessionToken.mint(secret: secret, clientId: clientId, validationId: validationId, expiry: expiry))
        } catch {
            throw CommandFailure(error.reason)
        }
        return 0
    }
}
