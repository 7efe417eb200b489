import Foundation
import JSON
import TestSupport
import Testing

/// The `emrtd` executable as a user runs it: its exit statuses (0 done, 1 failed, 2 usage,
/// 3 not verified) and its JSON, on the ICAO specimens and the real documents in ../shared.
@Suite struct CLITests {
    static func emrtd() -> String? { Prerequisites.builtExecutable("emrtd") }

    @Test func helpVersionAndUsageErrors() throws {
        guard let emrtd = Self.emrtd() else { return }
        let help = try Subprocess.run(emrtd, ["--help"])
        #expect(help.status == 0)
        for command in [
            "mrz", "parse", "verify", "certs", "masterlist", "readers", "dump", "read", "simulate", "serve", "relay",
            "cvc",
        ] {
            #expect(help.output.contains("  \(command) "), "--help does not list \(command)")
        }
        #expect(try Subprocess.run(emrtd, ["--version"]).output.hasPrefix("emrtd "))
        #expect(help.output.contains("exit status (every command):"))
        let unknown = try Subprocess.run(emrtd, ["frobnicate"])
        #expect(unknown.status == 2 && unknown.errorOutput.contains("unknown command"))
        // A usage error is one line saying what is wrong and where the usage is, not the usage.
        let badOption = try Subprocess.run(emrtd, ["verify", "--sod"])
        #expect(badOption.status == 2)
        #expect(badOption.errorOutput == "emrtd verify: --sod takes 1 value (see 'emrtd verify --help')\n")
    }

