import Foundation
import JSON
import TestSupport
import Testing

/// Revocation and the ICAO PKD on a document and PKI OpenSSL made (`OpenSSLPKI`): the CSCA's CRL
/// denies the data naming the DSC and the date, an LDIF download's DSC stands in for the one an
/// EF.SOD does not carry, and its CRL is imported with it.
@Suite struct RevocationCLITests {
    static func pki() throws -> (emrtd: String, folder: URL)? {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let dg1 = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup1.bin"),
            let dg2 = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup2.bin")
        else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard try OpenSSLPKI.make(in: folder, dataGroup1: dg1, dataGroup2: dg2) != nil else { return nil }
        return (emrtd, folder)
    }

    static func errors(_ output: String) throws -> [String] {
        guard case .array(let errors)? = try JSONValue.parse(output)["errors"] else { return [] }
        return errors.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    @Test func aRevokedDocumentSignerDeniesTheData() throws {
        guard let (emrtd, folder) = try Self.pki() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let csca = folder.appendingPathComponent("csca.pem").path
        let base = ["verify", "--dir", folder.path, "--csca", csca, "--no-builtin"]
        let clean = try Subprocess.run(emrtd, base)
        #expect(clean.status == 0, "\(clean.combinedOutput)")
        #expect(try JSONValue.parse(clean.output)["status"] == "authenticated")

        for crl in ["crl.pem", "crl.der"] {
            let revoked = try Subprocess.run(emrtd, base + ["--crl", folder.appendingPathComponent(crl).path])
            #expect(revoked.status == 3, "\(crl): \(revoked.combinedOutput)")
            let verdict = try JSONValue.parse(revoked.output)
            #expect(verdict["status"] == "denied" && verdict["certificateChainValid"] == false)
            let errors = try Self.errors(revoked.output)
            #expect(errors.count == 1)
            #expect(errors.first?.contains("CN=OpenSSL DS") == true && errors.first?.contains("serial 1234") == true)
            #expect(errors.first?.contains("was revoked on ") == true, "\(errors)")
        }
        // Before the revocation date the certificate was not revoked yet.
        let earlier = try Subprocess.run(
            emrtd, base + ["--crl", folder.appendingPathComponent("crl.der").path, "--at", "2000-01-01"])
        #expect(try !Self.errors(earlier.output).contains { $0.contains("revoked") })
        // A file without a CRL given as one is an input error.
        let notACRL = try Subprocess.run(emrtd, base + ["--crl", csca])
        #expect(notACRL.status == 1 && notACRL.errorOutput.contains("holds no certificate revocation list"))
    }

    @Test func aPKDDownloadSuppliesTheSignerAndItsCRL() throws {
        guard let (emrtd, folder) = try Self.pki() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let csca = folder.appendingPathComponent("csca.pem").path
        let noCertificate = folder.appendingPathComponent("nocert").path
        let without = try Subprocess.run(emrtd, ["verify", "--dir", noCertificate, "--csca", csca, "--no-builtin"])
        #expect(without.status == 3)
        #expect(
            try Self.errors(without.output).contains {
                $0.contains("neither in the signed data nor in the trust store")
            })

        let inspected = try Subprocess.run(emrtd, ["masterlist", folder.appendingPathComponent("pkd-dsc.ldif").path])
        #expect(inspected.status == 0, "\(inspected.combinedOutput)")
        let summary = try JSONValue.parse(inspected.output)
        #expect(summary["entries"] == 1 && summary["documentSigners"] == 1 && summary["revocationLists"] == 0)

        let bundle = folder.appendingPathComponent("bundle.pem").path
        let imported = try Subprocess.run(
            emrtd, ["masterlist", "import", folder.appendingPathComponent("pkd-dsc.ldif").path, "--out", bundle])
        #expect(imported.status == 0, "\(imported.combinedOutput)")
        #expect(imported.errorOutput.contains("(1 Document Signers, 0 CRLs)"))
        let found = try Subprocess.run(
            emrtd, ["verify", "--dir", noCertificate, "--csca", csca, "--csca", bundle, "--no-builtin"])
        #expect(found.status == 0, "\(found.combinedOutput)")
        #expect(try JSONValue.parse(found.output)["status"] == "authenticated")

        // The DSC alone trusts nothing: without the CSCA no chain is found.
        let alone = try Subprocess.run(emrtd, ["verify", "--dir", noCertificate, "--csca", bundle, "--no-builtin"])
        #expect(try JSONValue.parse(alone.output)["certificateChainValid"] == false)

        let withCRL = try Subprocess.run(
            emrtd,
            ["masterlist", "import", folder.appendingPathComponent("pkd-crl.ldif").path, "--out", bundle, "--append"])
        #expect(withCRL.status == 0 && withCRL.errorOutput.contains("(1 Document Signers, 1 CRLs)"))
        let revoked = try Subprocess.run(
            emrtd, ["verify", "--dir", noCertificate, "--csca", csca, "--csca", bundle, "--no-builtin"])
        #expect(revoked.status == 3)
        #expect(try Self.errors(revoked.output).contains { $0.contains("was revoked on") })
    }

    /// LDIF that is not: an error naming the file and the line, exit 1.
    @Test func brokenLDIFIsAnInputError() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).ldif")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("version: 1\n\ndn: cn=x\nuserCertificate;binary:: %%%not base64\n".utf8).write(to: file)
        let result = try Subprocess.run(emrtd, ["masterlist", "import", file.path, "--out", file.path + ".pem"])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("is not a readable LDIF file: LDIF line 4"), "\(result.errorOutput)")
    }
}
