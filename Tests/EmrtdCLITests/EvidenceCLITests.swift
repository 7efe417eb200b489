import Foundation
import JSON
import TestSupport
import Testing

/// A read's evidence judged again offline, as a back end does it: `emrtd read --simulator
/// --challenge HEX --out DIR`, then `emrtd verify --dir DIR --challenge HEX`.
@Suite struct EvidenceCLITests {
    static let challenge = "0102030405060708"

    @Test func theChipIsJudgedAgainOverTheCallersChallenge() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let folder = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = try Subprocess.run(
            emrtd,
            [
                "read", "--simulator", "--no-render", "--can", "123456", "--challenge", Self.challenge, "--replace",
                "--out", folder.path,
            ])
        #expect(dump.status == 0, "\(dump.combinedOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("evidence.json").path))
        let csca = folder.appendingPathComponent("CSCA.der").path
        func verify(_ extra: [String]) throws -> (Int32, JSONValue?) {
            let result = try Subprocess.run(
                emrtd, ["verify", "--dir", folder.path, "--no-builtin", "--csca", csca] + extra)
            return (result.status, try? JSONValue.parse(result.output))
        }
        let (status, verdict) = try verify(["--challenge", Self.challenge])
        #expect(status == 0)
        #expect(verdict?["chip"]?["status"] == "authenticated", "\(String(describing: verdict?["chip"]))")
        // Another challenge: the recorded answer is not the caller's, the chip is denied.
        let (_, other) = try verify(["--challenge", "0807060504030201"])
        #expect(other?["chip"]?["status"] == "denied")
        #expect(other?["chip"]?["protocol"] == "activeAuthentication")
        // Without evidence.json the chip is not authenticated, and the data verdict stands.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("evidence.json"))
        let (_, bare) = try verify([])
        #expect(bare?["chip"]?["status"] == "notSupported")
        #expect(bare?["status"] == "authenticated")
    }

    /// A dump whose EF.SOD lists DG15 but whose DG15.bin was removed: the chip is denied naming
    /// DG15 and `--strict`, which passed with it, exits 3 (issue 41's withheld key file, offline).
    @Test func aRemovedKeyFileDeniesTheChipAndFailsStrict() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let directory = try VerdictCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        try AcceptedAgreementCLITests.makeDump(emrtd, at: dump, signedInside: true)
        let csca = directory.appendingPathComponent("csca.der")
        try FileManager.default.copyItem(at: dump.appendingPathComponent("CSCA.der"), to: csca)
        func verify() throws -> (Int32, JSONValue?, String) {
            let result = try Subprocess.run(
                emrtd,
                ["verify", "--dir", dump.path, "--strict", "--no-builtin", "--csca", csca.path, "--mrz-lines"]
                    + VerdictCLITests.specimenLines + AcceptedAgreementCLITests.inside)
            return (result.status, try? JSONValue.parse(result.output), result.combinedOutput)
        }
        let (status, verdict, output) = try verify()
        #expect(status == 0, "\(output)")
        #expect(verdict?["chip"]?["status"] == "authenticated", "\(output)")
        try FileManager.default.removeItem(at: dump.appendingPathComponent("DG15.bin"))
        let (withheldStatus, withheld, withheldOutput) = try verify()
        #expect(withheldStatus == 3, "\(withheldOutput)")
        #expect(withheld?["chip"]?["status"] == "denied", "\(withheldOutput)")
        guard case .string(let reason)? = withheld?["chip"]?["reason"] else {
            Issue.record("no chip reason: \(withheldOutput)")
            return
        }
        #expect(reason.contains("EF.SOD lists DG15"), "\(reason)")
        #expect(withheld?["status"] == "authenticated", "the data verdict stands: \(withheldOutput)")
    }
}