    /// The simulated chip's options belong to `--simulator`; without them `--reader` is a read
    /// (here one that finds no pcscd), not a usage error, whatever the chip options' defaults.
    @Test func readerReadsTakeNoChipOptions() throws {
        guard let emrtd = Self.emrtd() else { return }
        let noService = ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"]
        for key in [["--can", "123456"], ["--mrz", "L898902C", "690806", "940623"]] {
            let read = try Subprocess.run(emrtd, ["read", "--reader", "Some Reader"] + key, environment: noService)
            #expect(read.status == 1, "\(key): \(read.combinedOutput)")
            // A reader that is not there is the reference's `NfcUnavailable`.
            #expect(
                read.errorOutput.hasPrefix("emrtd read: the card reader is unavailable: cannot reach the card"),
                "\(read.errorOutput)")
        }
        let json = try Subprocess.run(
            emrtd, ["read", "--reader", "Some Reader", "--can", "123456", "--json"], environment: noService)
        #expect(json.status == 1)
        #expect(try JSONValue.parse(json.output)["code"] == "nfc_unavailable", "\(json.combinedOutput)")
        for chipOption in [
            ["--chip-can", "123456"], ["--no-pace"], ["--pace-only"], ["--pace", "ECDH-GM-AES-128"],
            ["--chip-authentication", "DH-3DES:0"], ["--no-active-authentication"], ["--chip-fault", "clone"],
            ["--explicit-domain-parameters"],
        ] {
            let read = try Subprocess.run(
                emrtd, ["read", "--reader", "Some Reader", "--can", "123456"] + chipOption, environment: noService)
            #expect(read.status == 2, "\(chipOption): \(read.combinedOutput)")
            #expect(read.errorOutput.contains("describe the simulated chip (--simulator)"))
        }
    }

    @Test func mrzPrintsTheSpecimenAndRefusesGarbage() throws {
        guard let emrtd = Self.emrtd() else { return }
        let result = try Subprocess.run(
            emrtd,
            [
                "mrz", "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6",
                "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
            ])
        #expect(result.status == 0)
        let zone = try JSONValue.parse(result.output)
        #expect(zone["travelDocumentType"] == "td1")
        #expect(zone["td1"]?["documentNumber"]?["value"] == "D23145890")
        #expect(zone["td1"]?["name"]?["secondaryIdentifier"]?["value"] == "ANNA MARIA")
        let garbage = try Subprocess.run(emrtd, ["mrz", "HELLO"])
        #expect(garbage.status == 1 && garbage.errorOutput.split(separator: "\n").count == 1)
    }

    @Test func verifyALoneSODAgainstItsCSCA() throws {
        guard let emrtd = Self.emrtd(), let folder = Prerequisites.shared("data/gmrtd/sod_samples") else { return }
        let sod = folder.appendingPathComponent("FR_EF_SOD.bin").path
        let trusted = try Subprocess.run(
            emrtd,
            ["verify", "--sod", sod, "--csca", folder.appendingPathComponent("FR_CSCA.der").path, "--no-builtin"])
        // The data groups are absent: their hashes come out notRead, the signature and chain hold,
        // and without DG1 and DG2 the data is not authenticated.
        #expect(trusted.status == 3)
        let verdict = try JSONValue.parse(trusted.output)
        #expect(verdict["status"] == "denied" && verdict["dataGroupsChecked"] == 0)
        #expect(verdict["sodSignatureValid"] == true && verdict["certificateChainValid"] == true)
        #expect(verdict["issuingCountry"] == "FR")
        guard case .array(let hashes)? = verdict["dataGroupHashes"] else {
            Issue.record("no dataGroupHashes")
            return
        }
        #expect(hashes.allSatisfy { $0["status"] == "notRead" } && hashes.count == 7)
        let untrusted = try Subprocess.run(
            emrtd,
            ["verify", "--sod", sod, "--csca", folder.appendingPathComponent("DE_CSCA.der").path, "--no-builtin"])
        #expect(untrusted.status == 3)
        let untrustedVerdict = try JSONValue.parse(untrusted.output)
        #expect(untrustedVerdict["status"] == "denied" && untrustedVerdict["certificateChainValid"] == false)
        #expect(untrusted.errorOutput.isEmpty, "a CSCA was given: \(untrusted.errorOutput)")
    }

    @Test func certsAndParseReadEverySOD() throws {
        guard let emrtd = Self.emrtd(), let folder = Prerequisites.shared("data/gmrtd/sod_samples") else { return }
        let certs = try Subprocess.run(emrtd, ["certs", folder.appendingPathComponent("UK_DSC.der").path])
        #expect(certs.status == 0)
        guard case .array(let infos) = try JSONValue.parse(certs.output) else {
            Issue.record("certs printed no array")
            return
        }
        #expect(infos.count == 1 && infos.first?["country"] == "GB")
        let parsed = try Subprocess.run(emrtd, ["parse", folder.appendingPathComponent("DE_EF_SOD.bin").path])
        #expect(parsed.status == 0)
        let sod = try JSONValue.parse(parsed.output)
        #expect(sod["kind"] == "sod" && sod["model"]?["hashAlgorithm"] == "SHA-384")
    }

    @Test func masterListCountsAndVerifies() throws {
        guard let emrtd = Self.emrtd(), let folder = Prerequisites.shared("data/gmrtd/master_list") else { return }
        let list = folder.appendingPathComponent("NL_ML_2026-07-22.ml").path
        let verified = try Subprocess.run(
            emrtd, ["masterlist", list, "--ml-root", folder.appendingPathComponent("NL_ROOT_CA.cer").path])
        #expect(verified.status == 0, "\(verified.combinedOutput)")
        #expect(try JSONValue.parse(verified.output)["certificates"] == 411)
        let wrongRoot = try Subprocess.run(
            emrtd, ["masterlist", list, "--ml-root", folder.appendingPathComponent("DE_ROOT_CA_CSCA07.cer").path])
        #expect(wrongRoot.status == 3)
    }

    /// `parse --images` writes a JPEG 2000 face and its PNG rendering; `--no-render` keeps the
    /// face's bytes and size in the JSON and the image file, and leaves the PNG out of both.
    @Test func parseRendersImagesUnlessToldNot() throws {
        guard let emrtd = Self.emrtd(), let file = Prerequisites.shared("data/jmrtd/bsi2008/Datagroup2.bin") else {
            return
        }
        func faceImage(_ output: String) throws -> JSONValue? {
            try JSONValue.parse(output)["model"]?["faceImage"]
        }
        var faces: [JSONValue] = []
        for extra in [[], ["--no-render"]] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parse-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try Subprocess.run(emrtd, ["parse", file.path, "--images", directory.path] + extra)
            #expect(result.status == 0, "\(result.combinedOutput)")
            let face = try #require(try faceImage(result.output))
            let written = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            if extra.isEmpty {
                #expect(face["png"] != JSONValue.null)
                #expect(written == ["dg2-1.jp2", "dg2-1.png"])
            } else {
                #expect(face["png"] == JSONValue.null)
                #expect(written == ["dg2-1.jp2"])
            }
            faces.append(face)
        }
        for key in ["format", "size", "bytes"] {
            #expect(faces[0][key] == faces[1][key], "\(key) differs without rendering")
        }
        #expect(faces[0]["size"]?["width"] == 413)
    }
}

