import Foundation
import JSON
import TestSupport
import Testing

/// The built-in CSCA bundle as a fresh clone gets it: `Tools/build-trust-bundle.sh` run on a copy
/// of `masterlist/` and the script alone (no `../shared` beside them), then `emrtd verify` on
/// real documents with no `--csca`.
@Suite struct BuiltInTrustCLITests {
    /// The committed lists and the script, copied into a folder of their own: what a clone holds.
    static func freshCopy() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
        let lists = root.appendingPathComponent("masterlist")
        let tools = root.appendingPathComponent("Tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Prerequisites.repositoryRoot.appendingPathComponent("masterlist"), to: lists)
        try? FileManager.default.removeItem(at: lists.appendingPathComponent("csca.pem"))
        try FileManager.default.copyItem(
            at: Prerequisites.repositoryRoot.appendingPathComponent("Tools/build-trust-bundle.sh"),
            to: tools.appendingPathComponent("build-trust-bundle.sh"))
        return root
    }

    static func build(_ copy: URL, emrtd: String) throws -> (result: Subprocess.Result, bundle: URL) {
        let bundle = copy.appendingPathComponent("masterlist/csca.pem")
        let result = try Subprocess.run(
            copy.appendingPathComponent("Tools/build-trust-bundle.sh").path, [], environment: ["EMRTD": emrtd])
        return (result, bundle)
    }

    static func certificateCount(_ bundle: URL) throws -> Int {
        try String(contentsOf: bundle, encoding: .utf8).components(separatedBy: "-----BEGIN CERTIFICATE-----").count
            - 1
    }

