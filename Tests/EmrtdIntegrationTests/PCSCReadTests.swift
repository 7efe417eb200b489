import Foundation
import Glibc
import JSON
import LDS
import TestSupport
import Testing

/// `emrtd read --reader` behind a real pcscd through vsmartcard's vpcd: on the chip simulator
/// (`Tools/simulator.sh`, its own pcscd in private namespaces) and on the third-party ePass
/// emulator of ../shared/peers (the machine's pcscd socket, so it holds the shared lock
/// `/tmp/emrtd-pcscd.lock` as every test starting that pcscd does). Skips with a reason when
/// the rig cannot run here, fails instead under `CI=true`.
@Suite(.serialized) struct PCSCReadTests {
    /// The `emrtd` executable built beside the test bundle (checked by `missingRequirement`).
    static let emrtd = Prerequisites.builtExecutablePath("emrtd")

    /// Why the PC/SC rig cannot run here, or nil.
    static func missingRequirement() -> String? {
        if getuid() != 0 { return "not root (pcscd in a network namespace needs it)" }
        let needed = [
            "/usr/sbin/pcscd", "/etc/reader.conf.d/vpcd", "/usr/bin/unshare", "/usr/bin/nsenter", "/usr/bin/python3",
            emrtd,
        ]
        for path in needed where !FileManager.default.fileExists(atPath: path) { return "\(path) is missing" }
        return nil
    }

    static func skipUnlessRigAvailable() -> Bool {
        guard let missing = missingRequirement() else { return false }
        Prerequisites.unavailable("the PC/SC rig (\(missing))")
        return true
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func simulatorBehindPCSCD() throws {
        if Self.skipUnlessRigAvailable() { return }
        let state = try Self.temporaryDirectory("emrtd-simulator")
        defer { try? FileManager.default.removeItem(at: state) }
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/simulator.sh").path
        let environment = ["EMRTD_SIMULATOR_STATE": state.path, "EMRTD_BIN": Self.emrtd]
        let csca = state.appendingPathComponent("csca.pem").path
        let started = try Subprocess.run(script, ["start", "--rich", "--csca-out", csca], environment: environment)
        defer { _ = try? Subprocess.run(script, ["stop"], environment: environment) }
        try #require(started.status == 0, "simulator.sh start: \(started.combinedOutput)")
        let read = try Subprocess.run(
            Self.emrtd,
            [
                "read", "--reader", "Virtual PCD 00 00", "--mrz", "L898902C", "690806", "940623", "--csca", csca,
                "--no-builtin", "--json",
            ],
            environment: ["PCSCLITE_CSOCK_NAME": state.appendingPathComponent("run/pcscd.comm").path])
        try #require(read.status == 0, "emrtd read: \(read.combinedOutput)")
        let document = try JSONValue.parse(read.output)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authenticated")
        // The simulated chip offers PACE-CAM by default: the reader's PACE against the simulator's,
        // through pcscd and vpcd.
        #expect(document["accessControlProtocolUsed"] == "pace")
        #expect(document["paceMapping"] == "chipAuthenticationMapping")
        #expect(document["pace"]?["protocolName"] == "id-PACE-ECDH-CAM-AES-CBC-CMAC-128")
        #expect(document["pace"]?["parameterId"] == 13)
        #expect(document["deniedFiles"] == .array(["dg3"]))
        #expect(document["personsToNotify"] != .null && document["displayedSignatureOrUsualMark"] != .null)
    }

    /// The vsmartcard ePass (BAC) has no EF.SOD and a malformed EF.COM: by the reference's rules
    /// the read fails with `read` of kind `parseMasterFile`, EF.COM kept in the error.
    @Test func ePassEmulator() throws {
        if Self.skipUnlessRigAvailable() { return }
        let read = try EPassEmulator.run {
            try Subprocess.run(
                Self.emrtd,
                [
                    "read", "--reader", EPassEmulator.readerName, "--mrz", "L898902C", "690806", "940623",
                    "--no-builtin", "--json",
                ])
        }
        guard let read else { return }
        try #require(read.status == 1, "emrtd read: \(read.combinedOutput)")
        let error = try JSONValue.parse(read.output)
        #expect(error["code"] == "read" && error["kind"] == "parseMasterFile")
        let application = error["debugInfo"]?["filesRead"]?["lds1EmrtdApplication"]
        #expect(application?["com"]?["bytes"] != .null && application?["sod"] == .null)
    }
}
