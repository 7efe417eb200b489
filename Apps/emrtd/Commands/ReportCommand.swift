import CMS
import Emrtd
import Files
import Foundation
import LDS
import MRZ
import Output

/// `emrtd report`: the HTML report of a dump (`emrtd read --out`, `emrtd dump`), its data
/// verified again against today's trust store.
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "write the HTML report of a dump, its data re-verified with the current trust store"
    static let examples = [
        "# the page of a dump of the simulator, its test CSCA trusted by name, to dump/report.html",
        "emrtd report dump --csca dump/CSCA.der",
    ]
    static let usage = """
        usage: emrtd report DIR [--report FILE.html] [--csca FILE]... [--masterlist FILE.ml --ml-root CERT]...
                                [--no-builtin] [--at ISO8601] [--mrz-lines LINE...]

        The page of `emrtd read --report`: on top "Accepted" or "Not accepted" by the rules of
        --strict, each reason beside it; DG1 checked at --at (default now); with --mrz-lines (the
        MRZ printed on the page) the page compared with DG1 field by field.

        Reads the files of DIR (the `emrtd read --out` / `emrtd dump` layout) and makes the
        document of them as a read does (EF.COM, EF.SOD, DG1 and DG2 are mandatory), verifies
        them by Passive Authentication against the trusted CSCAs (the built-in bundle unless
        --no-builtin, plus each --csca PEM bundle or DER file and each --masterlist's CSCAs; --at
        checks them at that time). Nothing in DIR is trusted: whoever wrote the folder would choose
        its trust anchor. A dump of the simulator holds its test CSCA as DIR/CSCA.der; trust it by
        naming it, --csca DIR/CSCA.der. It writes the page to FILE.html (default
        DIR/report.html: a temporary file renamed into place; a symbolic link, a device or a fifo
        there is refused, not replaced). The chip verdict is notSupported: a dump cannot
        prove a chip genuine. Exit status: 0 written, 1 unreadable dump or failed read, 2 wrong
        command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let reportPath = try arguments.option("--report")
        let trust = try TrustOptions.read(&arguments, builtIn: false)
        let printedZone = try arguments.variadic("--mrz-lines").map(StrictOption.printedZone)
        guard let directory = try arguments.positionals(atMost: 1).first else { throw UsageError("give one DIR") }
        let folder = URL(fileURLWithPath: directory)

        let document: TravelDocument
        do {
            let dump = try DumpLayout.read(directory)
            let trustStore = try TrustStore.assemble(
                includingDefaultBundle: trust.trustsDefaultBundle, authorityCertificates: trust.authorityCertificates)
            let trustWarning = trustStore.store.assemblyWarning(defaultBundleProblem: trustStore.defaultBundleProblem)
            document = try assembleTravelDocument(
                files: dump.files,
                evidence: .dump(
                    warnings: [trustWarning].compactMap { $0 } + dump.notes,
                    acquisitionEvidence: try DumpLayout.readEvidence(directory)),
                trustStore: trustStore.store, at: trust.clock(), renderImages: true)
        } catch let error as OutputError {
            throw CommandFailure(error.reason)
        } catch let error as CMSError {
            throw CommandFailure(error.reason)
        } catch let error as ReadError {
            printError("emrtd report: \(readErrorMessage(error: error))")
            return 1
        }
        let checks = DocumentChecks(document: document, printedZone: printedZone, at: trust.clock())
        let page = HTMLReport.render(
            document, checks: checks, trust: trust.sources, title: "emrtd report \(folder.lastPathComponent)")
        let destination = reportPath ?? folder.appendingPathComponent("report.html").path
        do throws(FilesError) {
            try AtomicFile.write(Array(page.utf8), to: destination)
        } catch {
            throw CommandFailure(error.reason)
        }
        printError(
            "emrtd report: \(destination) (data \(document.authenticationStatus.data.status.rawValue), "
                + "\(checks.accepted ? "accepted" : "not accepted"))")
        return 0
    }
}
