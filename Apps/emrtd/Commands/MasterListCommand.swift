import CMS
import Foundation
import JSON

/// `emrtd masterlist`: inspects a CSCA master list, or imports it into the default bundle.
enum MasterListCommand: Command {
    static let name = "masterlist"
    static let summary = "check a CSCA master list, or import it into the reader's default trust bundle"
    static let usage = """
        usage: emrtd masterlist FILE.ml [--ml-root CERT] [--at ISO8601]
               emrtd masterlist import FILE.ml --ml-root CERT [--append] [--out FILE] [--at ISO8601]

        The first form prints, as JSON, how many certificates the list holds, their countries,
        the signer, and whether the list's signature and its signer's chain to CERT verify
        (the chain is null without --ml-root).
        `import` writes the list's certificates as a PEM bundle to the default trust bundle
        ($EMRTD_CSCA_BUNDLE, else masterlist/csca.pem in a checkout, else
        ~/.local/share/emrtd/csca.pem — $XDG_DATA_HOME/emrtd/csca.pem —, where every `emrtd`
        finds it; or --out FILE) — only when the signature and the signer's chain to CERT
        verify. --append keeps the bundle's certificates.
        Exit status: 0 verified (or imported), 3 not verified (a signature or chain that fails,
        or no --ml-root, so the chain was not checked), 1 unreadable input, 2 wrong command line
        (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let rootFile = try arguments.option("--ml-root")
        let time = try arguments.option("--at").map(TrustOptions.parseTime) ?? Date()
        let append = arguments.flag("--append")
        let output = try arguments.option("--out")
        var files = try arguments.positionals()
        let importing = files.first == "import"
        if importing { files.removeFirst() }
        guard files.count == 1, let file = files.first else { throw UsageError("give one FILE.ml") }
        guard importing || (output == nil && !append) else { throw UsageError("--out and --append go with import") }

        let list = try loadMasterList(file)
        let roots = try rootFile.map(loadCertificates) ?? []
        let verification = list.verify(roots: roots, at: time)
        guard importing else {
            print(report(list, verification).serialized(pretty: true))
            if rootFile == nil {
                printError("emrtd masterlist: not verified: without --ml-root the signer's chain was not checked")
            }
            return verification.signatureValid && verification.signerChainValid == true ? 0 : 3
        }
        guard rootFile != nil else { throw UsageError("import needs --ml-root CERT") }
        guard verification.isTrusted else {
            printError(
                "emrtd masterlist: \(file) does not verify against \(rootFile ?? ""), nothing imported: "
                    + verification.problems.map(\.description).joined(separator: "; "))
            return 3
        }
        return try write(list, to: output, append: append)
    }

    private static func report(_ list: MasterList, _ verification: MasterList.Verification) -> JSONValue {
        [
            "certificates": .integer(list.certificates.count),
            "countries": .array(list.countries.map(JSONValue.string)),
            "signer": .optional(verification.signer.map(CertificateInfo.init)),
            "signingTime": .optional(verification.signingTime.map { ISO8601DateFormatter().string(from: $0) }),
            "signatureValid": .bool(verification.signatureValid),
            "signerChainValid": verification.signerChainValid.map(JSONValue.bool) ?? .null,
            "root": .optional(verification.root.map(CertificateInfo.init)),
            "errors": .array(verification.problems.map { .string($0.description) }),
        ]
    }

    private static func write(_ list: MasterList, to output: String?, append: Bool) throws -> Int32 {
        let destination = output.map(URL.init(fileURLWithPath:)) ?? DefaultTrustBundle.writeLocation
        var store = TrustStore()
        if append, FileManager.default.fileExists(atPath: destination.path) {
            do {
                try store.add(pemOrDer: readCertificateFile(destination.path))
            } catch let error as CMSError {
                throw CommandFailure("\(destination.path): \(error.reason)")
            }
        }
        let added = store.add(list.certificates)
        let pem = store.pem
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(pem.utf8).write(to: destination, options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(destination.path): \(error.localizedDescription)")
        }
        printError("emrtd masterlist: \(added) new certificates, \(store.certificates.count) in \(destination.path)")
        return 0
    }
}
