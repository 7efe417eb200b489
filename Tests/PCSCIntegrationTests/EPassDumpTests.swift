import ASN1
import AccessControl
import Foundation
import Glibc
import LDS
import MRZ
import PCSC
import TestSupport
import Testing
import Transport

/// `emrtd dump` and the library under it against the third-party ePass emulator behind pcscd. The
/// expected bytes come from an independent client, the peers' Python BAC reader, in the same run.
@Suite(.serialized) struct EPassDumpTests {
    /// EF.COM, DG1 and DG2 as `bac_read.py`'s BAC and secure messaging read them (chunks of 223).
    static func referenceFiles() throws -> [String: [UInt8]]? {
        let script = """
            import sys
            sys.path.insert(0, sys.argv[1])
            import bac_read as b, epass_probe as p, hashlib
            b.self_test()
            info = "L898902C<" + b.check_digit("L898902C<") + "690806" + b.check_digit("690806") \\
                + "940623" + b.check_digit("940623")
            seed = hashlib.sha1(info.encode()).digest()[:16]
            card = p.connect("\(EPassEmulator.readerName)")
            sm = p.bac(card, b.kdf(seed, 1), b.kdf(seed, 2))
            for name, fid in (("COM", b"\\x01\\x1e"), ("DG1", b"\\x01\\x01"), ("DG2", b"\\x01\\x02")):
                print(name, b.read_file_sm(sm, fid).hex())
            """
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script, EPassEmulator.peers.path])
        guard result.status == 0 else {
            Prerequisites.unavailable("a working Python reference client (\(result.combinedOutput))")
            return nil
        }
        var files: [String: [UInt8]] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let bytes = Hex.decode(String(parts[1])) else { continue }
            files[String(parts[0])] = bytes
        }
        guard files.count == 3 else {
            Issue.record("the Python reference client printed \(result.output)")
            return nil
        }
        return files
    }

    static func emrtdExecutable() -> String? { Prerequisites.builtExecutable("emrtd") }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-dump-\(UUID().uuidString)")
    }

    @Test func dumpReadsWhatTheEmulatorServesTwentyTimesInARow() throws {
        guard let emrtd = Self.emrtdExecutable() else { return }
        try EPassEmulator.run {
            guard let reference = try Self.referenceFiles() else { return }
            for run in 1...20 {
                let directory = Self.temporaryDirectory()
                defer { try? FileManager.default.removeItem(at: directory) }
                // --reader omitted: the ePass is the only reader holding a card.
                let result = try Subprocess.run(
                    emrtd, ["dump", "--mrz", "L898902C<", "690806", "940623", "--out", directory.path])
                // The ePass's EF.COM does not parse (and it holds no EF.SOD): by the reference's
                // rules the read fails there, every time, and what was read is kept in the dump.
                #expect(result.status == 1, "run \(run): \(result.combinedOutput)")
                #expect(result.errorOutput.contains("the files read do not make a document: EF.COM is malformed"))
                let written = try? [UInt8](Data(contentsOf: directory.appendingPathComponent("COM.bin")))
                #expect(written == reference["COM"], "run \(run): COM.bin differs")
                if result.status != 1 { break }
            }
        }
    }

    @Test func aWrongMRZFailsCleanlyAndTheNextReadWorks() throws {
        guard let emrtd = Self.emrtdExecutable() else { return }
        try EPassEmulator.run {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let wrong = try Subprocess.run(
                emrtd,
                [
                    "dump", "--reader", EPassEmulator.readerName, "--mrz", "L898902C<", "690806", "940624", "--out",
                    directory.path, "--debug",
                ])
            #expect(wrong.status == 1)
            #expect(wrong.combinedOutput.contains("access control failed: BAC failed"))
            #expect(wrong.combinedOutput.contains("6988"))
            #expect(wrong.combinedOutput.contains("<40 bytes redacted>"))
            #expect((try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty ?? true)
            let right = try Subprocess.run(
                emrtd,
                [
                    "dump", "--reader", EPassEmulator.readerName, "--mrz", "L898902C<", "690806", "940623", "--out",
                    directory.path,
                ])
            // The right key opens the chip; the read then stops at the ePass's malformed EF.COM.
            #expect(
                right.status == 1 && right.combinedOutput.contains("EF.COM is malformed"), "\(right.combinedOutput)")
        }
    }

    @Test func noCardNoReaderNoServiceAreClearFailures() throws {
        guard let emrtd = Self.emrtdExecutable() else { return }
        let noService = try Subprocess.run(
            emrtd, ["readers"], environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
        #expect(noService.status == 1)
        #expect(noService.combinedOutput.contains("pcscd"))
        try EPassEmulator.run {
            let listed = try Subprocess.run(emrtd, ["readers"])
            #expect(listed.status == 0)
            #expect(
                listed.combinedOutput.contains("\(EPassEmulator.readerName): card present (ATR 3B951381018073FF01000B)")
            )
            let arguments = ["--mrz", "L898902C<", "690806", "940623", "--out", Self.temporaryDirectory().path]
            let noCard = try Subprocess.run(emrtd, ["dump", "--reader", "Virtual PCD 00 01"] + arguments)
            #expect(noCard.status == 1)
            #expect(noCard.combinedOutput.contains("no card in the reader 'Virtual PCD 00 01'"))
            let noReader = try Subprocess.run(emrtd, ["dump", "--reader", "No Such Reader"] + arguments)
            #expect(noReader.status == 1)
            #expect(noReader.combinedOutput.contains("no PC/SC reader named 'No Such Reader'"))
        }
    }

    @Test func theLibraryReadsTheSameBytesAndNamesBACOnAWrongKey() throws {
        try EPassEmulator.run {
            guard let reference = try Self.referenceFiles() else { return }
            let context = try PCSCContext()
            let link = LoggingTransport(try context.connect(reader: EPassEmulator.readerName))
            var session = try ChipAccess.open(
                link,
                accessKey: AccessPassword.mrz(
                    documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940623"))
            #expect(session.cardAccess == nil)
            #expect(session.fileReader.read(.com).bytes == reference["COM"])
            #expect(session.fileReader.read(.dg1).bytes == reference["DG1"])
            #expect(session.fileReader.read(.dg2).bytes == reference["DG2"])
            #expect(session.fileReader.read(.sod) == .absent)
            // The session survives the bare 6A82 (SSC in step with the emulator's).
            #expect(session.fileReader.read(.com).bytes == reference["COM"])

            let wrong = #expect(throws: AccessControlError.self) {
                try ChipAccess.open(
                    link,
                    accessKey: AccessPassword.mrz(
                        documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940624")
                )
            }
            #expect(wrong?.code == .accessDenied)
            #expect(wrong?.accessProtocol == .bac)
            #expect(wrong?.statusWord == .secureMessagingDataObjectsIncorrect)
        }
    }
}

extension EPassDumpTests {
    /// The ePass's ATR announces no extended length, yet it accepts it (epass_probe.py): forcing it
    /// on exercises the extended path of the reader and of secure messaging over a real pcscd.
    @Test func extendedLengthReadsTheSameBytesInNoMoreCommands() throws {
        try EPassEmulator.run {
            guard let reference = try Self.referenceFiles() else { return }
            let context = try PCSCContext()
            let key = try AccessPassword.mrz(documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940623")
            var counts: [Bool: Int] = [:]
            for extended in [false, true] {
                let link = LoggingTransport(
                    try context.connect(
                        reader: EPassEmulator.readerName, extendedLength: extended ? .enabled : .disabled))
                var session = try ChipAccess.open(link, accessKey: key)
                let before = link.log.count
                #expect(session.fileReader.read(.dg2).bytes == reference["DG2"])
                counts[extended] = link.log.count - before
            }
            // Since the reader asks for a whole file in its first READ BINARY, the short path reads
            // the ePass's DG2 in as few commands as the extended one, which the ePass caps at about
            // 768 bytes an answer and ends with unauthenticated 6282s (both 6 with the SFI probe).
            #expect((counts[true] ?? 0) <= (counts[false] ?? 0), "\(counts)")
        }
    }
}
