import CMS
import Emrtd
import Foundation
import JSON
import LDS
import MRZ

/// `emrtd verify`: Passive Authentication of files a dump wrote, offline.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check EF.SOD and the data groups of a dump (Passive Authentication) and print the verdict"
    static let usage = """
        usage: emrtd verify --dir DIR [--csca FILE]... [--crl FILE]... [--masterlist FILE.ml --ml-root CERT]...
                            [--no-builtin] [--at ISO8601] [--mrz-lines LINE...] [--strict | --require authenticated]
               emrtd verify --sod FILE [same options]

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
        their issuer's key signed them: a revoked certificate makes the data denied. --at checks certificate validity and
        expiry at that time instead of now.
        --mrz-lines gives the MRZ printed on the page; it is compared with DG1 field by field and
        each difference is a warning. --strict (or --require authenticated) exits 3 unless the
        data is authenticated, the page matches DG1, and DG1 is valid and not expired.
        Exit status: 0 authenticated (and, with --strict, every requirement met), 3 not, 1 unreadable
        input, 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let directory = try arguments.option("--dir")
        let sodFile = try arguments.option("--sod")
        let strict = try StrictOption.read(&arguments)
        let printedLines = arguments.variadic("--mrz-lines")
        let trust = try TrustOptions.read(&arguments, builtIn: true)
        guard try arguments.positionals().isEmpty else { throw UsageError("unexpected arguments") }
        let printedZone = try printedLines.map(StrictOption.printedZone)

        let sodPath: String
        var dataGroups: [Int: [UInt8]] = [:]
        var notes: [String] = []
        switch (directory, sodFile) {
        case (let directory?, nil):
            let folder = URL(fileURLWithPath: directory)
            sodPath = folder.appendingPathComponent(LDSFileKind.sod.dumpFileName).path
            guard FileManager.default.fileExists(atPath: sodPath) else {
                throw CommandFailure(
                    "\(directory) holds no \(LDSFileKind.sod.dumpFileName) (the layout `emrtd dump` writes)")
            }
            for number in 1...16 {
                guard let file = LDSFileKind.dataGroup(number) else { continue }
                let path = folder.appendingPathComponent(file.dumpFileName).path
                if FileManager.default.fileExists(atPath: path) {
                    dataGroups[number] = try readFile(path, limit: InputLimit.ldsFile, what: "an LDS file")
                }
            }
            notes += ignoredFiles(in: folder)
        case (nil, let sodFile?):
            sodPath = sodFile
        default:
            throw UsageError("give exactly one of --dir and --sod")
        }
        let securityObject: DocumentSecurityObject
        do {
            securityObject = try DocumentSecurityObject(
                bytes: readFile(sodPath, limit: InputLimit.ldsFile, what: "an LDS file"))
        } catch let error as CMSError {
            throw CommandFailure("\(sodPath) is not a readable EF.SOD: \(error.reason)")
        }
        let verdict = PassiveAuthentication.verify(
            securityObject, dataGroups: dataGroups, trustStore: trust.store, at: trust.time)

        // DG1, when there, for its validity and the page comparison.
        var chipZone: MachineReadableZone?
        if let dg1 = dataGroups[1] {
            do throws(LDSError) {
                chipZone = try MRZDataGroup(dg1).machineReadableZone
            } catch {
                notes.append("DG1 does not parse: \(error.reason)")
            }
        }
        let checks = DocumentChecks(
            data: verdict, chip: nil, chipZone: chipZone, printedZone: printedZone, at: trust.time)
        let warnings = [trust.warning].compactMap { $0 } + notes + checks.warnings
        for warning in warnings { printError("emrtd verify: warning: \(warning)") }

        print(
            adding(["checks": checks.json, "warnings": .array(warnings.map(JSONValue.string))], to: verdict.json)
                .serialized(pretty: true))
        if strict && !checks.passesStrictMode {
            printError("emrtd verify: strict mode: " + checks.unmetStrictRequirements.joined(separator: "; "))
            return 3
        }
        return verdict.status == .authenticated ? 0 : 3
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