/// `emrtd read --report` and `--out`: the HTML page, and a dump that verifies later against the
/// simulator's CSCA written beside it.
@Suite struct ReportCLITests {
    @Test func readWritesTheReportAndADumpThatVerifies() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("read.html")
        let dump = directory.appendingPathComponent("dump")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let read = try Subprocess.run(
            emrtd,
            [
                "read", "--simulator", "--mrz", "L898902C", "690806", "940623", "--report", report.path, "--out",
                dump.path,
            ])
        #expect(read.status == 0, "\(read.combinedOutput)")
        let page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("ANNA MARIA ERIKSSON"))
        #expect(page.contains("APDU timeline") && page.contains("data:image/jpeg;base64,"))
        let verify = try Subprocess.run(
            emrtd,
            ["verify", "--dir", dump.path, "--csca", dump.appendingPathComponent("CSCA.der").path, "--no-builtin"])
        #expect(verify.status == 0, "\(verify.combinedOutput)")
        #expect(try JSONValue.parse(verify.output)["status"] == "authenticated")

        // The dump's report, verified again: its CSCA named, then only lying beside it (never trusted).
        let again = directory.appendingPathComponent("again.html")
        let reported = try Subprocess.run(
            emrtd,
            [
                "report", dump.path, "--no-builtin", "--csca", dump.appendingPathComponent("CSCA.der").path, "--report",
                again.path,
            ])
        #expect(reported.status == 0, "\(reported.combinedOutput)")
        #expect(try String(contentsOf: again, encoding: .utf8).contains("badge authenticated"))
        let untrusted = try Subprocess.run(emrtd, ["report", dump.path, "--no-builtin", "--report", again.path])
        #expect(untrusted.status == 0, "\(untrusted.combinedOutput)")
        #expect(try String(contentsOf: again, encoding: .utf8).contains("badge authorityCertificatesNotProvided"))
        let nothing = try Subprocess.run(emrtd, ["report", directory.appendingPathComponent("absent").path])
        #expect(nothing.status == 1)
    }
}

/// Options as a user writes them: `--opt=value`, a repeated flag, `--` before a positional that
/// starts with `-`.
@Suite struct OptionSyntaxCLITests {
    @Test func equalsRepeatedFlagsAndSeparator() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let equals = try Subprocess.run(
            emrtd, ["read", "--simulator", "--can=123456", "--access=pace", "--json", "--json", "--no-render"])
        #expect(equals.status == 0, "\(equals.combinedOutput)")
        #expect(try JSONValue.parse(equals.output)["accessControlProtocolUsed"] == "pace")
        let unknown = try Subprocess.run(emrtd, ["parse", "-weird-name"])
        #expect(unknown.status == 2 && unknown.errorOutput.contains("unknown option -weird-name"))
        let separated = try Subprocess.run(emrtd, ["parse", "--", "-weird-name"])
        #expect(separated.status == 1 && separated.errorOutput.contains("cannot read -weird-name"))
    }
}

