import Foundation
import TestSupport
import Testing

/// `emrtd cvc` as a user runs it: a test PKI made, printed and checked; its keys read by OpenPACE's
/// cvc-create; expiry and a foreign DV refused with exit status 3.
@Suite struct CVCCLITests {
    @Test func makePrintAndCheck() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvc-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = directory.appendingPathComponent("pki").path
        let made = try Subprocess.run(
            emrtd,
            [
                "cvc", "make-pki", pki, "--rights", "dg3", "--from", "2026-01-01", "--until", "2027-12-31",
                "--terminal-until", "2026-06-30",
            ])
        #expect(made.status == 0, "\(made.combinedOutput)")
        let mode = try FileManager.default.attributesOfItem(atPath: pki + "/is.pkcs8")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let printed = try Subprocess.run(emrtd, ["cvc", "print", pki + "/is.cvcert"])
        #expect(printed.status == 0 && printed.output.contains("CHR UTIS00001"))
        #expect(printed.output.contains("inspection system, terminal, read DG3 (01)"))
        let chain = ["--trust-point", pki + "/cvca.cvcert", pki + "/dv.cvcert", pki + "/is.cvcert"]
        let checked = try Subprocess.run(emrtd, ["cvc", "check"] + chain + ["--at", "2026-03-01"])
        #expect(checked.status == 0, "\(checked.combinedOutput)")
        let expired = try Subprocess.run(emrtd, ["cvc", "check"] + chain + ["--at", "2026-12-02"])
        #expect(expired.status == 3 && expired.errorOutput.contains("UTIS00001"))

        let other = directory.appendingPathComponent("other").path
        #expect(
            try Subprocess.run(
                emrtd, ["cvc", "make-pki", other, "--algorithm", "rsa-v1_5-sha256", "--rsa-bits", "1024"]
            ).status == 0)
        let foreign = try Subprocess.run(
            emrtd, ["cvc", "check", "--trust-point", pki + "/cvca.cvcert", other + "/dv.cvcert", other + "/is.cvcert"])
        #expect(foreign.status == 3 && foreign.errorOutput.contains("UTDV00001"))
        #expect(try Subprocess.run(emrtd, ["cvc", "make-pki", other, "--curve", "3"]).status == 2)
        #expect(try Subprocess.run(emrtd, ["cvc", "print", pki + "/is.pkcs8"]).status == 1)

        // A simulated chip with this PKI's CVCA as its trust point: the read goes on as before.
        let read = try Subprocess.run(
            emrtd,
            [
                "read", "--simulator", "--terminal-trust-point", pki + "/cvca.cvcert", "--chip-date", "2026-03-01",
                "--mrz", "L898902C", "690806", "940623",
            ])
        #expect(read.status == 0, "\(read.combinedOutput)")
        #expect(try Subprocess.run(emrtd, ["read", "--simulator", "--chip-date", "2026-03-01"]).status == 2)

        // OpenPACE signs a terminal with our DV's key; we verify it.
        guard let cvcCreate = Prerequisites.tool("cvc-create", package: "openpace") else { return }
        let created = try Subprocess.run(
            cvcCreate,
            [
                "--role=terminal", "--type=is", "--chat=02", "--issued=260101", "--expires=260301", "--chr=UTIS00002",
                "--sign-with=\(pki)/dv.pkcs8", "--sign-as=\(pki)/dv.cvcert", "--scheme=ECDSA_SHA_256",
                "--out-cert=\(pki)/is2.cvcert", "--out-key=\(pki)/is2.pkcs8",
            ])
        #expect(created.status == 0, "\(created.combinedOutput)")
        let theirs = try Subprocess.run(
            emrtd, ["cvc", "check", "--trust-point", pki + "/cvca.cvcert", pki + "/dv.cvcert", pki + "/is2.cvcert"])
        #expect(theirs.status == 0 && theirs.output.contains("read DG4 (02)"), "\(theirs.combinedOutput)")
    }
}
