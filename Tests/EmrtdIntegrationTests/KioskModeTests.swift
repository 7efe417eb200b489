import Foundation
import Glibc
import JSON
import TestSupport
import Testing

/// `emrtd read --reader --watch` behind a real pcscd (the simulator's own, `Tools/simulator.sh`)
/// with the simulated card inserted and removed through vpcd several times: one read per card,
/// the MRZ lines of each from standard input, the end of the input ending the loop; a card that
/// leaves mid-read fails that read and the loop goes on; Ctrl-C while waiting ends it too, and
/// the reader reads normally afterwards.
@Suite(.serialized) struct KioskModeTests {
    static let reader = "Virtual PCD 00 00"
    static let zone = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C<3UTO6908061F9406236ZE184226B<<<<<14\n"

    /// A running `emrtd` whose output goes to files (no pipes: see `Subprocess`).
    final class Background {
        let process = Process()
        let output: URL
        let errors: URL

        init(_ arguments: [String], input: URL, directory: URL, environment: [String: String]) throws {
            output = directory.appendingPathComponent("watch.out")
            errors = directory.appendingPathComponent("watch.err")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: PCSCReadTests.emrtd)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        var errorText: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        var outputText: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// Polls until `condition` holds, at most `seconds` (a cap against a hang, not a timing).
        func wait(seconds: Double = 30, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                usleep(50_000)
            }
            return condition()
        }

        func occurrences(of text: String) -> Int { errorText.components(separatedBy: text).count - 1 }

