import ASN1
import AccessControl
import ChipSimulator
import Emrtd
import Files
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
    static let examples = [
        "# the simulator's specimen, its files and images to dump/, its test CSCA beside them",
        "emrtd read --simulator --mrz L898902C 690806 940623 --out dump",
        "# a passport on the first PC/SC reader, the page checked against the chip, exit 3 unless accepted",
        "emrtd read --reader \"\" --mrz-lines \"P<UTO...\" \"L898902C...\" --strict --report passport.html",
        "# a residence permit opened with its card access number, as JSON",
        "emrtd read --reader \"\" --can 123456 --json > document.json",
    ]
    static let usage = """
        usage: emrtd read (--reader NAME [--wait SECONDS] [--timeout MS] | --simulator [DIR] [--pace NAME[:PARAM]]... [--no-pace] [--pace-only]
                                                 [--chip-can CAN] [--chip-authentication NAME[:PARAM]]...
                                                 [--active-authentication KEY] [--chip-fault NAME]... …
                                                 [--short-only [--extended-refusal 6700|6988]] [--max-read N] [--face-size BYTES])
                          (--mrz DOCNUMBER DATEOFBIRTH DATEOFEXPIRY | --can CAN | --mrz-lines LINE...)
                          [--access auto|pace|bac] [--csca FILE]... [--crl FILE]... [--masterlist FILE.ml --ml-root CERT]...
                          [--deviation-list FILE]... [--no-builtin] [--at ISO8601] [--json] [--out DIR [--replace]] [--report FILE.html]
                          [--challenge HEX] [--debug] [--no-render] [--watch] [--strict | --require authenticated]
                          [--terminal-certificates DIR|FILE... (--terminal-key FILE | --terminal-signer COMMAND)]

        Opens the chip (PACE when it offers it, else BAC; --access below), reads EF.COM, EF.SOD and
        every data group, checks them by Passive Authentication against the trusted CSCAs
        (the built-in bundle, see FILES in the man page, unless --no-builtin, plus each --csca PEM
        bundle or DER file and the CSCAs of each --masterlist verified against its --ml-root; --crl adds certificate revocation
        lists, which deny a revoked DSC or CSCA; --deviation-list adds an issuing state's list of
        known defects, named among the data verdict's reasons; --at checks them at that time), and
        prints a summary: holder, document, the data and chip verdicts with their reasons,
        warnings, APDUs and time. --json prints the whole document as JSON instead; --out DIR
        writes every file read (COM.bin, SOD.bin, DG1.bin…, the `emrtd dump` layout) and every
        image (with PNG renderings of JPEG 2000), and for the simulator's specimen its CSCA
        (CSCA.der, for `emrtd verify` and `emrtd report` later: nothing in a folder is trusted
        unless named, as --csca DIR/CSCA.der) and its chip's keys (chip-keys.der, so `--simulator DIR`
        proves the chip again).
        \(dumpRules)
        --report FILE.html writes one
        self-contained HTML page (face, holder, verdicts, hashes, certificates, access, warnings,
        APDU timeline; nothing fetched, no script). --challenge gives the 8-byte Active
        Authentication challenge (hex); --debug writes the log of every step and APDU to standard
        error, with times (under secure messaging the plain command and answer beside the
        protected ones; no key, MRZ, CAN or file content appears).
        --no-render leaves JPEG 2000 images unrendered (no PNG in the JSON or in DIR).
        The data is authenticated only when DG1 and DG2 were read and match EF.SOD. DG1 is checked
        for its check digits, impossible dates and expiry (at --at, default now); with
        --mrz-lines (the MRZ printed on the page) it is compared with DG1 field by field and each
        difference is a warning (stderr, and "checks" in the JSON beside the document's keys).
        No trusted CSCA at all is said on stderr and in the warnings.
        --strict (or --require authenticated) exits 3 unless the data is authenticated, the page
        matches DG1, DG1 is valid and not expired, and the chip is not denied. The --report page
        states that answer on top, strict or not ("Accepted", or "Not accepted" with each reason),
        with every warning, DG1's validity, the page against the chip field by field, the check
        time and what was trusted.

        --reader NAME reads the card in that PC/SC reader ("" for the only reader with a card),
        waiting --wait SECONDS for it (default 10); --timeout MS is the longest wait for one
        answer (default 5000).
        --watch (with --reader) is kiosk mode: wait for a card, read it, print (each read's report
        as FILE-N.html, its dump in DIR/N), wait for its removal, repeat; a card taken away
        mid-read, or a dump or report that cannot be written, fails that read only. --mrz-lines -
        takes each card's MRZ lines (2, or 3 for TD1) from standard input, read before waiting for
        the card. Ctrl-C or the end of standard input ends the loop between reads (exit 0).
        --simulator reads the chip simulator in this process: the files of DIR (dump layout), or
        without DIR the simulator's specimen, whose fresh test CSCA is trusted for this read
        (--mrz L898902C 690806 940623, or --can 123456: the simulated chip's default CAN); it is
        signed at --at, so its certificates are valid at the check time.
        \(AccessOptions.usage)
        \(TerminalOptions.usage)
        The simulated chip's options:
        \(SimulatedChipOptions.usage)
        \(SimulatedChipLimits.usage)
        Exit status: 0 read (whatever the verdicts, unless --strict), 3 a --strict requirement not
        met, 1 the read failed, 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 { try run(&arguments, as: .read) }

    /// How `--out DIR` and `--report FILE` treat what is already there (`read` and `dump`).
    static let dumpRules = """
        The dump is written into a new directory beside DIR and put in DIR's place whole, so a
        failure (a full disk) leaves DIR as it was. DIR may hold a dump of the same document (the
        same issuing state and document number in DG1: a re-read), which is replaced whole; a dump
        of another document (or one without a readable DG1) only with --replace; files emrtd did
        not write (any but the dump's .bin files, images, .der and .html files) never. The files a
        failed read leaves replace no dump. Every file (the report too) is written to a temporary
        file and renamed into place; a symbolic link, a device or a fifo at DIR or FILE is
        refused, not replaced.
        """

    /// The two commands this read serves: `read`, and `dump`, the same read with its files written
    /// (the directory required, as `--out DIR` or `DIR`; a PC/SC reader unless `--simulator`,
    /// without `--reader` the only one holding a card; no wait for a card unless `--wait`).
    enum Form: String {
        case read, dump
    }

    static func run(_ arguments: inout ArgumentReader, as form: Form) throws -> Int32 {
        let readerOptions = try ReaderOptions.read(&arguments, defaultWait: form == .dump ? .zero : .seconds(10))
        let simulator = arguments.variadic("--simulator")
        let readerName = readerOptions.name ?? (form == .dump && simulator == nil ? "" : nil)
        let chipOptions = try SimulatedChipOptions.read(&arguments)
        let chipLimits = try SimulatedChipLimits.read(&arguments)
        let access = try AccessOptions.read(&arguments)
        let trust = try TrustOptions.read(&arguments, builtIn: false)
        let terminal = try TerminalOptions.read(&arguments)
        let json = arguments.flag("--json")
        var output = try arguments.option("--out")
        let replace = arguments.flag("--replace")
        let report = try arguments.option("--report")
        let debug = arguments.flag("--debug")
        let watch = arguments.flag("--watch")
        let renderImages = !arguments.flag("--no-render")
        let strict = try StrictOption.read(&arguments)
        let challenge = try arguments.option("--challenge").map { text in
            // Active Authentication's challenge is RND.IFD, 8 bytes (ICAO 9303-11 §6.1).
            guard let bytes = Hex.decode(text), bytes.count == 8 else {
                throw UsageError("--challenge takes 8 bytes as 16 hex digits, not '\(text)'")
            }
            return bytes
        }
        guard output?.isEmpty != true else { throw UsageError("--out takes a directory, not an empty name") }
        let positionals = try arguments.positionals()
        switch form {
        case .read:
            if let stray = positionals.first {
                throw UsageError(
                    "unexpected argument '\(stray)': read takes none (a dump's directory is --simulator DIR or --out DIR)"
                )
            }
        case .dump:
            if let stray = positionals.dropFirst(output == nil ? 1 : 0).first {
                throw UsageError("unexpected argument '\(stray)': dump takes one directory, as DIR or --out DIR")
            }
            output = output ?? positionals.first
            guard output?.isEmpty == false else { throw UsageError("--out is required") }
        }
        guard !replace || output != nil else { throw UsageError("--replace goes with --out DIR") }
        guard (readerName == nil) != (simulator == nil) else {
            throw UsageError("give either --reader NAME or --simulator [DIR]")
        }
        guard (simulator?.count ?? 0) <= 1 else { throw UsageError("--simulator takes at most one directory") }
        guard !watch || readerName != nil else { throw UsageError("--watch waits for cards in a --reader") }
        guard simulator != nil || !chipOptions.given else {
            throw UsageError(
                "--pace, --chip-can, --chip-authentication, --active-authentication, --chip-fault and their like"
                    + " describe the simulated chip (--simulator)")
        }
        guard simulator != nil || !chipLimits.given else {
            throw UsageError("--short-only, --max-read and --face-size describe the simulated chip (--simulator)")
        }
        guard chipLimits.faceSize == 0 || simulator?.isEmpty == true else {
            throw UsageError("--face-size applies to the generated specimen, not to DIR")
        }

        var authorities = trust.authorityCertificates
        var simulatorCSCA: [UInt8]?
        var simulatedChip: ChipConfiguration?
        var simulatorKeys: [UInt8]?
        if let simulator {
            var credentials = try chipOptions.credentials()
            do {
                if let directory = simulator.first {
                    let files = try ChipFiles(directory: URL(fileURLWithPath: directory))
                    try credentials.restoreKeys(fromDirectory: URL(fileURLWithPath: directory))
                    simulatedChip = chipOptions.configuration(files: files, credentials: credentials)
                } else {
                    // A chip with Terminal Authentication gets the rich specimen, whose DG3 it opens.
                    let specimen = try Specimen.generate(
                        rich: chipOptions.terminalAuthentication != nil, faceSize: chipLimits.faceSize, at: trust.time,
                        credentials: credentials,
                        layout: chipOptions.layout)
                    simulatedChip = chipOptions.configuration(files: specimen.files, credentials: specimen.credentials)
                    simulatorKeys = try specimen.credentials.keysFile()
                    authorities.append(specimen.countrySigningCertificate)
                    simulatorCSCA = specimen.countrySigningCertificate
                }
            } catch {
                throw CommandFailure(error.reason)
            }
        }
        let settings = ReadSettings(
            config: ReaderConfig(
                // The report's APDU timeline is the debug log.
                useBuiltInAuthorityCertificates: trust.trustsDefaultBundle,
                authorityCertificates: authorities.map { Data($0) },
                timeoutMs: readerOptions.timeoutMilliseconds,
                debug: debug || report != nil,
                renderImages: renderImages, terminal: try terminal.configuration()),
            preferences: access.preferences, challenge: challenge, json: json, debug: debug, output: output,
            replace: replace, report: report, simulatorCSCA: simulatorCSCA, simulatorKeys: simulatorKeys,
            origin: readerName ?? "simulator", clock: trust.clock,
            strict: strict, printedZone: access.printedZone,
            trust: trust.sources
                + (simulatorCSCA == nil ? [] : [TrustSource(.specimenCSCA, path: nil, certificates: 1)]),
            command: form.rawValue)
        // A destination that would be refused is refused before the chip is read, not after
        // (kiosk mode's DIR/N are checked as each read ends).
        do {
            if let output, !watch { try DumpLayout.checkDestination(output) }
            if let report, !watch { _ = try AtomicFile.existsAsRegularFile(report) }
        } catch let error as OutputError {
            throw CommandFailure(error.reason)
        } catch let error as FilesError {
            throw CommandFailure(error.reason)
        }
        if watch {
            return try KioskMode.run(reader: readerOptions.pcscName, access: access, settings: settings)
        }
        let transport: any APDUTransport
        if var simulatedChip {
            chipLimits.apply(to: &simulatedChip)
            transport = SimulatedChip(configuration: simulatedChip)
        } else {
            // The answer timeout is applied where the transport is made.
            do throws(ReadError) {
                transport = try readerOptions.connect()
            } catch {
                return failed(error, settings: settings)
            }
        }
        return try readOnce(transport, accessKey: access.accessKey, settings: settings)
    }

    /// What one read does besides reading: its configuration and where its results go.
    struct ReadSettings {
        let config: ReaderConfig
        let preferences: ChipAccessPreferences
        let challenge: [UInt8]?
        let json: Bool
        let debug: Bool
        /// The dump directory and the report file (`--out`, `--report`).
        let output: String?
        /// `--replace`: the dump may replace another document's.
        var replace = false
        let report: String?
        let simulatorCSCA: [UInt8]?
        /// The simulated specimen's chip keys, written beside its dump (`chip-keys.der`) so that the
        /// dump served by the simulator again proves itself.
        let simulatorKeys: [UInt8]?
        /// The reader's name, or "simulator", for the report's title.
        let origin: String
        /// When certificates are checked (`--at`, else each read's moment).
        let clock: @Sendable () -> Date
        /// `--strict`: exit 3 unless `DocumentChecks` passes.
        let strict: Bool
        /// The MRZ printed on the page (`--mrz-lines`), compared with DG1.
        let printedZone: MachineReadableZone?
        /// What was trusted, for the report's footer.
        let trust: [TrustSource]
        /// The command's name in messages (`read`, or `dump`).
        var command = Form.read.rawValue
    }

    /// One read over `transport`: the summary or JSON printed, the dump and report written.
    /// A failed read (or a reader that is not there): the error printed, the files read before it
    /// written where `--out` says; 1, the exit status.
    static func failed(_ error: ReadError, settings: ReadSettings) -> Int32 {
        if settings.json {
            print(readErrorToJson(error: error))
        } else {
            printError("emrtd \(settings.command): \(readErrorMessage(error: error))")
        }
        if settings.debug, let log = error.debugInfo?.events { printError(debugLogText(log)) }
        // Nothing read is lost: the files read before the failure go where --out says, unless
        // a dump is there already (it is kept).
        if let output = settings.output, let files = error.debugInfo?.filesRead, !files.filesRead.isEmpty {
            do throws(OutputError) {
                try DumpLayout.write(files, to: output, replacing: .nothing)
                printError("emrtd \(settings.command): the files read before the failure are in \(output)")
            } catch {
                printError(
                    "emrtd \(settings.command): the files read before the failure were not written: \(error.reason)"
                )
            }
        }
        return 1
    }

    /// Returns 0 when read, 1 when the read failed (the error printed), 3 when `--strict` is not
    /// satisfied.
    static func readOnce(_ transport: any APDUTransport, accessKey: AccessPassword, settings: ReadSettings) throws
        -> Int32
    {
        let progress = isatty(STDERR_FILENO) == 1 && !settings.json ? ProgressBar() : nil
        let clock = ContinuousClock()
        let start = clock.now
        let document: TravelDocument
        do throws(ReadError) {
            let reader = try EmrtdReader(
                config: settings.config, chipAccess: StandardChipAccess(preferences: settings.preferences),
                clock: settings.clock)
            if let warning = reader.trustStoreWarning { printError("emrtd \(settings.command): warning: \(warning)") }
            document = try reader.read(
                transport: transport, accessPassword: accessKey, activeAuthenticationChallenge: settings.challenge,
                listener: progress)
            progress?.finish()
        } catch {
            progress?.finish()
            return failed(error, settings: settings)
        }
        let elapsed = start.duration(to: clock.now)
        let checks = DocumentChecks(document: document, printedZone: settings.printedZone, at: settings.clock())
        do throws(OutputError) {
            if let output = settings.output {
                var extraFiles: [DumpLayout.File] = []
                if let csca = settings.simulatorCSCA {
                    extraFiles.append(DumpLayout.File(DumpLayout.countrySigningCertificateName, csca))
                }
                if let keys = settings.simulatorKeys {
                    extraFiles.append(DumpLayout.File(Credentials.keysFileName, keys, mode: 0o600))
                }
                try DumpLayout.write(
                    document, to: output, extraFiles: extraFiles, replacing: settings.replace ? .anyDump : .sameDocument
                )
            }
        } catch {
            throw CommandFailure(error.reason)
        }
        if let report = settings.report {
            let page = HTMLReport.render(
                document, checks: checks, trust: settings.trust, title: "emrtd \(settings.command) \(settings.origin)")
            do throws(FilesError) {
                try AtomicFile.write(Array(page.utf8), to: report)
            } catch {
                throw CommandFailure(error.reason)
            }
        }
        for warning in checks.warnings { printError("emrtd \(settings.command): warning: \(warning)") }
        if settings.json {
            print(document.json(checks: checks).serialized(pretty: true))
        } else {
            print(textSummary(of: document, elapsed: elapsed))
            for line in checksSummary(checks) { print(line) }
        }
        if settings.debug { printError(debugLogText(document.debugInfo.events)) }
        if settings.strict && !checks.accepted {
            printError(
                "emrtd \(settings.command): strict mode: " + checks.unmetStrictRequirements.joined(separator: "; "))
            return 3
        }
        return 0
    }

    /// The checks' lines under the summary: the answer by the one "accepted" rule (the HTML
    /// report's and `verify`'s), DG1's validity, the page against the chip, their warnings.
    static func checksSummary(_ checks: DocumentChecks) -> [String] {
        var lines = [
            "answer:    "
                + (checks.accepted
                    ? "accepted" : "not accepted: " + checks.unmetStrictRequirements.joined(separator: "; "))
        ]
        if let validity = checks.mrzValidity {
            let expiry = validity.dateOfExpiry.isoDate ?? "unknown"
            lines.append(
                "mrz:       check digits \(validity.checkDigitsValid ? "valid" : "not valid"), expires \(expiry)"
                    + (validity.expired == true ? " (expired)" : ""))
        }
        if let comparison = checks.pageComparison {
            lines.append(
                "page:      "
                    + (comparison.matches
                        ? "the printed MRZ matches the chip's"
                        : "differs from the chip's in \(comparison.differingFields.joined(separator: ", "))"))
        }
        for warning in checks.warnings { lines.append("warning:   \(warning)") }
        return lines
    }
}

/// A one-line progress bar on standard error, redrawn in place.
final class ProgressBar: ReadListener {
    private let width = 30

    func onAccessEstablishmentStarted() { draw(0, "opening the chip") }

    func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32) {
        draw(Int(totalProgressPercentage), "read \(id.rawValue)")
    }

    func onDataAuthenticationStarted() { draw(100, "verifying") }

    func finish() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

    private func draw(_ percentage: Int, _ step: String) {
        let filled = width * max(0, min(percentage, 100)) / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(percentage)% \(step)".utf8))
    }
}
