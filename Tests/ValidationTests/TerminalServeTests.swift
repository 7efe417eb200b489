import Foundation
import JSON
import TestSupport
import Testing

/// `emrtd serve` as the inspection system of its sessions: with the terminal group
/// (`--terminal-certificates`, `--terminal-key`, read by the same `TerminalOptions` as `read`) a
/// relayed chip that trusts the test PKI (`emrtd cvc make-pki`) gives up DG3 to `--files all`;
/// without it Terminal Authentication is `notConfigured` and DG3 stays denied.
@Suite struct TerminalServeTests {
    @Test func theServerAuthenticatesAsTheInspectionSystem() throws {
        guard let fixture = try ServeFixture.make() else { return }
        defer { fixture.stop() }
        let emrtd = fixture.emrtd
        let pki = fixture.directory.appendingPathComponent("pki").path
        let made = try Subprocess.run(
            emrtd, ["cvc", "make-pki", pki, "--from", "2026-01-01", "--until", "2027-12-31"])
        try #require(made.status == 0, "\(made.combinedOutput)")
        // The chip trusts the PKI's CVCA on a fixed date: the rich specimen (with DG3) and its CSCA.
        let chipOptions = ["--terminal-trust-point", pki + "/cvca.cvcert", "--chip-date", "2026-06-01"]
        let chip = fixture.directory.appendingPathComponent("eac-chip").path
        let written = try Subprocess.run(emrtd, ["relay", "--simulator", "--specimen-out", chip] + chipOptions)
        try #require(written.status == 0, "\(written.combinedOutput)")

        func validate(_ server: ServeProcess, _ validationId: String) throws -> JSONValue {
            let relayed = try Subprocess.run(
                emrtd,
                [
                    "relay", "--simulator", chip, "--server", "ws://127.0.0.1:\(server.port ?? 0)/ws/validate",
                    "--client-id", "acme", "--validation-id", validationId, "--can", "123456", "--files", "all",
                    "--json", "--server-timeout", "30",
                ] + chipOptions)
            #expect(relayed.status == 0, "\(relayed.combinedOutput)")
            return try JSONValue.parse(relayed.output)["result"] ?? .null
        }

        let terminal = ["--terminal-certificates", pki, "--terminal-key", pki + "/is.pkcs8"]
        guard let inspecting = try fixture.serve(listen: "127.0.0.1:0", ["--csca", chip + "/csca.pem"] + terminal)
        else { return }
        let result = try validate(inspecting, "v-terminal")
        inspecting.stop()
        let status = result["authenticationStatus"]?["terminal"]
        #expect(status?["status"] == "succeeded", "\(String(describing: status))")
        #expect(status?["certificates"] == .array(["UTDV00001", "UTIS00001"]))
        #expect(result["authenticationStatus"]?["data"]?["status"] == "authenticated")
        #expect(result["deniedFiles"] == .array([]))
        #expect(
            result["encodedIdentificationFeaturesFinger"] != .null
                && result["encodedIdentificationFeaturesFinger"] != nil)

        guard let plain = try fixture.serve(listen: "127.0.0.1:0", ["--csca", chip + "/csca.pem"]) else { return }
        let without = try validate(plain, "v-no-terminal")
        plain.stop()
        #expect(without["authenticationStatus"]?["terminal"]?["status"] == "notConfigured")
        #expect(without["deniedFiles"] == .array(["dg3"]))

        // The group's usage errors are `read`'s, from the same reader of the options.
        let usage = try Subprocess.run(
            emrtd, fixture.serveArguments(listen: "127.0.0.1:0", ["--terminal-key", pki + "/is.pkcs8"]))
        #expect(usage.status == 2, "\(usage.combinedOutput)")
        #expect(usage.errorOutput.hasPrefix("emrtd serve: --terminal-key and --terminal-signer go with"))
    }
}
