import ASN1
import ChipSimulator
import Emrtd
import Foundation
import LDS
import MRZ
import PCSC
import Transport

/// `emrtd read`: reads a document from a PC/SC reader or from the chip simulator, proves its
/// data genuine, and prints a summary, the JSON, or both files and images.
enum ReadCommand: Command {
    static let name = "read"
    static let summary = "read a travel document's chip (PC/SC reader or the simulator) and verify it"
    static let usage = """
        usage: emrtd read (--reader NAME | --simulator [DIR] [--pace NAME[:PARAM]]... [--no-pace] [--pace-only]
                                                 [--chip-can CAN] [--short-only [--extended-refusal 6700|6988]]
                                                 [--max-read N] [--face-size BYTES])
                          (--mrz DOCNUMBER DATEOFBIRTH DATEOFEXPIRY | --can CAN | --mrz-lines LINE...)
                          [--access auto|pace|bac] [--csca FILE]... [--no-builtin] [--json] [--out DIR] [--challenge HEX] [--debug]
                          [--no-render]

        Opens the chip (PACE when it offers it, else BAC; --access below), reads EF.COM, EF.SOD and
        every data group, checks them by Passive Authentication against the trusted CSCAs
        (masterlist/csca.pem unless --no-builtin, plus each --csca PEM bundle or DER file), and
        prints a summary: holder, document, the data and chip verdicts with their reasons,
        warnings, APDUs and time. --json prints the whole document as JSON instead; --out DIR
        writes every file read (COM.bin, SOD.bin, DG1.bin…, the `emrtd dump` layout) and every
        image (with PNG renderings of JPEG 2000). --challenge gives the 8-byte Active
        Authentication challenge (hex); --debug keeps the log of every step and APDU.
        --no-render leaves JPEG 2000 images unrendered (no PNG in the JSON or in DIR).

        --reader NAME reads the card in that PC/SC reader ("" for the only reader with a card).
        --simulator reads the chip simulator in this process: the files of DIR (dump layout), or
        without DIR the simulator's specimen, whose fresh test CSCA is trusted for this read
        (--mrz L898902C 690806 940623, or --can 123456: the simulated chip's default CAN).
        \(AccessOptions.usage)
        The simulated chip's options:
        \(SimulatedChipOptions.usage)
        \(SimulatedChipLimits.usage)
        Exit status: 0 read (whatever the verdicts), 1 the read failed, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let readerName = try arguments.option("--reader")
        let simulator = arguments.variadic("--simulator")
        let chipOptions = try SimulatedChipOptions.read(&arguments)
        let chipLimits = try SimulatedChipLimits.read(&arguments)
        let access = try AccessOptions.read(&arguments)
        let cscaFiles = try arguments.options("--csca")
        let noBuiltIn = arguments.flag("--no-builtin")
        let json = arguments.flag("--json")
        let output = try arguments.option("--out")
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
        guard simulator != nil || !chipLimits.given else {
            throw UsageError("--short-only, --max-read and --face-size describe the simulated chip (--simulator)")
        }
        guard chipLimits.faceSize == 0 || simulator?.isEmpty == true else {
            throw UsageError("--face-size applies to the generated specimen, not to DIR")
        }

        var authorities = try cscaFiles.map(readFile)
        let transport: any CardTransport
        if let simulator {
            let files: ChipFiles
            do {
                if let directory = simulator.first {
                    files = try ChipFiles(directory: URL(fileURLWithPath: directory))
                } else {
                    let specimen = try Specimen.generate(faceSize: chipLimits.faceSize)
                    files = specimen.files
                    authorities.append(specimen.countrySigningCertificate)
                }
            } catch {
                throw CommandFailure(error.reason)
            }
            var configuration = try chipOptions.configuration(files: files)
            chipLimits.apply(to: &configuration)
            transport = SimulatedChip(configuration: configuration)
        } else {
            // ReaderConfig's default answer timeout, applied where the transport is made.
            transport = try connect(readerName ?? "", timeout: .milliseconds(ReaderConfig().timeoutMs))
        }

        let config = ReaderConfig(
            useBuiltInAuthorityCertificates: !noBuiltIn, authorityCertificates: authorities, debug: debug,
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
            if debug, !json, let log = error.debugInfo?.log { printError(describe(log)) }
            return 1
        }
        let elapsed = start.duration(to: clock.now)
        if let output { try write(document, to: URL(fileURLWithPath: output)) }
        if json {
            print(travelDocumentToJson(document))
        } else {
            print(summary(of: document, elapsed: elapsed))
            if debug, let log = document.debugInfo?.log { print(describe(log)) }
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

    // MARK: - Output

    static func summary(of document: TravelDocument, elapsed: Duration) -> String {
        var lines: [String] = []
        if let fields = document.machineReadableZoneInformation?.fields {
            let name = [fields.secondaryIdentifier, fields.primaryIdentifier].filter { !$0.isEmpty }
            lines.append("holder:    \(name.joined(separator: " ")), born \(fields.dateOfBirth), \(fields.nationality)")
            lines.append(
                "document:  \(fields.documentCode) \(fields.documentNumber), issued by \(fields.issuingStateOrOrganization),"
                    + " expires \(fields.dateOfExpiry)")
        }
        let files = document.ldsMasterFile.filesRead.map(\.rawValue)
        lines.append("files:     \(files.joined(separator: " "))")
        if !document.deniedFiles.isEmpty {
            lines.append("denied:    \(document.deniedFiles.map(\.rawValue).joined(separator: " "))")
        }
        if let pace = document.pace {
            let parameters = pace.parameterId.map { id in
                " on \(pace.standardizedDomainParameters?.name ?? "the chip's own parameters") (\(id))"
            }
            lines.append("access:    pace: \(pace.paceProtocol)\(parameters ?? ""), \(pace.password) password")
        } else {
            lines.append("access:    \(document.accessControlProtocolUsed.rawValue)")
        }
        let data = document.authenticationStatus.data
        let checks = [
            "signature \(data.sodSignatureValid ? "valid" : "not valid")",
            "chain \(data.certificateChainValid ? "valid" : "not valid")",
            "hashes \(data.dataGroupHashesValid ? "valid" : "not valid")",
        ]
        lines.append("data:      \(data.status.rawValue) (\(checks.joined(separator: ", ")))")
        for hash in data.dataGroupHashes { lines.append("           dg\(hash.dataGroup) \(hash.status.rawValue)") }
        for error in data.errors { lines.append("           \(error)") }
        let chip = document.authenticationStatus.chip
        lines.append("chip:      \(chip.status.rawValue): \(chip.reason)")
        for warning in document.warnings { lines.append("warning:   \(warning)") }
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        if let debugInfo = document.debugInfo {
            lines.append(
                "link:      \(debugInfo.apduCount) APDUs, \(debugInfo.bytesTransferred) bytes, \(milliseconds) ms")
        }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ log: [DebugInfo.Entry]) -> String {
        log.map { entry in
            String(format: "%8.3f  ", Double(entry.millisecondsSinceStart) / 1000)
                + entry.message.replacingOccurrences(of: "\n", with: "\n          ")
        }.joined(separator: "\n")
    }

    /// Every file read in the dump layout, and every image (with PNG renderings).
    private static func write(_ document: TravelDocument, to directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for kind in document.ldsMasterFile.filesRead {
                guard let bytes = document.ldsMasterFile[kind] else { continue }
                try Data(bytes).write(to: directory.appendingPathComponent(kind.dumpFileName))
            }
            var images: [(String, DocumentImage)] = []
            images += (document.face?.images ?? []).enumerated().map { ("face-\($0.offset + 1)", $0.element) }
            images += (document.fingerprints?.images ?? []).enumerated().map {
                ("fingerprint-\($0.offset + 1)", $0.element)
            }
            images += (document.iris?.images ?? []).enumerated().map { ("iris-\($0.offset + 1)", $0.element) }
            images += (document.displayedPortrait?.images ?? []).enumerated().map {
                ("portrait-\($0.offset + 1)", $0.element)
            }
            images += (document.displayedSignature?.images ?? []).enumerated().map {
                ("signature-\($0.offset + 1)", $0.element)
            }
            for (name, image) in images {
                try Data(image.bytes).write(
                    to: directory.appendingPathComponent("\(name).\(image.format.fileExtension)"))
                if let png = image.png { try Data(png).write(to: directory.appendingPathComponent("\(name).png")) }
            }
        } catch {
            throw CommandFailure("cannot write to \(directory.path): \(error.localizedDescription)")
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
