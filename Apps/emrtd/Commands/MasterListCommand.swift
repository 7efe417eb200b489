import ASN1
import CMS
import Files
import Foundation
import JSON

/// `emrtd masterlist`: inspects a CSCA master list, or imports it into the default bundle.
enum MasterListCommand: Command {
    static let name = "masterlist"
    static let printsOnlyJSON = true
    static let summary = "check a CSCA master list or an ICAO PKD LDIF file, or import it into the default trust bundle"
    static let usage = """
        usage: emrtd masterlist FILE.ml|FILE.ldif [--ml-root CERT | --ml-root-sha256 HEX] [--at ISO8601]
               emrtd masterlist import FILE.ml|FILE.ldif [--ml-root CERT | --ml-root-sha256 HEX] [--append | --replace]
                                   [--out FILE] [--at ISO8601]

        The first form prints, as JSON, how many certificates the list holds, their countries,
        the signer, and whether the list's signature and its signer's chain to CERT verify
        (the chain is null without --ml-root). --ml-root-sha256 names the root by the SHA-256
        fingerprint of its DER instead, taken from the certificates the file itself carries (the
        ICAO master list's United Nations CSCA: the pin, not the copy, is what is trusted). For an ICAO PKD LDIF file (its DSC, CRL or
        master-list download) it prints what the file holds and each master list's check.
        `import` writes the list's certificates as a PEM bundle to the default trust bundle
        ($EMRTD_CSCA_BUNDLE, else masterlist/csca.pem in a checkout, else
        ~/.local/share/emrtd/csca.pem — $XDG_DATA_HOME/emrtd/csca.pem —, where every `emrtd`
        finds it; or --out FILE) — only when the signature and the signer's chain to CERT
        verify. From an LDIF file it imports the CSCAs of every master list (each must verify
        against CERT), the Document Signer certificates (used for an EF.SOD that carries none;
        they still chain to a CSCA) and the CRLs (used when their issuer's key signed them).
        --append keeps the bundle's certificates and CRLs. An import never leaves the bundle with
        fewer certificates than it holds unless --replace is given (which also replaces a bundle
        that does not parse). The bundle is written to a temporary file and renamed into place: a
        failure leaves the old one intact; a symbolic link, a device or a fifo at FILE is refused.
        A master list is at most \(CappedFile.describe(InputLimit.masterList)), an LDIF file \(CappedFile.describe(InputLimit.pkdLDIF)), refused beyond before
        they are read.
        Exit status: 0 verified (or imported), 3 not verified (a signature or chain that fails,
        or no --ml-root, so the chain was not checked), nothing to import (no readable
        certificate or CRL in the file), or an import that would shrink the bundle (nothing
        written), 1 unreadable input or a bundle that cannot be written, 2 wrong command line
        (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let rootFile = try arguments.option("--ml-root")
        let pin = try arguments.option("--ml-root-sha256").map(rootPin)
        let time = try arguments.option("--at").map(TrustOptions.parseTime) ?? Date()
        let append = arguments.flag("--append")
        let replace = arguments.flag("--replace")
        let output = try arguments.option("--out")
        var files = try arguments.positionals()
        let importing = files.first == "import"
        if importing { files.removeFirst() }
        if let stray = files.dropFirst().first { throw UsageError("unexpected argument '\(stray)'") }
        guard files.count == 1, let file = files.first else { throw UsageError("give one FILE.ml or FILE.ldif") }
        guard importing || (output == nil && !append && !replace) else {
            throw UsageError("--out, --append and --replace go with import")
        }
        guard !(append && replace) else { throw UsageError("--append and --replace exclude each other") }
        guard rootFile == nil || pin == nil else {
            throw UsageError("--ml-root and --ml-root-sha256 exclude each other")
        }
        let fileRoots = try rootFile.map(loadCertificates) ?? []
        let rootGiven = rootFile != nil || pin != nil
        let rootName = rootFile ?? pin.map { "the certificate of SHA-256 \(Hex.encode($0))" } ?? ""

        let bytes = try readFile(file) { prefix in
            PKDLDIF.isLDIF(prefix)
                ? CappedFile.Kind("an ICAO PKD LDIF file", limit: InputLimit.pkdLDIF)
                : CappedFile.Kind("a master list", limit: InputLimit.masterList)
        }
        let target = ImportTarget(output: output, append: append, replace: replace)
        if PKDLDIF.isLDIF(bytes) {
            let download: PKDLDIF
            do throws(CMSError) {
                download = try PKDLDIF(bytes: bytes)
            } catch {
                throw CommandFailure("\(file) is not a readable LDIF file: \(error.reason)")
            }
            let carried = download.masterLists.flatMap { $0.signedData.certificates + $0.certificates }
            return try ldif(
                download, file: file, roots: pin.map { pinned($0, among: carried) } ?? fileRoots,
                rootGiven: rootGiven, importing: importing, at: time, into: target)
        }
        let list: MasterList
        do throws(CMSError) {
            list = try MasterList(bytes: bytes)
        } catch {
            throw CommandFailure("\(file) is not a readable master list: \(error.reason)")
        }
        let roots = pin.map { pinned($0, among: list.signedData.certificates + list.certificates) } ?? fileRoots
        if let pin, roots.isEmpty {
            printError("emrtd masterlist: \(file) carries no certificate of SHA-256 \(Hex.encode(pin))")
        }
        let verification = list.verify(roots: roots, at: time)
        guard importing else {
            print(report(list, verification).serialized(pretty: true))
            if list.certificates.isEmpty { return nothingToImport(file, "no certificate") }
            if !rootGiven {
                printError("emrtd masterlist: not verified: without --ml-root the signer's chain was not checked")
            }
            return verification.signatureValid && verification.signerChainValid == true ? 0 : 3
        }
        guard rootGiven else { throw UsageError("import needs --ml-root CERT or --ml-root-sha256 HEX") }
        guard verification.isTrusted else {
            printError(
                "emrtd masterlist: \(file) does not verify against \(rootName), nothing imported: "
                    + verification.problems.map(\.description).joined(separator: "; "))
            return 3
        }
        guard !list.certificates.isEmpty else { return nothingToImport(file, "no certificate") }
        var store = TrustStore()
        store.add(list.certificates)
        return try target.write(store)
    }

    /// An ICAO PKD LDIF file: its master lists checked against `roots`, its DSCs and CRLs taken
    /// as they are (each protects itself: a DSC must still chain to a CSCA, a CRL be signed by
    /// its issuer).
    private static func ldif(
        _ download: PKDLDIF, file: String, roots: [Certificate], rootGiven: Bool, importing: Bool, at time: Date,
        into target: ImportTarget
    ) throws -> Int32 {
        let verifications = download.masterLists.map { $0.verify(roots: roots, at: time) }
        let untrusted = verifications.enumerated().filter { !$0.element.isTrusted }
        for problem in download.problems { printError("emrtd masterlist: warning: \(file): \(problem)") }
        // An LDIF file whose every entry is unreadable (or that has none) is not an empty import.
        let nothing =
            download.certificates.isEmpty && download.revocationLists.isEmpty
            && download.masterLists.allSatisfy(\.certificates.isEmpty)
        guard importing else {
            let summary: JSONValue = [
                "entries": .integer(download.entryCount),
                "certificates": .integer(download.certificates.count),
                "documentSigners": .integer(download.certificates.count(where: \.isDocumentSignerOnly)),
                "revocationLists": .integer(download.revocationLists.count),
                "masterLists": .array(zip(download.masterLists, verifications).map { report($0, $1) }),
                "problems": .array(download.problems.map(JSONValue.string)),
            ]
            print(summary.serialized(pretty: true))
            if nothing { return nothingToImport(file, "no readable certificate or CRL") }
            if !download.masterLists.isEmpty && !rootGiven {
                printError(
                    "emrtd masterlist: not verified: without --ml-root the master lists' chains were not checked")
            }
            return untrusted.isEmpty ? 0 : 3
        }
        guard !nothing else { return nothingToImport(file, "no readable certificate or CRL") }
        guard download.masterLists.isEmpty || rootGiven else {
            throw UsageError("\(file) holds master lists: import needs --ml-root CERT")
        }
        guard untrusted.isEmpty else {
            printError(
                "emrtd masterlist: \(file): master list \(untrusted[0].offset + 1) of \(download.masterLists.count) "
                    + "does not verify, nothing imported: "
                    + untrusted[0].element.problems.map(\.description).joined(separator: "; "))
            return 3
        }
        var store = TrustStore()
        for list in download.masterLists { store.add(list.certificates) }
        store.add(download.certificates)
        for list in download.revocationLists { store.add(list) }
        return try target.write(store)
    }

    /// `--ml-root-sha256`: 64 hex digits (colons and spaces allowed, as tools print them).
    private static func rootPin(_ text: String) throws -> [UInt8] {
        let digits = text.filter { $0 != ":" && $0 != " " }
        guard let pin = Hex.decode(digits), pin.count == 32 else {
            throw UsageError("--ml-root-sha256 takes a SHA-256 fingerprint, 64 hex digits")
        }
        return pin
    }

    /// The certificates among `carried` whose DER hashes to `pin` (one, or none).
    private static func pinned(_ pin: [UInt8], among carried: [Certificate]) -> [Certificate] {
        Array(carried.filter { $0.sha256Fingerprint == pin }.prefix(1))
    }

    /// A file with nothing in it to trust, checked or imported: said, and exit 3 (an empty
    /// import must not read as a success, nor replace a bundle).
    private static func nothingToImport(_ file: String, _ holds: String) -> Int32 {
        printError("emrtd masterlist: nothing to import: \(file) holds \(holds)")
        return 3
    }

    private static func report(_ list: MasterList, _ verification: SignedListVerification) -> JSONValue {
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

    /// Where an import goes and how it treats the bundle already there.
    private struct ImportTarget {
        /// `--out`, else the default bundle's place.
        let path: String
        /// `--append`: the bundle's certificates and CRLs are kept.
        let append: Bool
        /// `--replace`: the bundle may shrink, or be replaced when it does not parse.
        let replace: Bool

        init(output: String?, append: Bool, replace: Bool) {
            path = output ?? DefaultTrustBundle.writeLocation.path
            self.append = append
            self.replace = replace
        }

        /// Writes `imported` (with the bundle's own certificates and CRLs under `--append`);
        /// returns 3 without writing when the bundle would lose certificates (no `--replace`).
        func write(_ imported: TrustStore) throws -> Int32 {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("cannot create \(folder): \(fileSystemWords(error))")
            }
            // The default bundle's folder is shared with `trust update`: read and rewritten under its lock.
            let lock =
                path == DefaultTrustBundle.writeLocation.path ? try TrustFolderLock(URL(fileURLWithPath: folder)) : nil
            defer { withExtendedLifetime(lock) {} }
            var existing = TrustStore()
            let bytes: [UInt8]
            do throws(FilesError) {
                let exists = try AtomicFile.existsAsRegularFile(path)
                bytes =
                    exists
                    ? try CappedFile.read(path, as: CappedFile.Kind("a trust bundle", limit: InputLimit.trustBundle))
                    : []
            } catch {
                throw CommandFailure(error.reason)
            }
            do throws(CMSError) {
                if !bytes.isEmpty { try existing.add(pemOrDer: bytes) }
            } catch {
                guard replace else {
                    throw CommandFailure(
                        "\(path) is not a readable bundle (\(error.reason)), nothing written: --replace replaces it")
                }
            }
            var store = append ? existing : TrustStore()
            store.add(imported.certificates)
            for lists in imported.revocationLists.values { for list in lists { store.add(list) } }
            guard replace || store.certificates.count >= existing.certificates.count else {
                printError(
                    "emrtd masterlist: \(path) holds \(existing.certificates.count) certificates, the import would "
                        + "leave \(store.certificates.count), nothing written: --append adds to the bundle, "
                        + "--replace replaces it")
                return 3
            }
            let (known, kept) = (Set(existing.certificates.map(\.der)), Set(store.certificates.map(\.der)))
            let added = store.certificates.count { !known.contains($0.der) }
            let dropped = existing.certificates.count { !kept.contains($0.der) }
            do throws(FilesError) {
                try AtomicFile.write(Array(store.pem.utf8), to: path)
            } catch {
                throw CommandFailure(error.reason)
            }
            let crls = store.revocationLists.values.reduce(0) { $0 + $1.count }
            printError(
                "emrtd masterlist: \(added) new certificates, \(dropped) dropped, \(store.certificates.count) in \(path)"
                    + " (\(store.documentSignerCount) Document Signers, \(crls) CRLs)")
            return 0
        }
    }
}
