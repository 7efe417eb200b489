import Foundation
import JSON
import TestSupport
import Testing

/// `emrtd trust` on the built-in bundle, derived from a copy of `masterlist/` as a fresh clone
/// derives it.
@Suite struct TrustCommandCLITests {
    /// The United Nations CSCA pinned in `masterlist/SOURCES`, in all three lists.
    static let unitedNationsCSCA = "920693CD1283824FFDF48A3579FC35528122F3DE46BAB2ECDAEF402DB6D92E4E"

    static func withBundle(_ body: (String, [String: String]) throws -> Void) throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let copy = try BuiltInTrustCLITests.freshCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let (built, bundle) = try BuiltInTrustCLITests.build(copy, emrtd: emrtd)
        #expect(built.status == 0, "\(built.combinedOutput)")
        try body(emrtd, ["EMRTD_CSCA_BUNDLE": bundle.path])
    }

    /// Per list and in the union: 588 German, 411 Dutch (39 of them new), 520 ICAO (139 new),
    /// 766 in all; every certificate's origin named.
    @Test func listNamesEveryCertificatesOrigin() throws {
        try Self.withBundle { emrtd, environment in
            let result = try Subprocess.run(emrtd, ["trust", "list"], environment: environment)
            #expect(result.status == 0, "\(result.errorOutput)")
            let listing = try JSONValue.parse(result.output)
            #expect(listing["certificates"] == 766 && listing["fromNoList"] == 0)
            guard case .array(let lists)? = listing["lists"], case .array(let entries)? = listing["entries"] else {
                Issue.record("no lists or entries")
                return
            }
            #expect(lists.map { $0["certificates"] } == [588, 411, 520])
            #expect(lists.map { $0["brought"] } == [588, 39, 139])
            #expect(lists.first?["signingTime"] == "2026-05-28T06:28:45Z")
            #expect(entries.count == 766)
            #expect(entries.allSatisfy { if case .array(let named)? = $0["lists"] { !named.isEmpty } else { false } })
            #expect(entries.contains { $0["link"] == true } && entries.contains { $0["link"] == false })
            print(
                "trust list: \(listing["countries"].map { "\($0)" } ?? "?") countries, \(listing["linkCertificates"].map { "\($0)" } ?? "?") link certificates"
            )
        }
    }

    /// On a terminal (`script` gives it one) `list` is a table, one row a certificate; `--json`
    /// there is the JSON a pipe gets.
    @Test func listIsATableOnATerminal() throws {
        guard let script = Prerequisites.tool("script", package: "bsdutils") else { return }
        try Self.withBundle { emrtd, environment in
            let table = try Subprocess.run(
                script, ["-qec", "\(emrtd) trust list", "/dev/null"], environment: environment)
            #expect(table.status == 0, "\(table.combinedOutput)")
            let rows = table.output.split(whereSeparator: \.isNewline)
            #expect(rows.first?.contains(": 766 CSCAs of ") == true, "\(rows.first ?? "")")
            #expect(rows.contains { $0.hasPrefix("COUNTRY  NOT AFTER   SUBJECT") })
            #expect(
                rows.filter { $0.range(of: #"^[A-Z]{2,3} +\d{4}-\d{2}-\d{2}  "#, options: .regularExpression) != nil }
                    .count == 766)
            let json = try Subprocess.run(
                script, ["-qec", "\(emrtd) trust list --json", "/dev/null"], environment: environment)
            #expect(json.output.hasPrefix("{"), "\(json.output.prefix(80))")
        }
    }

    /// `show` by fingerprint prefix and by country; nothing matching is exit 3.
    @Test func showSelectsByFingerprintOrCountry() throws {
        try Self.withBundle { emrtd, environment in
            let pinned = try Subprocess.run(
                emrtd, ["trust", "show", String(Self.unitedNationsCSCA.prefix(16)).lowercased()],
                environment: environment)
            #expect(pinned.status == 0, "\(pinned.errorOutput)")
            guard case .array(let shown) = try JSONValue.parse(pinned.output), let only = shown.first else {
                Issue.record("nothing shown: \(pinned.output)")
                return
            }
            #expect(shown.count == 1)
            #expect(only["certificate"]?["sha256Fingerprint"] == .string(Self.unitedNationsCSCA))
            #expect(
                only["lists"]
                    == ["DE_ML_2026-05-28-08-28-45.ml", "NL_ML_2026-07-22.ml", "ICAO_ML_2025-07-23.ml"])
            let germany = try Subprocess.run(emrtd, ["trust", "show", "de"], environment: environment)
            guard case .array(let german) = try JSONValue.parse(germany.output) else { return }
            #expect(!german.isEmpty && german.allSatisfy { $0["certificate"]?["country"] == "DE" })
            let none = try Subprocess.run(emrtd, ["trust", "show", "QQ"], environment: environment)
            #expect(none.status == 3 && none.errorOutput.contains("no trusted certificate matches QQ"))
        }
    }

    /// `check`: Austria's DSC chains to the built-in bundle inside its validity; Indonesia's
    /// EF.SOD does not (its CSCA is in none of the lists), exit 3 with the reason.
    @Test func checkSaysWhetherADocumentSignerChains() throws {
        guard let samples = Prerequisites.shared("data/gmrtd/sod_samples") else { return }
        try Self.withBundle { emrtd, environment in
            let austria = try Subprocess.run(
                emrtd, ["trust", "check", samples.appendingPathComponent("AT_DSC.der").path, "--at", "2026-06-01"],
                environment: environment)
            #expect(austria.status == 0, "\(austria.combinedOutput)")
            let verdict = try JSONValue.parse(austria.output)
            #expect(verdict["chains"] == true && verdict["countrySigner"]?["country"] == "AT")
            let indonesia = try Subprocess.run(
                emrtd, ["trust", "check", samples.appendingPathComponent("ID_EF_SOD.bin").path, "--at", "2026-06-01"],
                environment: environment)
            #expect(indonesia.status == 3, "\(indonesia.combinedOutput)")
            let refused = try JSONValue.parse(indonesia.output)
            #expect(refused["chains"] == false && refused["countrySigner"] == .null)
        }
    }

    /// A test PKI (OpenSSL): a CSCA, a master-list signer under it, and two master lists of that
    /// CSCA signed a second apart, `older.ml` then `newer.ml`.
    static let listsScript = #"""
        set -eu
        cd "$1"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.pem \
            -days 3650 -subj "/C=UT/O=Trust Test/CN=Trust Test CSCA" \
            -addext "keyUsage=critical,keyCertSign,cRLSign" -addext "basicConstraints=critical,CA:true" 2>/dev/null
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout signer.key -out signer.csr \
            -subj "/C=UT/O=Trust Test/CN=Trust Test Master List Signer" 2>/dev/null
        openssl x509 -req -in signer.csr -CA root.pem -CAkey root.key -set_serial 7 -days 365 -out signer.pem 2>/dev/null
        openssl x509 -in root.pem -outform DER -out root.der
        # CscaMasterList ::= SEQUENCE { version INTEGER 0, certList SET OF Certificate }, the CSCA alone
        L=$(stat -c %s root.der)
        { printf "$(printf '\\%03o' 48 130 $(((L + 7) >> 8)) $(((L + 7) & 255)) 2 1 0 49 130 $((L >> 8)) $((L & 255)))"
          cat root.der; } > content.der
        sign() {
            openssl cms -sign -binary -nodetach -in content.der -econtent_type 2.23.136.1.1.2 -signer signer.pem \
                -inkey signer.key -md sha256 -outform DER -out "$1"
        }
        sign older.ml; sleep 1.2; sign newer.ml
        """#

    /// `update` takes a newer list of the same signer country that verifies against the same
    /// root (SOURCES rewritten, the old bundle kept as `csca.pem.previous`), and refuses an
    /// older one.
    @Test func updateTakesOnlyANewerListThatVerifies() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            Prerequisites.tool("openssl", package: "openssl") != nil
        else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-update-\(UUID().uuidString)")
        let lists = folder.appendingPathComponent("masterlist")
        try FileManager.default.createDirectory(at: lists, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try Subprocess.run("/bin/bash", ["-c", Self.listsScript, "sh", folder.path])
        #expect(pki.status == 0, "\(pki.combinedOutput)")
        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
        func signingTime(_ name: String) throws -> String {
            let inspected = try JSONValue.parse(Subprocess.run(emrtd, ["masterlist", file(name).path]).output)
            guard case .string(let time)? = inspected["signingTime"] else { return "" }
            return time
        }
        func sum(_ url: URL) throws -> String {
            String(try Subprocess.run("/usr/bin/sha256sum", [url.path]).output.prefix(64))
        }
        try FileManager.default.copyItem(at: file("older.ml"), to: lists.appendingPathComponent("older.ml"))
        try FileManager.default.copyItem(at: file("root.pem"), to: lists.appendingPathComponent("root.pem"))
        let sources = """
            \(try sum(file("older.ml")))  older.ml
            \(try sum(file("root.pem")))  root.pem
            list  older.ml  root.pem  \(try signingTime("older.ml"))

            """
        try sources.write(to: lists.appendingPathComponent("SOURCES"), atomically: false, encoding: .utf8)
        let bundle = lists.appendingPathComponent("csca.pem")
        let environment = ["EMRTD_CSCA_BUNDLE": bundle.path]
        let built = try Subprocess.run(emrtd, ["trust", "build", lists.path])
        #expect(built.status == 0, "\(built.combinedOutput)")

        // An update file named as one of the folder's own files is refused, nothing written.
        let sourcesBefore = try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8)
        for own in ["SOURCES", "csca.pem", "csca.pem.previous", "root.pem", "trust.lock"] {
            let misnamed = folder.appendingPathComponent("misnamed").appendingPathComponent(own)
            try FileManager.default.createDirectory(
                at: misnamed.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: misnamed)
            try FileManager.default.copyItem(at: file("newer.ml"), to: misnamed)
            let refused = try Subprocess.run(emrtd, ["trust", "update", misnamed.path], environment: environment)
            #expect(refused.status == 1, "\(own): \(refused.combinedOutput)")
            #expect(refused.errorOutput.contains("the trust folder's own files"), "\(refused.errorOutput)")
        }
        #expect(try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8) == sourcesBefore)

        // Under another holder of the folder's lock the update waits (and says so), changing
        // nothing until the lock is released; then it is made.
        let held = try Subprocess.run(
            "/bin/bash",
            [
                "-c",
                #"""
                exec 9>"$1/trust.lock"; flock 9
                "$2" trust update "$3" 2>"$1/../update.err" 9>&- & pid=$!
                for _ in $(seq 600); do grep -q waiting "$1/../update.err" && break; sleep 0.1; done
                cp "$1/SOURCES" "$1/../during"
                flock -u 9; exec 9>&-
                wait $pid; echo "status $?"
                """#, "sh", lists.path, emrtd, file("newer.ml").path,
            ], environment: environment)
        let newerErrors = (try? String(contentsOf: file("update.err"), encoding: .utf8)) ?? ""
        #expect(held.output.contains("status 0"), "\(held.combinedOutput) \(newerErrors)")
        #expect(newerErrors.contains("waiting for another emrtd"), "\(newerErrors)")
        #expect(try String(contentsOf: file("during"), encoding: .utf8) == sourcesBefore)
        #expect(newerErrors.contains("older.ml replaced by newer.ml"))
        let rewritten = try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8)
        #expect(rewritten.contains("list  newer.ml  root.pem  \(try signingTime("newer.ml"))"))
        #expect(rewritten.contains("\(try sum(file("newer.ml")))  newer.ml"))
        #expect(FileManager.default.fileExists(atPath: bundle.path + ".previous"))
        let listing = try JSONValue.parse(Subprocess.run(emrtd, ["trust", "list"], environment: environment).output)
        #expect(listing["certificates"] == 1)
        #expect(
            listing["lists"] == [
                [
                    "file": "newer.ml", "signingTime": .string(try signingTime("newer.ml")), "certificates": 1,
                    "brought": 1,
                ]
            ])

        let older = try Subprocess.run(emrtd, ["trust", "update", file("older.ml").path], environment: environment)
        #expect(older.status == 3, "\(older.combinedOutput)")
        #expect(older.errorOutput.contains("not after newer.ml"), "\(older.errorOutput)")
        #expect(try String(contentsOf: lists.appendingPathComponent("SOURCES"), encoding: .utf8) == rewritten)
    }
}
