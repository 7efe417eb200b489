import Foundation
import JSON
import TestSupport
import Testing

/// The verdicts a script acts on, as `emrtd` gives them: no `authenticated` over missing data, the
/// page compared with the chip, MRZ validity and expiry, strict mode, the trust store found (or
/// missed, and said) wherever emrtd runs, bounded input, and the exit-status table.
@Suite struct VerdictCLITests {
    static let specimenLines = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061F9406236ZE184226B<<<<<14",
    ]
    /// Another holder on the same document number and dates (name and sex differ).
    static let otherHolderLines = [
        "P<UTOERIKSSON<<JOHN<<<<<<<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061M9406236ZE184226B<<<<<14",
    ]

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func errors(_ verdict: JSONValue) -> [String] {
        guard case .array(let errors)? = verdict["errors"] else { return [] }
        return errors.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// A folder holding EF.SOD and DG14 only (Austria's real ones): the signature and the chain
    /// verify, DG14 matches, yet without DG1 and DG2 the data is not authenticated, exit 3.
    @Test func aDumpWithoutDG1AndDG2IsNotAuthenticated() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let samples = Prerequisites.shared("data/gmrtd/sod_samples"),
            let dg1 = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup1.bin")
        else { return }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("AT_EF_SOD.bin"), to: folder.appendingPathComponent("SOD.bin"))
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("AT_DG14.bin"), to: folder.appendingPathComponent("DG14.bin"))
        // DG1 under a name the dump layout does not have: said, not silently skipped.
        try FileManager.default.copyItem(at: dg1, to: folder.appendingPathComponent("EF_DG1.bin"))
        let csca = samples.appendingPathComponent("AT_CSCA.der").path
        for strictness in [[], ["--strict"], ["--require", "authenticated"]] {
            let result = try Subprocess.run(
                emrtd,
                ["verify", "--dir", folder.path, "--csca", csca, "--no-builtin", "--at", "2026-06-01"] + strictness)
            #expect(result.status == 3, "\(strictness): \(result.combinedOutput)")
            let verdict = try JSONValue.parse(result.output)
            #expect(verdict["status"] == "denied")
            #expect(verdict["sodSignatureValid"] == true && verdict["certificateChainValid"] == true)
            #expect(verdict["dataGroupsChecked"] == 1 && verdict["checks"]?["dataGroupsChecked"] == 1)
            #expect(Self.errors(verdict).filter { $0.contains("is mandatory but was not checked") }.count == 2)
            #expect(result.errorOutput.contains("EF_DG1.bin is not a file name of the dump layout"))
            if !strictness.isEmpty {
                #expect(result.errorOutput.contains("strict mode: the data is denied, not authenticated"))
            }
        }
    }

    /// A lone EF.SOD that is not one is unreadable input (1), naming the file; not a verdict (3).
    @Test func anUnreadableSODIsAnInputError() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let dg1 = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup1.bin")
        else { return }
        let result = try Subprocess.run(emrtd, ["verify", "--sod", dg1.path, "--no-builtin"])
        #expect(result.status == 1, "\(result.combinedOutput)")
        #expect(result.errorOutput.hasPrefix("emrtd verify: \(dg1.path) is not a readable EF.SOD"))
        #expect(!result.errorOutput.contains("CMSError") && result.errorOutput.split(separator: "\n").count == 1)
    }

    /// No trusted CSCA at all: one line on stderr and in the JSON's warnings.
    @Test func noTrustedCSCAIsSaid() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let samples = Prerequisites.shared("data/gmrtd/sod_samples")
        else { return }
        let result = try Subprocess.run(
            emrtd, ["verify", "--sod", samples.appendingPathComponent("FR_EF_SOD.bin").path, "--no-builtin"])
        #expect(result.status == 3)
        let lines = result.errorOutput.split(separator: "\n").filter { $0.contains("no CSCA is trusted") }
        #expect(lines.count == 1, "\(result.errorOutput)")
        guard case .array(let warnings)? = try JSONValue.parse(result.output)["warnings"] else {
            Issue.record("no warnings in \(result.output)")
            return
        }
        #expect(
            warnings.contains { if case .string(let text) = $0 { text.contains("no CSCA is trusted") } else { false } })
    }

    /// A read with no trusted CSCA says so once on stderr and in the document's warnings.
    @Test func aReadWithoutAnyCSCASaysSo() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = try Subprocess.run(
            emrtd, ["read", "--simulator", "--no-render", "--can", "123456", "--out", folder.path])
        #expect(dump.status == 0, "\(dump.combinedOutput)")
        // A dump holds no chip keys: leave out the chip protocols' files and open it with BAC.
        for file in ["DG14.bin", "DG15.bin", "CardSecurity.bin", "CardAccess.bin", "face-1.jpg"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        }
        let read = try Subprocess.run(
            emrtd,
            ["read", "--simulator", folder.path, "--no-render", "--no-builtin", "--json", "--mrz-lines"]
                + Self.specimenLines)
        #expect(read.status == 0, "\(read.combinedOutput)")
        #expect(read.errorOutput.split(separator: "\n").filter { $0.contains("no CSCA is trusted") }.count == 1)
        let document = try JSONValue.parse(read.output)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authorityCertificatesNotProvided")
        guard case .array(let warnings)? = document["warnings"] else {
            Issue.record("no warnings")
            return
        }
        #expect(
            warnings.contains { if case .string(let text) = $0 { text.hasPrefix("no CSCA is trusted") } else { false } }
        )
    }

    /// The page against the chip: another holder's printed MRZ opens the chip (same number and
    /// dates) and is authenticated data, but the difference is reported field by field, and
    /// strict mode refuses it.
    @Test func aPrintedMRZOfAnotherHolderIsReported() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let plain = try Subprocess.run(
            emrtd, ["read", "--simulator", "--no-render", "--json", "--mrz-lines"] + Self.otherHolderLines)
        #expect(plain.status == 0, "\(plain.combinedOutput)")
        let document = try JSONValue.parse(plain.output)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authenticated")
        let comparison = document["checks"]?["pageComparison"]
        #expect(comparison?["matches"] == false)
        guard case .array(let differences)? = comparison?["differences"] else {
            Issue.record("no differences in \(plain.output)")
            return
        }
        #expect(differences.map { $0["field"] } == ["secondaryIdentifier", "sex"])
        #expect(
            plain.errorOutput.contains("the printed MRZ differs from the chip's (DG1) in: secondaryIdentifier, sex"))
        #expect(!plain.errorOutput.contains("JOHN"), "the warning must not repeat MRZ text")

        for strictness in [["--strict"], ["--require", "authenticated"]] {
            let strict = try Subprocess.run(
                emrtd, ["read", "--simulator", "--no-render", "--mrz-lines"] + Self.otherHolderLines + strictness)
            #expect(strict.status == 3, "\(strictness): \(strict.combinedOutput)")
            #expect(strict.errorOutput.contains("strict mode: the printed MRZ differs from the chip's"))
            #expect(strict.output.contains("page:      differs from the chip's in secondaryIdentifier, sex"))
        }
        let badRequirement = try Subprocess.run(
            emrtd, ["read", "--simulator", "--mrz-lines"] + Self.specimenLines + ["--require", "everything"])
        #expect(badRequirement.status == 2)
    }

    /// The matching page passes the comparison; the specimen expired in 1994, which strict mode
    /// refuses and the JSON states with the ISO date beside the raw one.
    @Test func theSpecimenMatchesItsPageButHasExpired() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let result = try Subprocess.run(
            emrtd, ["read", "--simulator", "--no-render", "--json", "--strict", "--mrz-lines"] + Self.specimenLines)
        #expect(result.status == 3, "\(result.combinedOutput)")
        let checks = try JSONValue.parse(result.output)["checks"]
        #expect(checks?["pageComparison"]?["matches"] == true)
        #expect(checks?["expired"] == true)
        #expect(checks?["mrzValidity"]?["dateOfExpiry"]?["raw"] == "940623")
        #expect(checks?["mrzValidity"]?["dateOfExpiry"]?["isoDate"] == "1994-06-23")
        #expect(checks?["mrzValidity"]?["checkDigitsValid"] == true)
        #expect(checks?["strict"]?["unmet"] == ["the document has expired"])
        #expect(result.errorOutput.contains("the document expired on 1994-06-23"))
    }

    /// `emrtd mrz`: a failed check digit exits 3 with the JSON printed all the same; an impossible
    /// date too; a good zone 0.
    @Test func mrzExitsNonZeroOnAFailedCheckDigit() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let good = try Subprocess.run(emrtd, ["mrz"] + Self.specimenLines + ["--at", "1990-01-01"])
        #expect(good.status == 0, "\(good.combinedOutput)")
        let goodZone = try JSONValue.parse(good.output)
        #expect(goodZone["validity"]?["checkDigitsValid"] == true && goodZone["validity"]?["expired"] == false)
        #expect(goodZone["validity"]?["dateOfBirth"]?["isoDate"] == "1969-08-06")

        let badDigit = try Subprocess.run(
            emrtd, ["mrz", Self.specimenLines[0], "L898902C<4UTO6908061F9406236ZE184226B<<<<<14"])
        #expect(badDigit.status == 3)
        let zone = try JSONValue.parse(badDigit.output)
        #expect(
            zone["validity"]?["checkDigitsValid"] == false && zone["validity"]?["compositeCheckDigitValid"] == false)
        #expect(badDigit.errorOutput.contains("the check digit of the document number does not match"))

        // Month 13 with every check digit right: still not a valid zone.
        let impossible = try Subprocess.run(
            emrtd,
            [
                "mrz", "I<UTOD231458907<<<<<<<<<<<<<<<", "7413128F1204159UTO<<<<<<<<<<<6",
                "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
            ])
        #expect(impossible.status == 3, "\(impossible.combinedOutput)")
        #expect(impossible.errorOutput.contains("the date of birth is not a possible date"))
    }

    /// Input larger than anything it can be is refused before it is read: 200 MB on stdin for
    /// `mrz`, a 200 MB file for `parse` and `verify`.
    @Test func oversizedInputIsRefusedUnread() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        let stdin = try Subprocess.run(
            "/bin/sh", ["-c", "head -c 200000000 /dev/zero 2>/dev/null | tr '\\0' A 2>/dev/null | \"$0\" mrz", emrtd])
        #expect(stdin.status == 1, "\(stdin.combinedOutput)")
        #expect(stdin.errorOutput == "emrtd mrz: standard input holds more than an MRZ can be (4096 bytes)\n")

        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("SOD.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 200_000_000)  // sparse: nothing is written
        try handle.close()
        for arguments in [["parse", big.path], ["verify", "--sod", big.path, "--no-builtin"]] {
            let result = try Subprocess.run(emrtd, arguments)
            #expect(result.status == 1, "\(arguments): \(result.combinedOutput)")
            #expect(result.errorOutput.contains("holds 200000000 bytes, more than an LDS file can be (16 MiB)"))
        }
        let directory = try Subprocess.run(emrtd, ["parse", folder.path])
        #expect(directory.status == 1 && directory.errorOutput.contains("is a directory"))
    }

    /// A parser given another file says what it found, with no Swift type names.
    @Test func aFileOfAnotherKindIsNamed() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let dg16 = Prerequisites.shared("data/gmrtd/dg/DG16_icao_example.bin")
        else { return }
        let result = try Subprocess.run(emrtd, ["parse", dg16.path, "--as", "dg15"])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("is not a readable DG15") && result.errorOutput.contains("try --as dg16"))
        let asSOD = try Subprocess.run(emrtd, ["parse", dg16.path, "--as", "sod"])
        #expect(asSOD.status == 1 && !asSOD.errorOutput.contains("CMSError"), "\(asSOD.errorOutput)")
        // A bare ISO/IEC 39794-5 record shares DG5's first byte: not an empty DG5, but named.
        if let record = Prerequisites.shared("data/jmrtd/iso39794/sample-39794-5-ed-1-v1.der") {
            let bare = try Subprocess.run(emrtd, ["parse", record.path])
            #expect(bare.status == 1)
            #expect(bare.errorOutput.contains("it looks like an ISO/IEC 39794-5 face record"), "\(bare.errorOutput)")
        }
    }

    /// `EMRTD_CSCA_BUNDLE` naming a missing file is an error, for verify as for read.
    @Test func aMissingBundleVariableIsAnError() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            let samples = Prerequisites.shared("data/gmrtd/sod_samples")
        else { return }
        let environment = ["EMRTD_CSCA_BUNDLE": "/nonexistent/csca.pem"]
        let verify = try Subprocess.run(
            emrtd, ["verify", "--sod", samples.appendingPathComponent("FR_EF_SOD.bin").path], environment: environment)
        #expect(verify.status == 1)
        #expect(verify.errorOutput.contains("EMRTD_CSCA_BUNDLE names /nonexistent/csca.pem, which does not exist"))
        let read = try Subprocess.run(emrtd, ["read", "--simulator", "--can", "123456"], environment: environment)
        #expect(read.status == 1 && read.errorOutput.contains("EMRTD_CSCA_BUNDLE names /nonexistent/csca.pem"))
    }

    /// An installed emrtd (a copy outside the repository, run from elsewhere) finds no bundle
    /// until `masterlist import` writes one into the XDG data directory, where verify then finds
    /// it; a master list without a root, or against a wrong one, is not verified (3).
    @Test func anInstalledEmrtdImportsAndFindsItsBundle() throws {
        guard let built = Prerequisites.builtExecutable("emrtd"),
            let lists = Prerequisites.shared("data/gmrtd/master_list"),
            let samples = Prerequisites.shared("data/gmrtd/sod_samples")
        else { return }
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let installed = home.appendingPathComponent("bin/emrtd")
        try FileManager.default.createDirectory(
            at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Copied by cp, not in this process: a write descriptor open here would leak into the
        // other tests' concurrent spawns and make the copy "Text file busy" when it is run.
        #expect(try Subprocess.run("/bin/cp", [built, installed.path]).status == 0)
        let environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_DATA_DIRS": home.appendingPathComponent("system").path, "EMRTD_CSCA_BUNDLE": "",
        ]
        func run(_ arguments: [String]) throws -> Subprocess.Result {
            // From the temporary home, so that the working directory is no checkout either.
            try Subprocess.run(
                "/bin/sh", ["-c", "cd \"$HOME\" && exec \"$0\" \"$@\"", installed.path] + arguments,
                environment: environment)
        }
        let sod = samples.appendingPathComponent("NZ_EF_SOD.bin").path
        let before = try run(["verify", "--sod", sod])
        #expect(before.status == 3)
        #expect(before.errorOutput.contains("no CSCA is trusted (no CSCA bundle in "), "\(before.errorOutput)")
        #expect(before.errorOutput.contains(home.appendingPathComponent("data/emrtd/csca.pem").path))

        let list = lists.appendingPathComponent("NL_ML_2026-07-22.ml").path
        let unrooted = try run(["masterlist", list])
        #expect(unrooted.status == 3 && unrooted.errorOutput.contains("without --ml-root"))
        let wrongRoot = try run(
            ["masterlist", "import", list, "--ml-root", lists.appendingPathComponent("DE_ROOT_CA_CSCA07.cer").path])
        #expect(wrongRoot.status == 3 && wrongRoot.errorOutput.contains("nothing imported"))
        let imported = try run(
            ["masterlist", "import", list, "--ml-root", lists.appendingPathComponent("NL_ROOT_CA.cer").path])
        #expect(imported.status == 0, "\(imported.combinedOutput)")
        let bundle = home.appendingPathComponent("data/emrtd/csca.pem").path
        #expect(FileManager.default.fileExists(atPath: bundle))

        let after = try run(["verify", "--sod", sod, "--at", "2026-06-01"])
        let verdict = try JSONValue.parse(after.output)
        #expect(verdict["certificateChainValid"] == true, "\(after.combinedOutput)")
        #expect(!after.errorOutput.contains("no CSCA is trusted"))
    }
}
