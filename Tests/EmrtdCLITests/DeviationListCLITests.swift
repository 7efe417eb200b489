import Foundation
import JSON
import TestSupport
import Testing

/// Deviation lists (ICAO 9303-12 §10) and ICAO PKD LDIF files as OpenSSL makes them, through
/// `emrtd verify --deviation-list` and `emrtd trust update`.
@Suite struct DeviationListCLITests {
    /// A DeviationList over the certificate whose DER is `$2` (by its SHA-256, `certificateDigest`
    /// [3]) with one AAKeyCompromised description, signed by `$3` (certificate) and `$4` (key)
    /// into `$5`: `openssl asn1parse -genconf` and `openssl cms -sign` (signingTime included).
    static let deviationScript = #"""
        set -eu
        cd "$1"
        H=$(openssl dgst -sha256 -hex "$2" | sed 's/.*= //')
        printf 'asn1=SEQUENCE:dl\n[dl]\nv=INTEGER:0\na=SEQUENCE:alg\nd=SET:devs\n[alg]\no=OID:sha256\n' > dl.cnf
        printf '[devs]\nd1=SEQUENCE:dev\n[dev]\ndocs=SEQUENCE:docs\ndescs=SET:descs\n' >> dl.cnf
        printf '[docs]\ndigest=IMPLICIT:3,FORMAT:HEX,OCTETSTRING:%s\n' "$H" >> dl.cnf
        printf '[descs]\nx=SEQUENCE:desc\n[desc]\nt=PRINTABLESTRING:batch 7\no=OID:2.23.136.1.1.7.1.4\n' >> dl.cnf
        openssl asn1parse -genconf dl.cnf -out dl-content.der -noout
        openssl cms -sign -binary -nodetach -in dl-content.der -econtent_type 2.23.136.1.1.7 -signer "$3" \
            -inkey "$4" -md sha256 -outform DER -out "$5"
        """#

    static func deviationList(in folder: URL, about certificate: String, signer: String, key: String, out: String)
        throws
    {
        let result = try Subprocess.run(
            "/bin/bash", ["-c", Self.deviationScript, "sh", folder.path, certificate, signer, key, out])
        #expect(result.status == 0, "\(result.combinedOutput)")
    }

    /// A stranger: a self-signed key of the same country, trusted by nobody.
    static func stranger(in folder: URL) throws {
        let script = """
            cd "$1" && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout stranger.key \
                -out stranger.pem -days 365 -subj /C=UT/CN=Stranger 2>/dev/null
            """
        let result = try Subprocess.run("/bin/bash", ["-c", script, "sh", folder.path])
        #expect(result.status == 0, "\(result.combinedOutput)")
    }

    /// The DSC is listed by its CSCA's deviation list: `verify` stays authenticated (every check
    /// passed) and names the defect among the errors and the warnings; a list no trusted CSCA
    /// vouches for is refused before anything is verified.
    @Test func verifyNamesAListedDocumentSigner() throws {
        guard let (emrtd, folder) = try RevocationCLITests.pki() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.deviationList(in: folder, about: "dsc.der", signer: "csca.pem", key: "csca.key", out: "dl.der")
        let base = [
            "verify", "--dir", folder.path, "--csca", folder.appendingPathComponent("csca.pem").path, "--no-builtin",
        ]
        let listed = try Subprocess.run(
            emrtd, base + ["--deviation-list", folder.appendingPathComponent("dl.der").path])
        #expect(listed.status == 0, "\(listed.combinedOutput)")
        let verdict = try JSONValue.parse(listed.output)
        #expect(verdict["status"] == "authenticated")
        let errors = try RevocationCLITests.errors(listed.output)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("known defect: the deviation list of DE signed ") == true, "\(errors)")
        #expect(errors.first?.contains("AAKeyCompromised (\"batch 7\")") == true, "\(errors)")
        #expect(listed.errorOutput.contains("warning: known defect: the deviation list of DE"))

        try Self.stranger(in: folder)
        try Self.deviationList(
            in: folder, about: "dsc.der", signer: "stranger.pem", key: "stranger.key", out: "forged.der")
        let forged = try Subprocess.run(
            emrtd, base + ["--deviation-list", folder.appendingPathComponent("forged.der").path])
        #expect(forged.status == 1, "\(forged.combinedOutput)")
        #expect(forged.errorOutput.contains("does not verify under a trusted CSCA"), "\(forged.errorOutput)")
    }

    /// `trust update` with a deviation list (added, replaced by a newer one, an older and a
    /// stranger's refused) and with an ICAO PKD LDIF file (its newer master list replaces the
    /// older, its Document Signer joins the bundle, the previous bundle is kept).
    @Test func updateTakesDeviationListsAndPKDDownloads() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            Prerequisites.tool("openssl", package: "openssl") != nil
        else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-dl-\(UUID().uuidString)")
        let lists = folder.appendingPathComponent("masterlist")
        try FileManager.default.createDirectory(at: lists, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try Subprocess.run("/bin/bash", ["-c", TrustCommandCLITests.listsScript, "sh", folder.path])
        #expect(pki.status == 0, "\(pki.combinedOutput)")
        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
        func sum(_ url: URL) throws -> String {
            String(try Subprocess.run("/usr/bin/sha256sum", [url.path]).output.prefix(64))
        }
        let inspected = try JSONValue.parse(Subprocess.run(emrtd, ["masterlist", file("older.ml").path]).output)
        guard case .string(let olderTime)? = inspected["signingTime"] else {
            Issue.record("older.ml has no signing time")
            return
        }
        for name in ["older.ml", "root.pem"] {
            try FileManager.default.copyItem(at: file(name), to: lists.appendingPathComponent(name))
        }
        try """
        \(try sum(file("older.ml")))  older.ml
        \(try sum(file("root.pem")))  root.pem
        list  older.ml  root.pem  \(olderTime)

