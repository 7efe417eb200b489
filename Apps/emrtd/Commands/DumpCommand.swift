import AccessControl
import Foundation
import LDS
import MRZ
import PCSC
import Transport

/// `emrtd dump`: opens a chip on a PC/SC reader (PACE or BAC) and writes every file it holds.
enum DumpCommand: Command {
    static let name = "dump"
    static let summary = "open a passport on a PC/SC reader (PACE or BAC) and write its raw files"
    static let usage = """
        usage: emrtd dump [--reader NAME] (--mrz DOCUMENTNUMBER DATEOFBIRTH DATEOFEXPIRY | --can CAN
                          | --mrz-lines LINE...) [--access auto|pace|bac] --out DIR [--wait SECONDS] [--timeout MS]
                          [--debug]

        Opens the chip in the reader NAME (optional when exactly one reader holds a card) with
        PACE or BAC, reads every file present among EF.CardAccess, EF.COM, EF.SOD and DG1-DG16, and
        writes each, outer tag and length included, as DIR/CardAccess.bin, COM.bin, SOD.bin,
        DG1.bin ... DG16.bin. Prints what was read, denied (6982) or absent, the APDU count,
        the bytes moved and the time. Dates are YYMMDD. --wait waits up to SECONDS for a card
        (default 0: it must be there); --timeout MS is the longest wait for one answer (default
        5000). --debug prints the APDU log (secrets redacted).
        \(AccessOptions.usage)
        Exit status: 0 every present file read, 1 no reader, no card, access control failed
        (wrong MRZ or CAN) or a file could not be read, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let readerOptions = try ReaderOptions.read(&arguments, defaultWait: .zero)
        let readerName = readerOptions.pcscName
        let access = try AccessOptions.read(&arguments)
        guard let output = try arguments.option("--out") else { throw UsageError("--out is required") }
        let debug = arguments.flag("--debug")
        guard try arguments.positionals().isEmpty else { throw UsageError("dump takes no positional arguments") }
        let directory = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(output): \(error.localizedDescription)")
        }

        let link: LoggingTransport
        do throws(TransportError) {
            let context = try PCSCContext()
            let reader = try context.waitForCard(in: readerName, timeout: readerOptions.wait)
            link = LoggingTransport(try context.connect(reader: reader.name, timeout: readerOptions.timeout))
        } catch .timeout {
            throw CommandFailure(readerName.map { "no card in the reader '\($0)'" } ?? "no card in any PC/SC reader")
        } catch {
            throw CommandFailure(pcscMessage(error))
        }
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            if debug {
                print("APDU log:")
                for entry in link.log.entries { print(entry.description) }
            }
        }

        var session: ChipSession
        do throws(AccessControlError) {
            session = try ChipAccess.open(link, accessKey: access.accessKey, preferences: access.preferences)
        } catch {
            throw CommandFailure("access control failed: \(error.description)")
        }
        for warning in session.warnings { print("warning: \(warning)") }
        var failures = 0
        var outcomes: [(name: String, outcome: String)] = []
        if let cardAccess = session.cardAccess {
            try write(cardAccess, as: .cardAccess, in: directory)
            outcomes.append((LDSFileKind.cardAccess.dumpName, "read, \(cardAccess.count) bytes"))
        } else {
            outcomes.append((LDSFileKind.cardAccess.dumpName, "absent"))
        }
        for file in [LDSFileKind.com, .sod] + (1...16).compactMap(LDSFileKind.dataGroup) {
            let name = file.dumpName
            let bytes: [UInt8]
            do throws(FileReadError) {
                bytes = try session.read(file)
            } catch {
                switch error.code {
                case .notFound: outcomes.append((name, "absent"))
                case .accessDenied: outcomes.append((name, "denied"))
                case .empty: outcomes.append((name, "empty (selected, no data)"))
                default:
                    failures += 1
                    outcomes.append((name, "error: \(error.reason)"))
                }
                // Without a working session nothing more can be read.
                if error.code == .secureMessaging || error.code == .transport { break }
                continue
            }
            try write(bytes, as: file, in: directory)
            outcomes.append((name, "read, \(bytes.count) bytes"))
        }
        let elapsed = start.duration(to: clock.now)
        for (name, outcome) in outcomes {
            print("\(name.padding(toLength: 11, withPad: " ", startingAt: 0))\(outcome)")
        }
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        print(
            "\(link.log.count) APDUs, \(link.log.bytesMoved) bytes, \(milliseconds) ms; files in \(directory.path)")
        return failures == 0 ? 0 : 1
    }

    private static func write(_ bytes: [UInt8], as file: LDSFileKind, in directory: URL) throws {
        let url = directory.appendingPathComponent(file.dumpFileName)
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw CommandFailure("cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
