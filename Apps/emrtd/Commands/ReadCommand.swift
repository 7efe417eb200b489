import ASN1
import ChipSimulator
import Emrtd
import Foundation
import LDS
import MRZ
import Output
import PCSC
import Transport

/// `emrtd read`: reads a document from a PC/SC reader or from the chip simulator, proves its
/// data genuine, and prints a summary, the JSON, or both files and images.
enum ReadCommand: Command {
    static let name = "read"
    static let summary = "read a travel document's chip (PC/SC reader or the simulator) and verify it"
    static let usage = """
        usage: emrtd read (--reader NAME | --simulator [DIR] [--pace NAME[:PARAM]]... [--no-pace] [--pace-only]
                                                 [--chip-can CAN])
                          (--mrz DOCNUMBER DATEOFBIRTH DATEOFEXPIRY | --can CAN | --mrz-lines LINE...)
                          [--access auto|pace|bac] [--csca FILE]... [--no-builtin] [--json] [--out DIR] [--report FILE.html]
                          [--challenge HEX] [--debug] [--no-render]

        Opens the chip (PACE when it offers it, else BAC; --access below), reads EF.COM, EF.SOD and
        every data group, checks them by Passive Authentication against the trusted CSCAs
        (masterlist/csca.pem unless --no-builtin, plus each --csca PEM bundle or DER file), and
        prints a summary: holder, document, the data and chip verdicts with their reasons,
        warnings, APDUs and time. --json prints the whole document as JSON instead; --out DIR
        writes every file read (COM.bin, SOD.bin, DG1.bin…, the `emrtd dump` layout) and every
        image (with PNG renderings of JPEG 2000), and for the simulator's specimen its CSCA
        (CSCA.der, for `emrtd verify DIR --csca DIR/CSCA.der` later). --report FILE.html writes one
        self-contained HTML page (face, holder, verdicts, hashes, certificates, access, warnings,
        APDU timeline; nothing fetched, no script). --challenge gives the 8-byte Active
        Authentication challenge (hex); --debug keeps the log of every step and APDU.
        --no-render leaves JPEG 2000 images unrendered (no PNG in the JSON or in DIR).

        --reader NAME reads the card in that PC/SC reader ("" for the only reader with a card).
        --simulator reads the chip simulator in this process: the files of DIR (dump layout), or
        without DIR the simulator's specimen, whose fresh test CSCA is trusted for this read
        (--mrz L898902C 690806 940623, or --can 123456: the simulated chip's default CAN).
        \(AccessOptions.usage)
        The simulated chip's options:
        \(SimulatedChipOptions.usage)
        Exit status: 0 read (whatever the verdicts), 1 the read failed, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let readerName = try arguments.option("--reader")
        let simulator = arguments.variadic("--simulator")
        let chipOptions = try SimulatedChipOptions.read(&arguments)
        let access = try AccessOptions.read(&arguments)
        let cscaFiles = try arguments.options("--csca")
        let noBuiltIn = arguments.flag("--no-builtin")
        let json = arguments.flag("--json")
        let output = try arguments.option("--out")
        let report = try arguments.option("--report")
        let debug = arguments.flag("--debug")
        let renderImages = !arguments.flag("--no-render")
        let challenge = try arguments.option("--challenge").map { text in
            guard let bytes = Hex.decode(text) else { throw UsageError("--challenge takes hex digits") }
            return bytes
        }
        _ = try arguments.positionals()
        guard (readerName == nil) != (simulator == nil) else {
            throw UsageError("give either --reader NAME or --simulator [DIR]")
        }
        guard (simulator?.count ?? 0) <= 1 else { throw UsageError("--simulator takes at most one directory") }
        guard simulator != nil || !chipOptions.given else {
            throw UsageError("--pace, --no-pace, --pace-only and --chip-can describe the simulated chip (--simulator)")
        }

        var authorities = try cscaFiles.map(readFile)
        var simulatorCSCA: [UInt8]?
        let transport: any CardTransport
        if let simulator {
            let files: ChipFiles
            do {
                if let directory = simulator.first {
                    files = try ChipFiles(directory: URL(fileURLWithPath: directory))
                } else {
                    let specimen = try Specimen.generate()
                    files = specimen.files
                    authorities.append(specimen.countrySigningCertificate)
                    simulatorCSCA = specimen.countrySigningCertificate
                }
            } catch {
                throw CommandFailure(error.reason)
            }
            transport = SimulatedChip(configuration: try chipOptions.configuration(files: files))
        } else {
            // ReaderConfig's default answer timeout, applied where the transport is made.
            transport = try connect(readerName ?? "", timeout: .milliseconds(ReaderConfig().timeoutMs))
        }

        let config = ReaderConfig(
            // The report's APDU timeline is the debug log.
            useBuiltInAuthorityCertificates: !noBuiltIn, authorityCertificates: authorities,
            debug: debug || report != nil,
            renderImages: renderImages)
        let progress = isatty(STDERR_FILENO) == 1 && !json ? ProgressBar() : nil
        let clock = ContinuousClock()
        let start = clock.now
        let document: TravelDocument
        do throws(ReadError) {
            let reader = try EmrtdReader(
                config: config, chipAccess: StandardChipAccess(preferences: access.preferences))
            document = try reader.read(
                transport: transport, accessKey: access.accessKey, activeAuthenticationChallenge: challenge,
                listener: progress)
            progress?.finish()
        } catch {
            progress?.finish()
            if json { print(readErrorToJson(error)) } else { printError("emrtd read: \(readErrorMessage(error))") }
            if debug, !json, let log = error.debugInfo?.events { printError(debugLogText(log)) }
            return 1
        }
        let elapsed = start.duration(to: clock.now)
        do throws(OutputError) {
            if let output {
                try DumpLayout.write(
                    document, to: URL(fileURLWithPath: output), countrySigningCertificate: simulatorCSCA)
            }
            if let report {
                let page = HTMLReport.render(document, title: "emrtd read \(readerName ?? "simulator")")
                guard FileManager.default.createFile(atPath: report, contents: Data(page.utf8)) else {
                    throw OutputError(.cannotWrite, "cannot write \(report)")
                }
            }
        } catch {
            throw CommandFailure(error.reason)
        }
        if json {
            print(travelDocumentToJson(document))
        } else {
            print(textSummary(of: document, elapsed: elapsed))
            if debug, let log = document.debugInfo?.events { print(debugLogText(log)) }
        }
        return 0
    }

    /// The card in reader `name` (or the only reader holding one), each answer awaited `timeout`.
    private static func connect(_ name: String, timeout: Duration) throws -> PCSCTransport {
        do throws(TransportError) {
            let context = try PCSCContext()
            let reader = try context.waitForCard(in: name.isEmpty ? nil : name, timeout: .seconds(10))
            return try context.connect(reader: reader.name, timeout: timeout)
        } catch {
            throw CommandFailure("cannot reach the card: \(error)")
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place.
final class ProgressBar: ReadListener {
    private let width = 30

    func onAccessEstablishmentStarted() { draw(0, "opening the chip") }

    func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int) {
        draw(totalProgressPercentage, "read \(id.rawValue)")
    }

    func onDataAuthenticationStarted() { draw(100, "verifying") }

    func finish() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

    private func draw(_ percentage: Int, _ step: String) {
        let filled = width * max(0, min(percentage, 100)) / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(percentage)% \(step)".utf8))
    }
}