    /// Every committed list verifies against its root: German 588, Dutch 411 (39 new), ICAO 520
    /// (139 new), 766 in the union; then every real EF.SOD whose CSCA is in the lists chains with
    /// no `--csca`, checked inside its DSC's validity. Indonesia's does not: its CSCA (the 2020
    /// series, `C=ID, O=DIT SISTIK`) is in none of the three lists.
    @Test func aFreshCloneTrustsRealDocuments() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let samples = Prerequisites.shared("data/gmrtd/sod_samples")
        else { return }
        let copy = try Self.freshCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let (built, bundle) = try Self.build(copy, emrtd: emrtd)
        #expect(built.status == 0, "\(built.combinedOutput)")
        #expect(!built.errorOutput.contains("WARNING"), "\(built.errorOutput)")
        #expect(
            built.errorOutput.contains("DE_ML_2026-05-28-08-28-45.ml: 588 certificates, 588 new, 588 in the bundle"))
        #expect(built.errorOutput.contains("NL_ML_2026-07-22.ml: 411 certificates, 39 new, 627 in the bundle"))
        #expect(built.errorOutput.contains("ICAO_ML_2025-07-23.ml: 520 certificates, 139 new, 766 in the bundle"))
        #expect(try Self.certificateCount(bundle) == 766)

        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path)
        let countries = names.filter { $0.hasSuffix("_EF_SOD.bin") }.map { String($0.dropLast("_EF_SOD.bin".count)) }
        #expect(countries.count == 15)
        var unchained: [String] = []
        for country in countries.sorted() {
            let dump = copy.appendingPathComponent("dumps/\(country)")
            try FileManager.default.createDirectory(at: dump, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent("\(country)_EF_SOD.bin"), to: dump.appendingPathComponent("SOD.bin"))
            for name in names where name.hasPrefix("\(country)_DG") {
                try FileManager.default.copyItem(
                    at: samples.appendingPathComponent(name),
                    to: dump.appendingPathComponent(String(name.dropFirst(country.count + 1))))
            }
            // The DSC's validity, from a first look without any trust; checked a day after it began.
            let look = try JSONValue.parse(
                Subprocess.run(emrtd, ["verify", "--dir", dump.path, "--no-builtin"]).output)
            guard case .string(let notBefore)? = look["documentSignerCertificate"]?["notBefore"],
                let start = ISO8601DateFormatter().date(from: notBefore)
            else {
                Issue.record("\(country): no DSC validity in \(look)")
                continue
            }
            let at = ISO8601DateFormatter().string(from: start.addingTimeInterval(86_400))
            let result = try Subprocess.run(
                emrtd, ["verify", "--dir", dump.path, "--at", at], environment: ["EMRTD_CSCA_BUNDLE": bundle.path])
            let verdict = try JSONValue.parse(result.output)
            #expect(verdict["sodSignatureValid"] == true, "\(country)")
            if verdict["certificateChainValid"] != true {
                unchained.append(country)
                #expect(
                    VerdictCLITests.errors(verdict).contains { $0.hasPrefix("no trusted certificate for the issuer") },
                    "\(country): \(VerdictCLITests.errors(verdict))")
            }
            // Off: the same document, nothing trusted.
            let off = try Subprocess.run(
                emrtd, ["verify", "--dir", dump.path, "--at", at, "--no-builtin"],
                environment: ["EMRTD_CSCA_BUNDLE": bundle.path])
            #expect(try JSONValue.parse(off.output)["certificateChainValid"] == false, "\(country)")
        }
        #expect(unchained == ["ID"])
    }

    /// A list that does not verify against the root SOURCES names (here the Dutch list checked
    /// against the German root) is left out, said on stderr, and the others still make the bundle.
    @Test func aListThatDoesNotVerifyIsLeftOut() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let copy = try Self.freshCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let sources = copy.appendingPathComponent("masterlist/SOURCES")
        let text = try String(contentsOf: sources, encoding: .utf8)
        let wrongRoot = text.replacingOccurrences(
            of: "list  NL_ML_2026-07-22.ml  NL_ROOT_CA.cer", with: "list  NL_ML_2026-07-22.ml  DE_ROOT_CA_CSCA07.cer")
        #expect(wrongRoot != text)
        try wrongRoot.write(to: sources, atomically: false, encoding: .utf8)
        let (built, bundle) = try Self.build(copy, emrtd: emrtd)
        #expect(built.status == 0, "\(built.combinedOutput)")
        #expect(built.errorOutput.contains("WARNING: NL_ML_2026-07-22.ml does not verify"), "\(built.errorOutput)")
        #expect(built.errorOutput.contains("from 2 master lists"))
        // The German list's 588 and the ICAO list's 158 that the German one lacks.
        #expect(try Self.certificateCount(bundle) == 746)
    }

    /// A list whose bytes differ from the checksum in SOURCES builds no bundle at all.
    @Test func aChangedListBuildsNothing() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let copy = try Self.freshCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let list = copy.appendingPathComponent("masterlist/NL_ML_2026-07-22.ml")
        var bytes = try [UInt8](Data(contentsOf: list))
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: list)
        let (built, bundle) = try Self.build(copy, emrtd: emrtd)
        #expect(built.status == 1, "\(built.combinedOutput)")
        #expect(built.errorOutput.contains("NL_ML_2026-07-22.ml differs from the checksum in SOURCES"))
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }

    /// A bundle whose newest list was signed long ago (here SOURCES rewritten after the build to
    /// say 2020) is said on stderr and in the verdict's warnings; the verdict itself still stands.
    @Test func aStaleBundleIsSaid() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let samples = Prerequisites.shared("data/gmrtd/sod_samples")
        else { return }
        let copy = try Self.freshCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let (built, bundle) = try Self.build(copy, emrtd: emrtd)
        #expect(built.status == 0, "\(built.combinedOutput)")
        let sources = copy.appendingPathComponent("masterlist/SOURCES")
        let lines = try String(contentsOf: sources, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let old = lines.map { line in
            line.hasPrefix("list  ")
                ? line.split(separator: " ").dropLast().joined(separator: "  ") + "  2020-01-01T00:00:00Z"
                : String(line)
        }
        try old.joined(separator: "\n").write(to: sources, atomically: false, encoding: .utf8)
        let result = try Subprocess.run(
            emrtd, ["verify", "--sod", samples.appendingPathComponent("AT_EF_SOD.bin").path, "--at", "2026-06-01"],
            environment: ["EMRTD_CSCA_BUNDLE": bundle.path])
        let warning = "the newest master list in the trust bundle was signed 2020-01-01"
        #expect(result.errorOutput.contains(warning), "\(result.errorOutput)")
        let verdict = try JSONValue.parse(result.output)
        guard case .array(let warnings)? = verdict["warnings"] else {
            Issue.record("no warnings in \(result.output)")
            return
        }
        #expect(warnings.contains { if case .string(let text) = $0 { text.hasPrefix(warning) } else { false } })
        #expect(verdict["certificateChainValid"] == true)
    }

    /// A CRL in use whose nextUpdate has passed (the test PKI's CRL issued again for January
    /// 2020) is said on stderr and in the warnings.
    @Test func aCRLPastItsNextUpdateIsSaid() throws {
        guard let (emrtd, folder) = try RevocationCLITests.pki() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let reissued = try Subprocess.run(
            "/usr/bin/openssl",
            [
                "ca", "-config", folder.appendingPathComponent("ca.cnf").path, "-gencrl", "-batch",
                "-crl_lastupdate", "20200101000000Z", "-crl_nextupdate", "20200201000000Z",
                "-out", folder.appendingPathComponent("old-crl.pem").path,
            ])
        #expect(reissued.status == 0, "\(reissued.combinedOutput)")
        let result = try Subprocess.run(
            emrtd,
            [
                "verify", "--dir", folder.path, "--no-builtin", "--csca",
                folder.appendingPathComponent("csca.pem").path,
                "--crl", folder.appendingPathComponent("old-crl.pem").path,
            ])
        let warning = "certificate revocation lists past their nextUpdate"
        #expect(result.errorOutput.contains(warning), "\(result.errorOutput)")
        #expect(result.errorOutput.contains("CN=OpenSSL CSCA") && result.errorOutput.contains("(due 2020-02-01)"))
        guard case .array(let warnings)? = try JSONValue.parse(result.output)["warnings"] else {
            Issue.record("no warnings in \(result.output)")
            return
        }
        #expect(warnings.contains { if case .string(let text) = $0 { text.contains(warning) } else { false } })
    }

    /// A CSCA of another country than the document's issuing state (a French CSCA over a German
    /// DG1) is denied, with the reason; the same document under a German CSCA is authenticated.
    @Test func aCSCAOfAnotherCountryIsDenied() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let dg1 = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup1.bin"),
            let dg2 = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup2.bin")
        else { return }
        for country in ["FR", "DE"] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("country-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            guard try OpenSSLPKI.make(in: folder, dataGroup1: dg1, dataGroup2: dg2, country: country) != nil else {
                return
            }
            let result = try Subprocess.run(
                emrtd,
                [
                    "verify", "--dir", folder.path, "--no-builtin", "--csca",
                    folder.appendingPathComponent("csca.pem").path,
                ])
            let verdict = try JSONValue.parse(result.output)
            #expect(verdict["certificateChainValid"] == true, "\(country)")
            let mismatch = VerdictCLITests.errors(verdict).filter {
                $0.hasPrefix("the CSCA is of FR but the document's issuing state is D")
            }
            if country == "FR" {
                #expect(result.status == 3 && verdict["status"] == "denied" && mismatch.count == 1, "\(result.output)")
            } else {
                #expect(
                    result.status == 0 && verdict["status"] == "authenticated" && mismatch.isEmpty, "\(result.output)")
            }
        }
    }
}