        /// The exit status, or nil (after killing it) when it does not end in time.
        func exitStatus() -> Int32? {
            guard wait(until: { !process.isRunning }) else {
                process.terminate()
                return nil
            }
            return process.terminationStatus
        }
    }

    /// The kiosk as an inspection system: with the terminal group (read by the same
    /// `TerminalOptions` as every read) a card trusting the test PKI (`emrtd cvc make-pki`) gives up
    /// DG3 after Terminal Authentication; without it Terminal Authentication is `notConfigured`.
    @Test func readsDG3AsAnInspectionSystem() throws {
        if PCSCReadTests.skipUnlessRigAvailable() { return }
        let state = try PCSCReadTests.temporaryDirectory("emrtd-kiosk-terminal")
        defer { try? FileManager.default.removeItem(at: state) }
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/simulator.sh").path
        let rig = ["EMRTD_SIMULATOR_STATE": state.path, "EMRTD_BIN": PCSCReadTests.emrtd]
        let pcsc = ["PCSCLITE_CSOCK_NAME": state.appendingPathComponent("run/pcscd.comm").path]
        let pki = state.appendingPathComponent("pki").path
        let made = try Subprocess.run(
            PCSCReadTests.emrtd, ["cvc", "make-pki", pki, "--from", "2026-01-01", "--until", "2027-12-31"])
        try #require(made.status == 0, "\(made.combinedOutput)")
        let chipOptions = ["--terminal-trust-point", pki + "/cvca.cvcert", "--chip-date", "2026-06-01"]
        let terminal = ["--terminal-certificates", pki, "--terminal-key", pki + "/is.pkcs8"]
        // The rich specimen's dump with its DG3 (read as the inspection system) and its CSCA.
        let dump = state.appendingPathComponent("dump")
        let dumped = try Subprocess.run(
            PCSCReadTests.emrtd,
            ["read", "--simulator", "--mrz", "L898902C", "690806", "940623", "--out", dump.path] + chipOptions
                + terminal)
        try #require(dumped.status == 0, "\(dumped.combinedOutput)")
        try #require(FileManager.default.fileExists(atPath: dump.appendingPathComponent("DG3.bin").path))
        let started = try Subprocess.run(script, ["start", dump.path] + chipOptions, environment: rig)
        defer { _ = try? Subprocess.run(script, ["stop"], environment: rig) }
        try #require(started.status == 0, "simulator.sh start: \(started.combinedOutput)")
        let lines = state.appendingPathComponent("lines.txt")
        try Data(Self.zone.utf8).write(to: lines)

        for (options, status) in [(terminal, "succeeded"), ([], "notConfigured")] {
            let watch = try Background(
                [
                    "read", "--reader", Self.reader, "--watch", "--mrz-lines", "-", "--csca",
                    dump.appendingPathComponent("CSCA.der").path, "--no-builtin", "--json",
                ] + options, input: lines, directory: state, environment: pcsc)
            #expect(watch.wait { watch.errorText.contains("read 1 done") }, "\(watch.errorText)")
            let removed = try Subprocess.run(script, ["remove"], environment: rig)
            #expect(removed.status == 0, "\(removed.combinedOutput)")
            #expect(watch.exitStatus() == 0, "\(watch.errorText)")
            let document = try JSONValue.parse(watch.outputText)
            #expect(document["authenticationStatus"]?["terminal"]?["status"] == .string(status), "\(watch.outputText)")
            #expect(document["deniedFiles"] == (options.isEmpty ? .array(["dg3"]) : .array([])))
            if status == "succeeded" {
                let inserted = try Subprocess.run(script, ["insert", dump.path] + chipOptions, environment: rig)
                try #require(inserted.status == 0, "\(inserted.combinedOutput)")
            }
        }
    }

    @Test func readsCardAfterCardUntilTheInputEnds() throws {
        if PCSCReadTests.skipUnlessRigAvailable() { return }
        let state = try PCSCReadTests.temporaryDirectory("emrtd-kiosk")
        defer { try? FileManager.default.removeItem(at: state) }
        let script = Prerequisites.repositoryRoot.appendingPathComponent("Tools/simulator.sh").path
        let rig = ["EMRTD_SIMULATOR_STATE": state.path, "EMRTD_BIN": PCSCReadTests.emrtd]
        let pcsc = ["PCSCLITE_CSOCK_NAME": state.appendingPathComponent("run/pcscd.comm").path]
        // One dump with its CSCA serves every insertion, so every read can be verified.
        let dump = state.appendingPathComponent("dump")
        let dumped = try Subprocess.run(
            PCSCReadTests.emrtd, ["read", "--simulator", "--mrz", "L898902C", "690806", "940623", "--out", dump.path])
        try #require(dumped.status == 0, "\(dumped.combinedOutput)")
        let started = try Subprocess.run(script, ["start", dump.path], environment: rig)
        defer { _ = try? Subprocess.run(script, ["stop"], environment: rig) }
        try #require(started.status == 0, "simulator.sh start: \(started.combinedOutput)")

        let cards = 3
        let lines = state.appendingPathComponent("lines.txt")
        try Data(Array(repeating: Self.zone, count: cards).joined(separator: "\n").utf8).write(to: lines)
        let watch = try Background(
            [
                "read", "--reader", Self.reader, "--watch", "--mrz-lines", "-", "--csca",
                dump.appendingPathComponent("CSCA.der").path, "--no-builtin", "--json", "--report",
                state.appendingPathComponent("kiosk.html").path,
            ], input: lines, directory: state, environment: pcsc)
        for card in 1...cards {
            #expect(watch.wait { watch.errorText.contains("read \(card) done") }, "card \(card): \(watch.errorText)")
            let removed = try Subprocess.run(script, ["remove"], environment: rig)
            #expect(removed.status == 0, "\(removed.combinedOutput)")
            if card < cards {
                #expect(watch.wait { watch.occurrences(of: "waiting for a card") == card + 1 }, "\(watch.errorText)")
                let inserted = try Subprocess.run(script, ["insert", dump.path], environment: rig)
                #expect(inserted.status == 0, "\(inserted.combinedOutput)")
            }
        }
        #expect(watch.exitStatus() == 0, "\(watch.errorText)")
        #expect(watch.errorText.contains("\(cards) cards read; stopped"))
        let documents = watch.outputText.components(separatedBy: "\"accessControlProtocolUsed\"").count - 1
        #expect(documents == cards)
        // Each document's data and chip verdicts.
        #expect(watch.outputText.components(separatedBy: "\"status\": \"authenticated\"").count - 1 == 2 * cards)
        for card in 1...cards {
            #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("kiosk-\(card).html").path))
        }

        // In ONE kiosk process: a card that leaves mid-read fails that read only (a clear
        // message, the JSON error's `tagLost`), the next card inserted into the same process is
        // read, and so are the cards of several more insert/remove cycles; Ctrl-C while waiting
        // ends the loop with status 0, and the reader reads normally afterwards.
        let empty = state.appendingPathComponent("empty.txt")
        _ = FileManager.default.createFile(atPath: empty.path, contents: nil)
        let kiosk = try Background(
            [
                "read", "--reader", Self.reader, "--watch", "--mrz", "L898902C", "690806", "940623", "--csca",
                dump.appendingPathComponent("CSCA.der").path, "--no-builtin", "--json",
            ], input: empty, directory: state, environment: pcsc)
        // The card that leaves arrives while the kiosk waits: the kiosk takes it at once, so
        // `simulator.sh insert` never connects to it (the reader's event counter tells it came).
        #expect(kiosk.wait { kiosk.occurrences(of: "waiting for a card") == 1 }, "\(kiosk.errorText)")
        let leaving = try Subprocess.run(script, ["insert", dump.path, "--leave-mid-read"], environment: rig)
        try #require(leaving.status == 0, "\(leaving.combinedOutput)")
        #expect(kiosk.wait { kiosk.errorText.contains("read 1 failed") }, "\(kiosk.errorText)")
        #expect(kiosk.outputText.contains("\"type\": \"tagLost\""), "\(kiosk.outputText)")
        #expect(kiosk.outputText.contains("the chip was lost"), "\(kiosk.outputText)")
        let later = 4
        for card in 2...later {
            #expect(kiosk.wait { kiosk.occurrences(of: "waiting for a card") == card }, "\(kiosk.errorText)")
            let inserted = try Subprocess.run(script, ["insert", dump.path], environment: rig)
            #expect(inserted.status == 0, "card \(card): \(inserted.combinedOutput)")
            #expect(kiosk.wait { kiosk.errorText.contains("read \(card) done") }, "card \(card): \(kiosk.errorText)")
            // Its JSON is out as soon as it is read (a consumer of the kiosk's output need not wait).
            let documents = kiosk.outputText.components(separatedBy: "\"accessControlProtocolUsed\"").count - 1
            #expect(documents == card - 1, "card \(card): \(kiosk.outputText)")
            let removed = try Subprocess.run(script, ["remove"], environment: rig)
            #expect(removed.status == 0, "\(removed.combinedOutput)")
        }
        #expect(kiosk.wait { kiosk.occurrences(of: "waiting for a card") == later + 1 }, "\(kiosk.errorText)")
        kill(kiosk.process.processIdentifier, SIGINT)
        #expect(kiosk.exitStatus() == 0, "\(kiosk.errorText)")
        #expect(kiosk.errorText.contains("\(later) cards read; stopped"), "\(kiosk.errorText)")
        #expect(!kiosk.errorText.contains("read \(later + 1)"))
        // Every card after the one that left: its document, data and chip authenticated.
        let read = kiosk.outputText.components(separatedBy: "\"accessControlProtocolUsed\"").count - 1
        #expect(read == later - 1, "\(kiosk.outputText)")
        #expect(kiosk.outputText.components(separatedBy: "\"status\": \"authenticated\"").count - 1 == 2 * (later - 1))
        _ = try Subprocess.run(script, ["insert", dump.path], environment: rig)
        let after = try Subprocess.run(
            PCSCReadTests.emrtd,
            ["read", "--reader", Self.reader, "--mrz", "L898902C", "690806", "940623", "--no-builtin", "--json"],
            environment: pcsc)
        #expect(after.status == 0, "\(after.combinedOutput)")
    }
}
