import ChipSimulator
import Emrtd
import Files
import Foundation
import LDS
import MRZ
import Output
import Transport

/// `emrtd report`: the HTML report of a dump (`emrtd read --out`, `emrtd dump`), its data
/// verified again against today's trust store.
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "write the HTML report of a dump, its data re-verified with the current trust store"
    static let usage = """
        usage: emrtd report DIR [--report FILE.html] [--csca FILE]... [--masterlist FILE.ml --ml-root CERT]...
                                [--no-builtin] [--at ISO8601] [--mrz-lines LINE...]

        The page of `emrtd read --report`: on top "Accepted" or "Not accepted" by the rules of
        --strict, each reason beside it; DG1 checked at --at (default now); with --mrz-lines (the
        MRZ printed on the page) the page compared with DG1 field by field.

        Reads the files of DIR (the `emrtd read --out` / `emrtd dump` layout) as the read does,
        through the chip simulator in this process opened with the MRZ of DIR/DG1.bin, verifies
        them by Passive Authentication against the trusted CSCAs (masterlist/csca.pem unless
        --no-builtin, plus each --csca PEM bundle or DER file and each --masterlist's CSCAs; a dump
        of the simulator holds its CSCA as DIR/CSCA.der, trusted when present; --at checks them at
        that time), and writes the page to FILE.html (default
        DIR/report.html: a temporary file renamed into place; a symbolic link, a device or a fifo
        there is refused, not replaced). The chip verdict is the simulator's, not the document's: a dump cannot
        prove a chip genuine. Exit status: 0 written, 1 unreadable dump or failed read, 2 wrong
        command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let reportPath = try arguments.option("--report")
        let trust = try TrustOptions.read(&arguments, builtIn: false)
        let printedZone = try arguments.variadic("--mrz-lines").map(StrictOption.printedZone)
        let positionals = try arguments.positionals()
        guard positionals.count == 1, let directory = positionals.first else { throw UsageError("give one DIR") }
        let folder = URL(fileURLWithPath: directory)
        var authorities = trust.authorityCertificates
        let dumpedCSCA = folder.appendingPathComponent(DumpLayout.countrySigningCertificateName)
        if FileManager.default.fileExists(atPath: dumpedCSCA.path) {
            authorities.append(try readCertificateFile(dumpedCSCA.path))
        }

        let files: ChipFiles
        let accessKey: AccessKey
        do {
            files = try ChipFiles(directory: folder)
            guard let dataGroup1 = files[dataGroup: 1] else { throw CommandFailure("\(directory) holds no DG1.bin") }
            accessKey = try accessKeyFromMrz(mrz: try MRZDataGroup(dataGroup1).machineReadableZone)
        } catch let error as ChipSimulatorError {
            throw CommandFailure(error.reason)
        } catch let error as LDSError {
            throw CommandFailure("DG1: \(error.reason)")
        } catch let error as MRZError {
            throw CommandFailure("DG1: \(error.reason)")
        }
        let config = ReaderConfig(
            useBuiltInAuthorityCertificates: trust.trustsDefaultBundle, authorityCertificates: authorities, debug: true)
        let document: TravelDocument
        do {
            document = try EmrtdReader(config: config, chipAccess: WithoutChipProtocols(), clock: trust.clock).read(
                transport: SimulatedChip(configuration: ChipConfiguration(files: files)), accessKey: accessKey)
        } catch {
            printError("emrtd report: \(readErrorMessage(error: error))")
            return 1
        }
        let checks = DocumentChecks(document: document, printedZone: printedZone, at: trust.clock())
        let dumped =
            FileManager.default.fileExists(atPath: dumpedCSCA.path)
            ? [TrustSource.file(.dumpedCSCA, path: dumpedCSCA.path, certificates: 1)] : []
        let page = HTMLReport.render(
            document, checks: checks, trust: trust.sources + dumped, title: "emrtd report \(folder.lastPathComponent)")
        let destination = reportPath ?? folder.appendingPathComponent("report.html").path
        do throws(FilesError) {
            try AtomicFile.write(Array(page.utf8), to: destination)
        } catch {
            throw CommandFailure(error.reason)
        }
        printError(
            "emrtd report: \(destination) (data \(document.authenticationStatus.data.status.rawValue), "
                + "\(checks.passesStrictMode ? "accepted" : "not accepted"))")
        return 0
    }
}

/// The chip access of a read with the secure channel withheld from the chip protocols: the
/// dump's files are read as a read reads them, and Chip and Active Authentication do not run
/// (the simulated chip replaying a dump does not hold the document's keys; a dump cannot prove a
/// chip genuine), so the chip verdict is `notSupported`.
struct WithoutChipProtocols: ChipAccessProcedure {
    let base = StandardChipAccess()

    func open(
        _ transport: any APDUTransport, accessKey: AccessKey, observer: (any PlainAPDUObserver)?,
        log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip {
        var opened = try base.open(transport, accessKey: accessKey, observer: observer, log: log)
        opened.channel = nil
        return opened
    }
}
