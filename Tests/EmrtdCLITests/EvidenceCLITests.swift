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
}
