import ASN1
import CMS
import Emrtd
import Foundation
import JSON
import LDS
import MRZ
import Output

/// `emrtd verify`: Passive Authentication of files a dump wrote, offline.
enum VerifyCommand: Command {
    static let name = "verify"
    static let printsOnlyJSON = true
    static let examples = [
        "# a dump of the simulator, its own test CSCA named (nothing in DIR is trusted otherwise)",
        "emrtd verify --dir dump --csca dump/CSCA.der",
        "# every dump of a folder, one JSON line each, exit 3 if any is not accepted",
        "emrtd verify --batch dumps/ --strict > verdicts.jsonl",
    ]
    static let summary = "check EF.SOD and the data groups of a dump (Passive Authentication) and print the verdict"
    static let usage = """
        usage: emrtd verify --dir DIR [--challenge HEX] [--csca FILE]... [--crl FILE]... [--masterlist FILE.ml --ml-root CERT]...
                            [--deviation-list FILE]... [--no-builtin] [--at ISO8601] [--mrz-lines LINE...]
                            [--strict | --require authenticated]
               emrtd verify --sod FILE [same options]
               emrtd verify --batch DIR|- [--jobs N] [same options but --mrz-lines]

        Checks DIR/SOD.bin against DIR/DG1.bin … DIR/DG16.bin (the files a dump writes), or a
        lone EF.SOD, and prints the Passive Authentication verdict as JSON, with a "checks" object
        (DG1's check digits, dates and expiry, the page compared with the chip, strict mode).
        With --dir (and --batch) a "chip" object, shaped as a read's authenticationStatus.chip,
        judges the chip again from DIR/evidence.json: Active Authentication re-verified over the
        stored challenge with DG15's key, PACE-CAM against EF.CardSecurity's key, each only when
        that file is authenticated; Chip Authentication is reported as not provable offline. A DG14
        or DG15 that EF.SOD lists and DIR lacks denies the chip (withheld, as in a read). A dump
        without evidence.json is not authenticated. --challenge HEX (8 bytes) must be the stored
        Active Authentication challenge, else the chip is denied.
        The data is authenticated only when DG1 and DG2 were both checked against EF.SOD: a lone
        EF.SOD, or a DIR without them, is not. Trusted CSCAs: the default bundle (see
        masterlist/README.md: $EMRTD_CSCA_BUNDLE, masterlist/csca.pem in a checkout,
        ~/.local/share/emrtd/csca.pem, /usr/local/share and /usr/share/emrtd/csca.pem;
        --no-builtin leaves it out), PEM or DER files given with --csca, and master lists checked
        against the root named by the --ml-root after each. Certificate revocation lists (--crl
        FILE, PEM or DER, or X509 CRL blocks in a bundle) revoke the DSCs and CSCAs they list when
        their issuer's key signed them: a revoked certificate makes the data denied. Deviation
        lists (--deviation-list FILE, ICAO 9303-12 §10; the default bundle's, `emrtd trust
        update`) are trusted when they verify under a trusted CSCA; each deviation listed for the
        document (its DSC or CSCA, DG1's type and number) is a "listedDeviation" error and a
        warning, and changes no status. --at checks certificate validity and
        expiry at that time instead of now.
        --mrz-lines gives the MRZ printed on the page; it is compared with DG1 field by field and
        each difference is a warning. --strict (or --require authenticated) exits 3 unless the
        data is authenticated, the page matches DG1, and DG1 is valid and not expired.
        --batch verifies many dumps in one process, the trust store loaded once, N at a time
        (--jobs, default one per core): each folder inside DIR in name order, or with - one dump
        folder a line on standard input. One JSON line per dump on standard output, in input
        order: "path" and the verdict above, or for a dump that cannot be loaded "path" and an
        error ("code": "invalid_argument", "message", "reason"); a summary on standard error.
        The summary counts the dumps accepted ("checks"'s "accepted": the rules of --strict, with
        or without it). Exit status of a batch: 1 when any dump could not be loaded, else 3 when
        any would make `verify --dir` exit 3, else 0.
        Exit status: 0 authenticated (and, with --strict, every requirement met), 3 not, 1 unreadable
        input, 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let directory = try arguments.option("--dir")
        let sodFile = try arguments.option("--sod")
        let challenge = try arguments.option("--challenge").map { text in
            guard let bytes = Hex.decode(text), bytes.count == 8 else {
                throw UsageError("--challenge takes the 8-byte Active Authentication challenge in hex (16 digits)")
            }
            return bytes
        }
        let batch = try arguments.option("--batch")
        let jobs = try arguments.option("--jobs")
        let strict = try StrictOption.read(&arguments)
        let printedLines = arguments.variadic("--mrz-lines")
        let trust = try TrustOptions.read(&arguments, builtIn: true)
        try arguments.noPositionals()
        guard challenge == nil || sodFile == nil else { throw UsageError("--challenge goes with --dir or --batch") }
        let settings = VerifySettings(
            trustStore: trust.store, time: trust.time, printedZone: try printedLines.map(StrictOption.printedZone),
            strict: strict, trustWarning: trust.warning, challenge: challenge)

        if let batch {
            guard directory == nil, sodFile == nil else { throw UsageError("give one of --dir, --sod and --batch") }
            guard printedLines == nil else {
                throw UsageError("--mrz-lines is one document's page; it does not go with --batch")
            }
            return try BatchVerification.run(
                source: batch, settings: settings, jobs: try BatchVerification.jobs(jobs))
        }
        guard jobs == nil else { throw UsageError("--jobs goes with --batch") }
        let verification: FileSetVerification
        switch (directory, sodFile) {
        case (let directory?, nil): verification = try settings.verify(folder: directory)
        case (nil, let sodFile?):
            var files = LdsMasterFile()
            files.sod = try readFile(sodFile, limit: InputLimit.ldsFile, what: "an LDS file")
            verification = try settings.verify(files, sodPath: sodFile)
        default: throw UsageError("give exactly one of --dir, --sod and --batch")
        }
        for warning in verification.warnings { printError("emrtd verify: warning: \(warning)") }
        print(verification.json.serialized(pretty: true))
        if strict && !verification.checks.accepted {
            printError(
                "emrtd verify: strict mode: " + verification.checks.unmetStrictRequirements.joined(separator: "; "))
        }
        return verification.passes ? 0 : 3
    }
}

/// What every document of one `verify` run is checked with: the trust store (loaded once, for a
/// batch too), the time, the page and strict mode. The verdict itself is the `Emrtd` package's
/// (`FileSetVerification`); this reads the folder and names the files in errors.
struct VerifySettings: Sendable {
    let trustStore: TrustStore
    let time: Date
    let printedZone: MachineReadableZone?
    let strict: Bool
    /// What is amiss with the trusted CSCAs, among every document's warnings.
    let trustWarning: String?
    /// The Active Authentication challenge the caller chose (`--challenge`).
    let challenge: [UInt8]?

    /// A dump folder (`DumpLayout.read`: `SOD.bin`, `DG1.bin` … `DG16.bin`, each file bounded).
    func verify(folder directory: String) throws(CommandFailure) -> FileSetVerification {
        let dump: (files: LdsMasterFile, notes: [String])
        let evidence: AcquisitionEvidence?
        do throws(OutputError) {
            dump = try DumpLayout.read(directory)
            evidence = try DumpLayout.readEvidence(directory)
        } catch {
            throw CommandFailure(error.reason)
        }
        let sodPath = URL(fileURLWithPath: directory).appendingPathComponent(LDSFileKind.sod.dumpFileName).path
        guard dump.files.sod != nil else {
            throw CommandFailure(
                "\(directory) holds no \(LDSFileKind.sod.dumpFileName) (the layout `emrtd dump` writes)")
        }
        return try verify(
            dump.files, sodPath: sodPath, notes: dump.notes,
            chipEvidence: OfflineChipEvidence(recorded: evidence, challenge: challenge))
    }

    /// The verdict of one file set (its EF.SOD read from `sodPath`, named when it does not parse).
    func verify(
        _ files: LdsMasterFile, sodPath: String, notes: [String] = [], chipEvidence: OfflineChipEvidence? = nil
    ) throws(CommandFailure) -> FileSetVerification {
        do throws(ReadError) {
            return try FileSetVerification(
                files: files, trustStore: trustStore, at: time, printedZone: printedZone, strict: strict,
                warnings: [trustWarning].compactMap { $0 } + notes, chipEvidence: chipEvidence)
        } catch {
            throw CommandFailure("\(sodPath) is not a readable EF.SOD: \(error.reason)")
        }
    }
}
