import CMS
import Emrtd
import Foundation
import JSON
import LDS
import MRZ

/// `emrtd verify`: Passive Authentication of files a dump wrote, offline.
enum VerifyCommand: Command {
    static let name = "verify"
    static let printsOnlyJSON = true
    static let summary = "check EF.SOD and the data groups of a dump (Passive Authentication) and print the verdict"
    static let usage = """
        usage: emrtd verify --dir DIR [--csca FILE]... [--crl FILE]... [--masterlist FILE.ml --ml-root CERT]...
                            [--deviation-list FILE]... [--no-builtin] [--at ISO8601] [--mrz-lines LINE...]
                            [--strict | --require authenticated]
               emrtd verify --sod FILE [same options]
               emrtd verify --batch DIR|- [--jobs N] [same options but --mrz-lines]

        Checks DIR/SOD.bin against DIR/DG1.bin … DIR/DG16.bin (the files a dump writes), or a
        lone EF.SOD, and prints the Passive Authentication verdict as JSON, with a "checks" object
        (DG1's check digits, dates and expiry, the page compared with the chip, strict mode).
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
        Exit status of a batch: 1 when any dump could not be loaded, else 3 when any was not
        accepted, else 0.
        Exit status: 0 authenticated (and, with --strict, every requirement met), 3 not, 1 unreadable
        input, 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let directory = try arguments.option("--dir")
        let sodFile = try arguments.option("--sod")
        let batch = try arguments.option("--batch")
        let jobs = try arguments.option("--jobs")
        let strict = try StrictOption.read(&arguments)
        let printedLines = arguments.variadic("--mrz-lines")
        let trust = try TrustOptions.read(&arguments, builtIn: true)
        guard try arguments.positionals().isEmpty else { throw UsageError("unexpected arguments") }
        let settings = VerifySettings(
            trustStore: trust.store, time: trust.time, printedZone: try printedLines.map(StrictOption.printedZone),
            strict: strict, trustWarning: trust.warning)

        if let batch {
            guard directory == nil, sodFile == nil else { throw UsageError("give one of --dir, --sod and --batch") }
            guard printedLines == nil else {
                throw UsageError("--mrz-lines is one document's page; it does not go with --batch")
            }
            return try BatchVerification.run(
                source: batch, settings: settings, jobs: try BatchVerification.jobs(jobs))
        }
        guard jobs == nil else { throw UsageError("--jobs goes with --batch") }
        let files: DumpFiles
        switch (directory, sodFile) {
        case (let directory?, nil): files = try DumpFiles(folder: directory)
        case (nil, let sodFile?): files = try DumpFiles(sod: sodFile)
        default: throw UsageError("give exactly one of --dir, --sod and --batch")
        }
        let outcome = settings.verify(files)
        for warning in outcome.warnings { printError("emrtd verify: warning: \(warning)") }
        print(outcome.json.serialized(pretty: true))
        if strict && !outcome.checks.passesStrictMode {
            printError("emrtd verify: strict mode: " + outcome.checks.unmetStrictRequirements.joined(separator: "; "))
        }
        return outcome.status
    }
}

/// The files `verify` checks of one document: EF.SOD, parsed, and the data groups beside it.
struct DumpFiles: Sendable {
    let securityObject: DocumentSecurityObject
    var dataGroups: [Int: [UInt8]] = [:]
    /// What the folder holds that was not checked (misnamed files), said as warnings.
    var notes: [String] = []

    /// A folder in the dump layout (`SOD.bin`, `DG1.bin` … `DG16.bin`); each file bounded.
    init(folder directory: String) throws(CommandFailure) {
        let folder = URL(fileURLWithPath: directory)
        let sodPath = folder.appendingPathComponent(LDSFileKind.sod.dumpFileName).path
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandFailure("\(directory) is not a directory (a dump folder, the layout `emrtd dump` writes)")
        }
        guard FileManager.default.fileExists(atPath: sodPath) else {
            throw CommandFailure(
                "\(directory) holds no \(LDSFileKind.sod.dumpFileName) (the layout `emrtd dump` writes)")
        }
        try self.init(sod: sodPath)
        for number in 1...16 {
            guard let file = LDSFileKind.dataGroup(number) else { continue }
            let path = folder.appendingPathComponent(file.dumpFileName).path
            if FileManager.default.fileExists(atPath: path) {
                dataGroups[number] = try Self.read(path)
            }
        }
        notes = Self.ignoredFiles(in: folder)
    }

    /// A lone EF.SOD (no data group beside it).
    init(sod sodPath: String) throws(CommandFailure) {
        do {
            securityObject = try DocumentSecurityObject(bytes: Self.read(sodPath))
        } catch let error as CMSError {
            throw CommandFailure("\(sodPath) is not a readable EF.SOD: \(error.reason)")
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(sodPath): \(error)")
        }
    }

    private static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        try readFile(path, limit: InputLimit.ldsFile, what: "an LDS file")
    }

    /// Files of the folder that are not in the dump layout, named, so that a misnamed DG1
    /// (`dg1.bin`, `EF_DG1.bin`) is seen rather than silently left out.
    private static func ignoredFiles(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let layout = Set(LDSFileKind.allCases.map(\.dumpFileName))
        return names.filter { $0.lowercased().hasSuffix(".bin") && !layout.contains($0) }.sorted().map {
            "\($0) is not a file name of the dump layout (COM.bin, SOD.bin, DG1.bin … DG16.bin) and was not checked"
        }
    }
}

/// What every document of one `verify` run is checked with: the trust store (loaded once, for a
/// batch too), the time, the page and strict mode.
struct VerifySettings: Sendable {
    let trustStore: TrustStore
    let time: Date
    let printedZone: MachineReadableZone?
    let strict: Bool
    /// What is amiss with the trusted CSCAs, among every document's warnings.
    let trustWarning: String?

    /// The verdict of one document: the Passive Authentication verdict's JSON with `checks` and
    /// `warnings` added, and the exit status it alone would give (0 accepted, 3 not).
    func verify(_ files: DumpFiles) -> (json: JSONValue, warnings: [String], checks: DocumentChecks, status: Int32) {
        var notes = files.notes
        // DG1, when there, for its issuing state (the CSCA's country must match), its validity and
        // the page comparison.
        var chipZone: MachineReadableZone?
        if let dg1 = files.dataGroups[1] {
            do throws(LDSError) {
                chipZone = try MRZDataGroup(dg1).machineReadableZone
            } catch {
                notes.append("DG1 does not parse: \(error.reason)")
            }
        }
        let verdict = PassiveAuthentication.verify(
            files.securityObject, dataGroups: files.dataGroups, trustStore: trustStore, at: time,
            issuingState: chipZone?.fields.issuingState, documentCode: chipZone?.fields.documentCode,
            documentNumber: chipZone?.fields.documentNumber)
        let checks = DocumentChecks(data: verdict, chip: nil, chipZone: chipZone, printedZone: printedZone, at: time)
        // A known defect the issuing state lists is a warning too, whatever the verdict.
        let deviations = verdict.errors.filter { $0.code == "listedDeviation" }.map(\.description)
        let warnings = [trustWarning].compactMap { $0 } + notes + deviations + checks.warnings
        let json = adding(
            ["checks": checks.json, "warnings": .array(warnings.map(JSONValue.string))], to: verdict.json)
        let accepted = verdict.status == .authenticated && (!strict || checks.passesStrictMode)
        return (json, warnings, checks, accepted ? 0 : 3)
    }
}