        """.write(to: lists.appendingPathComponent("SOURCES"), atomically: false, encoding: .utf8)
        let bundle = lists.appendingPathComponent("csca.pem")
        let environment = ["EMRTD_CSCA_BUNDLE": bundle.path]
        let built = try Subprocess.run(emrtd, ["trust", "build", lists.path])
        #expect(built.status == 0, "\(built.combinedOutput)")

        // Two deviation lists of the list signer (C=UT, under the bundle's CSCA), a second apart.
        let converted = try Subprocess.run(
            "/bin/bash",
            ["-c", "cd \"$1\" && openssl x509 -in signer.pem -outform DER -out signer.der", "sh", folder.path])
        #expect(converted.status == 0, "\(converted.combinedOutput)")
        try Self.deviationList(
            in: folder, about: "signer.der", signer: "signer.pem", key: "signer.key", out: "dl-1.der")
        Thread.sleep(forTimeInterval: 1.2)
        try Self.deviationList(
            in: folder, about: "signer.der", signer: "signer.pem", key: "signer.key", out: "dl-2.der")
        func update(_ name: String) throws -> Subprocess.Result {
            try Subprocess.run(emrtd, ["trust", "update", file(name).path], environment: environment)
        }
        let first = try update("dl-1.der")
        #expect(first.status == 0, "\(first.combinedOutput)")
        #expect(first.errorOutput.contains("added dl-1.der, the deviation list of UT"), "\(first.errorOutput)")
        var sources = try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8)
        let firstSum = try sum(file("dl-1.der"))
        #expect(sources.contains("deviations  dl-1.der  ") && sources.contains("\(firstSum)  dl-1.der"))
        let listing = try JSONValue.parse(Subprocess.run(emrtd, ["trust", "list"], environment: environment).output)
        guard case .array(let deviationLists)? = listing["deviationLists"] else {
            Issue.record("no deviationLists in \(listing)")
            return
        }
        #expect(deviationLists.count == 1 && deviationLists.first?["country"] == "UT")
        #expect(deviationLists.first?["deviations"] == 1)

        let second = try update("dl-2.der")
        #expect(
            second.status == 0 && second.errorOutput.contains("dl-1.der replaced by dl-2.der"), "\(second.errorOutput)")
        sources = try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8)
        #expect(sources.contains("deviations  dl-2.der  ") && !sources.contains("dl-1.der"))
        let older = try update("dl-1.der")
        #expect(older.status == 3 && older.errorOutput.contains("not after dl-2.der"), "\(older.errorOutput)")

        try Self.stranger(in: folder)
        try Self.deviationList(
            in: folder, about: "signer.der", signer: "stranger.pem", key: "stranger.key", out: "dl-forged.der")
        let forged = try update("dl-forged.der")
        #expect(forged.status == 3 && forged.errorOutput.contains("does not verify under a CSCA of the bundle"))

        // An ICAO PKD download: the newer master list and a Document Signer (OpenSSLPKI's LDIF form).
        let ldifScript = #"""
            set -eu
            cd "$1"
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ds.key -out ds.csr \
                -subj "/C=UT/O=Trust Test/CN=Trust Test DS" 2>/dev/null
            printf 'keyUsage=critical,digitalSignature\n' > ds.ext
            openssl x509 -req -in ds.csr -CA root.pem -CAkey root.key -set_serial 9 -days 365 -extfile ds.ext \
                -outform DER -out ds.der 2>/dev/null
            entry() {
                printf 'dn: %s\nobjectClass: pkdDownload\n%s:: ' "$1" "$2"; base64 -w 76 "$3" | sed '2,$s/^/ /'; printf '\n'
            }
            { printf 'version: 1\n\n'
              entry "cn=ML,o=ml,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" "pkdMasterListContent" newer.ml
              entry "cn=DS,o=dsc,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" "userCertificate;binary" ds.der
            } > pkd.ldif
            """#
        let made = try Subprocess.run("/bin/bash", ["-c", ldifScript, "sh", folder.path])
        #expect(made.status == 0, "\(made.combinedOutput)")
        let download = try update("pkd.ldif")
        #expect(download.status == 0, "\(download.combinedOutput)")
        #expect(download.errorOutput.contains("older.ml replaced by pkd-ml1.ml"), "\(download.errorOutput)")
        #expect(download.errorOutput.contains("pkd.ldif: its 1 Document Signers and 0 CRLs"), "\(download.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: bundle.path + ".previous"))
        sources = try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8)
        #expect(sources.contains("list  pkd-ml1.ml  root.pem  ") && sources.contains("pkd  pkd.ldif"))
        #expect(sources.contains("deviations  dl-2.der  "))
        let after = try JSONValue.parse(Subprocess.run(emrtd, ["trust", "list"], environment: environment).output)
        #expect(after["certificates"] == 2, "\(after)")
        if case .array(let kept)? = after["deviationLists"] { #expect(kept.count == 1) }
        // The same download again: its master list is no newer, refused and said.
        let again = try update("pkd.ldif")
        #expect(again.errorOutput.contains("not after pkd-ml1.ml"), "\(again.errorOutput)")
    }
}
