import Foundation
import JSON
import TestSupport
import Testing

/// The chip protocols through a real pcscd and vsmartcard's vpcd (the simulator started by
/// `Tools/simulator.sh`, `emrtd read --reader` as a user runs it): PACE-CAM with the specimen's
/// default chip, and BAC followed by Chip Authentication and Active Authentication (a caller's
/// challenge) with a chip that offers no PACE. Both verdicts are `authenticated`.
@Suite(.serialized) struct PCSCChipAuthenticityTests {
    /// `emrtd read --reader … --json` against the simulator started with `simulateOptions`.
    static func read(simulateOptions: [String], readOptions: [String]) throws -> JSONValue? {
        if PCSCReadTests.skipUnlessRigAvailable() { return nil }
        let state = try PCSCReadTests.temporaryDirectory("emrtd-chip-authenticity")
        defer { try? FileManager.default.removeItem(at: state) }
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/simulator.sh").path
        let environment = ["EMRTD_SIMULATOR_STATE": state.path, "EMRTD_BIN": PCSCReadTests.emrtd]
        let csca = state.appendingPathComponent("csca.pem").path
        let started = try Subprocess.run(
            script, ["start", "--csca-out", csca] + simulateOptions, environment: environment)
        defer { _ = try? Subprocess.run(script, ["stop"], environment: environment) }
        try #require(started.status == 0, "simulator.sh start: \(started.combinedOutput)")
        let read = try Subprocess.run(
            PCSCReadTests.emrtd,
            ["read", "--reader", "Virtual PCD 00 00", "--mrz", "L898902C", "690806", "940623", "--csca", csca]
                + ["--no-builtin", "--json"] + readOptions,
            environment: ["PCSCLITE_CSOCK_NAME": state.appendingPathComponent("run/pcscd.comm").path])
        try #require(read.status == 0, "emrtd read: \(read.combinedOutput)")
        return try JSONValue.parse(read.output)
    }

    @Test func paceChipAuthenticationMapping() throws {
        guard let document = try Self.read(simulateOptions: [], readOptions: []) else { return }
        #expect(document["paceMapping"] == "chipAuthenticationMapping")
        #expect(document["ldsMasterFile"]?["cardSecurity"] != .null)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authenticated")
        let chip = document["authenticationStatus"]?["chip"]
        #expect(chip?["status"] == "authenticated")
        #expect(chip?["protocol"] == "paceChipAuthenticationMapping")
    }

    @Test func basicAccessControlWithChipAndActiveAuthentication() throws {
        guard
            let document = try Self.read(
                simulateOptions: ["--no-pace"], readOptions: ["--challenge", "0011223344556677"])
        else { return }
        #expect(document["accessControlProtocolUsed"] == "bac")
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authenticated")
        let chip = document["authenticationStatus"]?["chip"]
        #expect(chip?["status"] == "authenticated")
        #expect(chip?["protocol"] == "chipAuthentication")
        #expect(chip?["activeAuthentication"] == "authenticated")
        // The caller's challenge was signed, and the signature comes back (RSA-2048: 256 bytes).
        guard case .string(let response)? = chip?["activeAuthenticationResponse"] else {
            Issue.record("no activeAuthenticationResponse")
            return
        }
        #expect(Data(base64Encoded: response)?.count == 256)
    }
}
