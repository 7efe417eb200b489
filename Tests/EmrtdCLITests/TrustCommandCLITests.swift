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
}