/// The trust group (`--csca`, `--masterlist` with `--ml-root`, `--no-builtin`, `--at`) is the same
/// option group on every command that verifies: `read`, `report`, `verify`.
@Suite struct TrustGroupCLITests {
    @Test func everyVerifyingCommandTakesTheTrustGroup() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump")
        let specimen = ["--simulator", "--mrz", "L898902C", "690806", "940623"]
        let read = try Subprocess.run(emrtd, ["read"] + specimen + ["--out", dump.path])
        try #require(read.status == 0, "\(read.combinedOutput)")
        let csca = dump.appendingPathComponent("CSCA.der").path
        let commands: [[String]] = [
            ["read", "--simulator", dump.path, "--mrz", "L898902C", "690806", "940623", "--json"],
            ["report", dump.path, "--report", directory.appendingPathComponent("r.html").path],
            ["verify", "--dir", dump.path],
        ]
        for command in commands {
            let unpaired = try Subprocess.run(emrtd, command + ["--masterlist", "x.ml"])
            #expect(unpaired.status == 2 && unpaired.errorOutput.contains("--ml-root"), "\(command[0])")
            let trusted = try Subprocess.run(emrtd, command + ["--csca", csca, "--no-builtin"])
            #expect(trusted.status == 0, "\(command[0]): \(trusted.combinedOutput)")
            // Before the specimen's certificates were issued, the chain does not hold.
            let early = try Subprocess.run(emrtd, command + ["--csca=\(csca)", "--no-builtin", "--at", "2020-01-01"])
            #expect(early.status == (command[0] == "verify" ? 3 : 0), "\(command[0]): \(early.combinedOutput)")
            if command[0] == "read" {
                #expect(try JSONValue.parse(early.output)["authenticationStatus"]?["data"]?["status"] == "denied")
            }
        }
    }
}

/// The reader group (`--reader`, `--wait`, `--timeout`) on `read`, `dump` and `relay` (whose
/// `--server-timeout`, in seconds, bounds each wait for the server).
@Suite struct ReaderGroupCLITests {
    @Test func readDumpAndRelayTakeTheReaderGroup() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let noService = ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"]
        let key = ["--mrz", "L898902C", "690806", "940623"]
        let commands = [
            ["read"] + key, ["dump", "--out", FileManager.default.temporaryDirectory.path] + key,
            ["relay", "--server", "ws://127.0.0.1:9/ws/validate", "--client-id", "cli"] + key,
        ]
        for command in commands {
            let badWait = try Subprocess.run(emrtd, command + ["--reader", "x", "--wait", "soon"])
            #expect(badWait.status == 2 && badWait.errorOutput.contains("--wait takes seconds"), "\(command[0])")
            let badTimeout = try Subprocess.run(emrtd, command + ["--reader", "x", "--timeout=0"])
            #expect(badTimeout.status == 2 && badTimeout.errorOutput.contains("--timeout"), "\(command[0])")
            let noReader = try Subprocess.run(
                emrtd, command + ["--reader", "x", "--wait", "0.1", "--timeout", "100"], environment: noService)
            #expect(noReader.status == 1, "\(command[0]): \(noReader.combinedOutput)")
        }
        let simulated =
            ["relay", "--simulator", "--server", "ws://127.0.0.1:9/ws/validate", "--client-id", "cli"] + key
        let timeoutWithoutReader = try Subprocess.run(emrtd, simulated + ["--timeout", "100"])
        #expect(timeoutWithoutReader.status == 2 && timeoutWithoutReader.errorOutput.contains("--reader"))
        let badServerTimeout = try Subprocess.run(emrtd, simulated + ["--server-timeout", "0"])
        #expect(badServerTimeout.status == 2 && badServerTimeout.errorOutput.contains("--server-timeout"))
    }
}
