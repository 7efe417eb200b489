import ASN1
import CMS
import Files
import Foundation
import JSON

/// `emrtd trust`: what the default bundle trusts and which master list brought each certificate,
/// and whether a DSC or an EF.SOD would chain to it, so that trust is inspected, not assumed.
enum TrustCommand: Command {
    static let name = "trust"
    static let summary =
        "list the trusted CSCAs and the master lists they come from, check a DSC or EF.SOD, build or update the bundle"
    static let usage = """
        usage: emrtd trust list [--json]
               emrtd trust show FINGERPRINT|COUNTRY
               emrtd trust check FILE [--at ISO8601]
               emrtd trust build DIR [--out FILE]
               emrtd trust update FILE.ml|FILE.dl|FILE.ldif

        The default trust bundle (masterlist/README.md) as JSON; `list` on a terminal prints a
        table instead (country, expiry, subject, lists) unless --json. `list`: every certificate's
        country, subject, validity, SHA-256 fingerprint, whether it is a link certificate (not
        self-issued), and the master lists holding it (the lists of the SOURCES file beside the
        bundle, as Tools/build-trust-bundle.sh derived it; none for a certificate imported
        otherwise), with each list's signing time and counts. `show` prints the certificates
        whose fingerprint starts with FINGERPRINT (at least 8 hex digits) or whose country is
        COUNTRY, in full. `check` says whether FILE, a Document Signer certificate or an EF.SOD
        (its DSC), chains to a trusted CSCA at --at (default now): the CSCA found, or the
        problems.
        `build` derives a bundle (default DIR/csca.pem) from the master lists DIR/SOURCES names
        (Tools/build-trust-bundle.sh runs it on masterlist/): every list and root must match its
        SHA-256 there, else nothing is built; each list is kept only when it verifies against its
        root at its signing time; one that does not is left out with a WARNING.
        `update` takes a master list, a deviation list or an ICAO PKD LDIF file (told apart by
        content). A master list replaces the list in the bundle's folder whose signer is of the
        same country, only when it is signed later and verifies against the same root. A
        deviation list (ICAO 9303-12 §10) is added when it verifies under a CSCA of the bundle,
        or replaces the one of its signer's country when signed later; read and verify then name
        each deviation listed for a document (its DSC or CSCA, type, number) in the verdict's
        errors as "listedDeviation" (the status stays what the checks say). An LDIF's master lists
        are each taken as a master list would be; its Document Signers and CRLs, when it has any,
        replace the previous download's (its CA certificates are left out: an LDIF is not signed).
        The files are copied beside the bundle, SOURCES' lines rewritten for them, the bundle it
        replaces kept as csca.pem.previous, and the bundle derived again.
        Exit status: 0 listed, shown, chains, built or updated; 3 nothing shown, does not chain, no
        list verified, or an update refused (older, not verified, no list of its country, nothing
        to take); 1 no bundle or an unreadable file; 2 wrong command line (the table: emrtd --help).
        """

    /// `trust list` for people: the bundle and its lists in a line each, then one row a
    /// certificate (country, expiry date, subject, the lists holding it), sorted by country.
    static func table(_ summary: JSONValue) -> String {
        func text(_ value: JSONValue?) -> String { if case .string(let text)? = value { text } else { "" } }
        func number(_ value: JSONValue?) -> String {
            if case .integer(let number)? = value { "\(number)" } else { "?" }
        }
        var lines = [
            "\(text(summary["bundle"])): \(number(summary["certificates"])) CSCAs of \(number(summary["countries"]))"
                + " countries (\(number(summary["linkCertificates"])) link certificates)"
        ]
        if case .array(let lists)? = summary["lists"] {
            for list in lists {
                lines.append(
                    "  \(text(list["file"])), signed \(text(list["signingTime"]).prefix(10)): "
                        + "\(number(list["certificates"])) certificates, \(number(list["brought"])) first brought by it"
                )
            }
        }
        lines.append("")
        lines.append("COUNTRY  NOT AFTER   SUBJECT")
        guard case .array(let entries)? = summary["entries"] else { return lines.joined(separator: "\n") }
        let rows = entries.map { entry in
            (text(entry["country"]), String(text(entry["notAfter"]).prefix(10)), text(entry["subject"]))
        }
        for (country, notAfter, subject) in rows.sorted(by: { ($0.0, $0.2) < ($1.0, $1.2) }) {
            let padded = country.padding(toLength: 7, withPad: " ", startingAt: 0)
            lines.append("\(padded)  \(notAfter.padding(toLength: 10, withPad: " ", startingAt: 0))  \(subject)")
        }
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let time = try arguments.option("--at").map(TrustOptions.parseTime)
        let json = arguments.flag("--json")
        let output = try arguments.option("--out")
        let words = try arguments.positionals()
        guard let action = words.first else { throw UsageError("give list, show, check, build or update") }
        guard action == "check" || time == nil else { throw UsageError("--at goes with check") }
        guard action == "build" || output == nil else { throw UsageError("--out goes with build") }
        let arity = ["list": 1, "show": 2, "check": 2, "build": 2, "update": 2]
        if let count = arity[action], let stray = words.dropFirst(count).first {
            throw UsageError("unexpected argument '\(stray)'")
        }
        switch (action, words.count) {
        case ("list", 1):
            let bundle = try ProvenancedBundle.load()
            let summary = bundle.summary(entries: bundle.store.certificates)
            print(json || isatty(STDOUT_FILENO) != 1 ? summary.serialized(pretty: true) : table(summary))
            return 0
        case ("show", 2):
            let bundle = try ProvenancedBundle.load()
            let selected = try select(words[1], from: bundle.store.certificates)
            print(JSONValue.array(selected.map { bundle.entry($0, full: true) }).serialized(pretty: true))
            if selected.isEmpty { printError("emrtd trust: no trusted certificate matches \(words[1])") }
            return selected.isEmpty ? 3 : 0
        case ("check", 2):
            return try check(words[1], store: ProvenancedBundle.load().store, at: time ?? Date())
        case ("build", 2):
            let folder = URL(fileURLWithPath: words[1])
            return try build(
                folder: folder, out: output ?? folder.appendingPathComponent("csca.pem").path)
        case ("update", 2):
            return try update(words[1])
        default:
            throw UsageError("give list, show FINGERPRINT|COUNTRY, check FILE, build DIR or update FILE")
        }
    }

    /// A fingerprint prefix (8 or more hex digits) or a country code (2 or 3 letters).
    private static func select(_ key: String, from certificates: [Certificate]) throws -> [Certificate] {
        if key.count >= 8, key.allSatisfy(\.isHexDigit) {
            let digits = key.uppercased()
            return certificates.filter { Hex.encode($0.sha256Fingerprint).hasPrefix(digits) }
        }
        guard (2...3).contains(key.count), key.allSatisfy(\.isLetter) else {
            throw UsageError("show takes a SHA-256 fingerprint (8 or more hex digits) or a country code")
        }
        return certificates.filter { $0.subject.country == key.uppercased() }
    }

    /// The SOURCES in `folder`.
    private static func sources(in folder: URL) throws -> (text: String, sources: BundleSources) {
        let path = folder.appendingPathComponent("SOURCES").path
        let text = String(decoding: try readFile(path, limit: InputLimit.configuration, what: "SOURCES"), as: UTF8.self)
        do throws(CMSError) {
            return (text, try BundleSources(text: text))
        } catch {
            throw CommandFailure("\(path): \(error.reason)")
        }
    }

    /// Derives the bundle from `folder`'s lists and writes it to `out`; 3 when no list verified.
    private static func build(folder: URL, out: String) throws -> Int32 {
        let lock = try TrustFolderLock(folder)
        defer { withExtendedLifetime(lock) {} }
        let sources = try sources(in: folder).sources
        let derivation: BundleSources.Derivation
        do throws(CMSError) {
            derivation = try sources.derive(in: folder)
        } catch {
            throw CommandFailure("\(error.reason), no bundle built")
        }
        for note in derivation.notes { printError("emrtd trust: \(note)") }
        for problem in derivation.leftOut { printError("emrtd trust: WARNING: \(problem): LEFT OUT of the bundle") }
        guard !derivation.store.isEmpty else {
            printError("emrtd trust: no master list verified, no bundle built")
            return 3
        }
        do throws(FilesError) {
            try AtomicFile.write(Array(derivation.store.pem.utf8), to: out)
        } catch {
            throw CommandFailure(error.reason)
        }
        printError("emrtd trust: \(out) from \(derivation.notes.count) master lists")
        return 0
    }

    /// What an update changes in the bundle's folder: the new SOURCES text, the files to write
    /// beside it, and what was done or refused (said on stderr).
    private struct FolderUpdate {
        var lines: [String]
        var files: [String: [UInt8]] = [:]
        var done: [String] = []
        var refused: [String] = []

        /// Puts `entry` (a `list`, `deviations` or `pkd` line) and `checksum` in place of the lines
        /// naming `file`, each where its predecessor was, or appends them when none names it.
        mutating func replace(file: String?, entry: String, checksum: String) {
            var replaced = false
            lines = lines.map { line in
                let fields = line.split(separator: " ").map(String.init)
                guard let file, fields.count >= 2, fields[1] == file else { return line }
                if ["list", "deviations", "pkd"].contains(fields[0]) {
                    replaced = true
                    return entry
                }
                return fields.count == 2 && fields[0].count == 64 ? checksum : line
            }
            guard !replaced else { return }
            let end = (lines.lastIndex { !$0.isEmpty } ?? -1) + 1
            lines.insert(contentsOf: [checksum, entry], at: end)
        }

        static func checksumLine(_ bytes: [UInt8], _ name: String) -> String {
            "\(Hex.encode(BundleSources.checksum(of: bytes), uppercase: false))  \(name)"
        }
    }

    /// `update FILE`: a master list (`.ml`), a deviation list or an ICAO PKD LDIF file, told apart
    /// by content. A master list replaces the folder's list of the same signer country when it is
    /// signed later and verifies against that list's root; a deviation list is added, or replaces
    /// the one of its country when newer, when it verifies under the bundle's CSCAs; an LDIF's
    /// master lists are each taken as a `.ml` would be, and its Document Signers and CRLs (when it
    /// has any) replace the previous download's. The bundle is derived again; the one it replaces
    /// is kept as `csca.pem.previous`.
    private static func update(_ path: String) throws -> Int32 {
        let target = DefaultTrustBundle.writeLocation
        let folder = target.deletingLastPathComponent()
        let lock = try TrustFolderLock(folder)
        defer { withExtendedLifetime(lock) {} }
        let (text, current) = try sources(in: folder)
        let bytes = try readFile(path) { prefix in
            PKDLDIF.isLDIF(prefix)
                ? CappedFile.Kind("an ICAO PKD LDIF file", limit: InputLimit.pkdLDIF)
                : CappedFile.Kind("a master list or deviation list", limit: InputLimit.masterList)
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let ownNames = [
            "SOURCES", target.lastPathComponent, target.lastPathComponent + ".previous", TrustFolderLock.fileName,
        ]
        guard !ownNames.contains(name), !current.lists.contains(where: { $0.root == name }), !name.hasPrefix(".") else {
            throw CommandFailure("\(path): \(name) is a name of the trust folder's own files; rename the update")
        }
        var change = FolderUpdate(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        // The folder's master lists by their signer's country, as the update replaces them.
        let listed = { () throws -> [String: BundleSources.List] in
            var byCountry: [String: BundleSources.List] = [:]
            for list in current.lists {
                let path = folder.appendingPathComponent(list.file).path
                if let signer = signerCountry(try loadMasterList(path).signedData) { byCountry[signer] = list }
            }
            return byCountry
        }
        if PKDLDIF.isLDIF(bytes) {
            let download: PKDLDIF
            do throws(CMSError) {
                download = try PKDLDIF(bytes: bytes)
            } catch {
                throw CommandFailure("\(path) is not a readable LDIF file: \(error.reason)")
            }
            for problem in download.problems { printError("emrtd trust: warning: \(path): \(problem)") }
            var byCountry = download.masterLists.isEmpty ? [:] : try listed()
            for (index, list) in download.masterLists.enumerated() {
                let listName =
                    URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent + "-ml\(index + 1).ml"
                try replaceMasterList(
                    list, named: listName, from: "\(path)'s master list \(index + 1)", in: folder, &byCountry, &change)
            }
            if !download.certificates.isEmpty || !download.revocationLists.isEmpty {
                change.replace(
                    file: current.download, entry: "pkd  \(name)", checksum: FolderUpdate.checksumLine(bytes, name))
                change.files[name] = bytes
                change.done.append(
                    "\(name): its \(download.certificates.count(where: \.isDocumentSignerOnly)) Document Signers and "
                        + "\(download.revocationLists.count) CRLs" + (current.download.map { " replace \($0)'s" } ?? "")
                )
            }
        } else if let list = try? DeviationList(bytes: bytes) {
            try replaceDeviationList(list, bytes: bytes, named: name, in: folder, current, &change)
        } else {
            let list: MasterList
            do throws(CMSError) {
                list = try MasterList(bytes: bytes)
            } catch {
                throw CommandFailure("\(path) is neither a readable master list nor a deviation list: \(error.reason)")
            }
            var byCountry = try listed()
            try replaceMasterList(list, named: name, from: path, in: folder, &byCountry, &change)
        }
        for refusal in change.refused { printError("emrtd trust: \(refusal): refused, nothing replaced") }
        guard !change.done.isEmpty else {
            if change.refused.isEmpty { printError("emrtd trust: \(path) holds nothing to update the bundle with") }
            return 3
        }
        return try commit(change, folder: folder, target: target)
    }

    /// The country of the certificate that signed `signedData` (as it carries it).
    private static func signerCountry(_ signedData: SignedData) -> String? {
        signedData.signerInfos.first.flatMap { signedData.certificates(matching: $0).first }?.subject.country
    }

    /// Takes `candidate` in place of the list of its signer's country in `byCountry` when it is
    /// signed later and verifies against that list's root; refused (said) otherwise.
    private static func replaceMasterList(
        _ candidate: MasterList, named name: String, from origin: String, in folder: URL,
        _ byCountry: inout [String: BundleSources.List], _ change: inout FolderUpdate
    ) throws {
        guard let country = signerCountry(candidate.signedData),
            let signed = candidate.signedData.signerInfos.first?.signedAttributes?.signingTime
        else {
            change.refused.append("\(origin) carries no signer certificate with a country, or no signing time")
            return
        }
        guard let replaced = byCountry[country] else {
            change.refused.append("\(origin): \(folder.path)/SOURCES has no list signed in \(country)")
            return
        }
        guard name == replaced.file || !byCountry.values.contains(where: { $0.file == name }) else {
            change.refused.append("\(origin): \(name) is the name of another country's list in \(folder.path)")
            return
        }
        guard signed > replaced.signingTime else {
            change.refused.append(
                "\(origin) was signed \(UTCDateTime(signed).iso8601), not after \(replaced.file) "
                    + "(\(UTCDateTime(replaced.signingTime).iso8601))")
            return
        }
        let rootFile =
            replaced.root.hasPrefix("sha256:")
            ? nil : try readCertificateFile(folder.appendingPathComponent(replaced.root).path)
        let verification: SignedListVerification
        do throws(CMSError) {
            let roots = try BundleSources.roots(of: replaced, rootFile: rootFile, carriedBy: candidate)
            verification = candidate.verify(roots: roots, at: signed)
        } catch {
            throw CommandFailure("\(replaced.root): \(error.reason)")
        }
        guard verification.isTrusted else {
            change.refused.append(
                "\(origin) does not verify against \(replaced.root): "
                    + verification.problems.map(\.description).joined(separator: "; "))
            return
        }
        change.replace(
            file: replaced.file, entry: "list  \(name)  \(replaced.root)  \(UTCDateTime(signed).iso8601)",
            checksum: FolderUpdate.checksumLine(candidate.der, name))
        change.files[replaced.file] = nil
        change.files[name] = candidate.der
        change.done.append("\(replaced.file) replaced by \(name) (signed \(UTCDateTime(signed).iso8601))")
        byCountry[country] = BundleSources.List(file: name, root: replaced.root, signingTime: signed)
    }

    /// Adds `candidate` when it verifies under the bundle's CSCAs, in place of the deviation list
    /// of the same signer country when that one is older; refused (said) otherwise.
    private static func replaceDeviationList(
        _ candidate: DeviationList, bytes: [UInt8], named name: String, in folder: URL, _ current: BundleSources,
        _ change: inout FolderUpdate
    ) throws {
        var store: TrustStore
        do throws(CMSError) {
            store = try DefaultTrustBundle.load()
        } catch {
            throw CommandFailure(error.reason)
        }
        let verification = store.add(deviationList: candidate)
        guard verification.isTrusted, let signed = candidate.signingTime else {
            change.refused.append(
                "\(name) does not verify under a CSCA of the bundle, or has no signing time: "
                    + verification.problems.map(\.description).joined(separator: "; "))
            return
        }
        let country = signerCountry(candidate.signedData)
        var replaced: BundleSources.Deviations?
        for listed in current.deviationLists {
            let path = folder.appendingPathComponent(listed.file).path
            let old = try? DeviationList(bytes: readFile(path, limit: InputLimit.masterList, what: "a deviation list"))
            if let old, signerCountry(old.signedData) == country { replaced = listed }
        }
        if let replaced, signed <= replaced.signingTime {
            change.refused.append(
                "\(name) was signed \(UTCDateTime(signed).iso8601), not after \(replaced.file) "
                    + "(\(UTCDateTime(replaced.signingTime).iso8601))")
            return
        }
        change.replace(
            file: replaced?.file, entry: "deviations  \(name)  \(UTCDateTime(signed).iso8601)",
            checksum: FolderUpdate.checksumLine(bytes, name))
        change.files[name] = bytes
        change.done.append(
            (replaced.map { "\($0.file) replaced by " } ?? "added ") + "\(name), the deviation list of "
                + "\(store.deviationLists.last?.country ?? country ?? "?") (signed \(UTCDateTime(signed).iso8601))")
    }

    /// Derives the bundle from the updated folder in a staging copy; when every new file is kept,
    /// writes the files, SOURCES and the bundle (the previous one kept as `.previous`).
    private static func commit(_ change: FolderUpdate, folder: URL, target: URL) throws -> Int32 {
        let text = change.lines.joined(separator: "\n")
        let updated: BundleSources
        do throws(CMSError) {
            updated = try BundleSources(text: text)
        } catch {
            throw CommandFailure(error.reason)
        }
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-trust-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        let kept =
            updated.lists.flatMap { [$0.file, $0.root] } + updated.deviationLists.map(\.file)
            + (updated.download.map { [$0] } ?? [])
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            for file in Set(kept) where !file.hasPrefix("sha256:") && change.files[file] == nil {
                try FileManager.default.copyItem(
                    at: folder.appendingPathComponent(file), to: staging.appendingPathComponent(file))
            }
        } catch {
            throw CommandFailure("cannot stage the update: \(fileSystemWords(error))")
        }
        for (file, bytes) in change.files { try writeFile(bytes, to: staging.appendingPathComponent(file).path) }
        let derivation: BundleSources.Derivation
        do throws(CMSError) {
            derivation = try updated.derive(in: staging)
        } catch {
            throw CommandFailure(error.reason)
        }
        if let refused = derivation.leftOut.first(where: { left in change.files.keys.contains { left.hasPrefix($0) } })
        {
            printError("emrtd trust: \(refused): refused, nothing replaced")
            return 3
        }
        for problem in derivation.leftOut { printError("emrtd trust: WARNING: \(problem): LEFT OUT of the bundle") }
        let exists: Bool
        do throws(FilesError) {
            exists = try AtomicFile.existsAsRegularFile(target.path)
        } catch {
            throw CommandFailure(error.reason)
        }
        if exists {
            let previous = try readFile(target.path, limit: InputLimit.trustBundle, what: "a trust bundle")
            try writeFile(previous, to: target.path + ".previous")
        }
        for (file, bytes) in change.files { try writeFile(bytes, to: folder.appendingPathComponent(file).path) }
        try writeFile(Array(text.utf8), to: folder.appendingPathComponent("SOURCES").path)
        try writeFile(Array(derivation.store.pem.utf8), to: target.path)
        for done in change.done { printError("emrtd trust: \(done)") }
        printError(
            "emrtd trust: \(derivation.store.certificates.count) certificates and \(derivation.store.deviationLists.count) "
                + "deviation lists in \(target.path), the previous bundle kept as \(target.lastPathComponent).previous")
        return 0
    }

    private static func writeFile(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        do throws(FilesError) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw CommandFailure(error.reason)
        }
    }

    /// Whether the certificate or EF.SOD in `path` chains to `store` at `time`: the DSC's rules
    /// (ICAO 9303-11 §5.1), as Passive Authentication applies them; a signature over data is not checked.
    private static func check(_ path: String, store: TrustStore, at time: Date) throws -> Int32 {
        let bytes = try readFile(path, limit: InputLimit.certificates, what: "a certificate or EF.SOD")
        let file: CertificateFile
        do throws(CMSError) {
            file = try CertificateFile(bytes: bytes)
        } catch {
            throw CommandFailure("\(path): \(error.reason)")
        }
        let signer: Certificate?
        switch file {
        case .securityObject(let sod):
            signer =
                sod.signedData.signerInfos.first.flatMap { sod.signedData.certificates(matching: $0).first }
                ?? sod.signedData.certificates.first
        case .certificates(let certificates) where certificates.count == 1: signer = certificates.first
        default: throw CommandFailure("\(path) is neither one certificate nor an EF.SOD")
        }
        guard let signer else { throw CommandFailure("\(path) carries no Document Signer certificate") }
        let chain = CertificateChainVerifier.documentSigner(at: time, revocations: store)
            .verify(signer, candidates: store.issuers(of: signer))
        let result: JSONValue = [
            "documentSigner": CertificateInfo(signer).json,
            "chains": .bool(chain.isValid),
            "countrySigner": .optional(chain.isValid ? chain.issuer.map(CertificateInfo.init) : nil),
            "checkedAt": .string(ISO8601DateFormatter().string(from: time)),
            "problems": .array(chain.problems.map { .string($0.description) }),
        ]
        print(result.serialized(pretty: true))
        return chain.isValid ? 0 : 3
    }
}

/// The default bundle and the committed master lists it was derived from (the `list` lines of
/// the `SOURCES` file beside it), so each certificate's origin can be named.
struct ProvenancedBundle {
    /// One master list named by `SOURCES`.
    struct Source {
        let file: String
        let signingTime: Date?
        let fingerprints: Set<[UInt8]>
    }

    let location: URL
    let store: TrustStore
    let sources: [Source]

    static func load() throws -> ProvenancedBundle {
        guard let location = DefaultTrustBundle.location else {
            throw CommandFailure("no CSCA bundle: Tools/setup.sh builds the built-in one")
        }
        let store: TrustStore
        do throws(CMSError) {
            store = try DefaultTrustBundle.load()
        } catch {
            throw CommandFailure(error.reason)
        }
        let folder = location.deletingLastPathComponent()
        let manifest = folder.appendingPathComponent("SOURCES").path
        guard FileManager.default.fileExists(atPath: manifest) else {
            return ProvenancedBundle(location: location, store: store, sources: [])
        }
        let text = String(
            decoding: try readFile(manifest, limit: InputLimit.configuration, what: "SOURCES"), as: UTF8.self)
        let files = text.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count == 4 && fields[0] == "list" ? String(fields[1]) : nil
        }
        let sources = try files.map { file in
            let path = folder.appendingPathComponent(file).path
            let list = try loadMasterList(path)
            return Source(
                file: file, signingTime: list.signedData.signerInfos.first?.signedAttributes?.signingTime,
                fingerprints: Set(list.certificates.map(\.sha256Fingerprint)))
        }
        return ProvenancedBundle(location: location, store: store, sources: sources)
    }

    /// The master lists holding `certificate`, in `SOURCES` order (the first brought it).
    func lists(of certificate: Certificate) -> [String] {
        sources.filter { $0.fingerprints.contains(certificate.sha256Fingerprint) }.map(\.file)
    }

    func entry(_ certificate: Certificate, full: Bool) -> JSONValue {
        let info = CertificateInfo(certificate)
        let lists: JSONValue = .array(lists(of: certificate).map(JSONValue.string))
        guard !full else {
            return ["certificate": info.json, "link": .bool(!certificate.isSelfIssued), "lists": lists]
        }
        return [
            "country": .optional(certificate.subject.country), "subject": .string(info.subject),
            "notBefore": .string(info.notBefore), "notAfter": .string(info.notAfter),
            "sha256Fingerprint": .string(Hex.encode(certificate.sha256Fingerprint)),
            "link": .bool(!certificate.isSelfIssued), "lists": lists,
        ]
    }

    /// The bundle's counts, each list's, and `entries`.
    func summary(entries: [Certificate]) -> JSONValue {
        var brought: [String: Int] = [:]
        var fromNoList = 0
        for certificate in store.certificates {
            if let first = lists(of: certificate).first { brought[first, default: 0] += 1 } else { fromNoList += 1 }
        }
        let listSummaries: [JSONValue] = sources.map { source in
            [
                "file": .string(source.file),
                "signingTime": .optional(source.signingTime.map { ISO8601DateFormatter().string(from: $0) }),
                "certificates": .integer(source.fingerprints.count),
                "brought": .integer(brought[source.file] ?? 0),
            ]
        }
        return [
            "bundle": .string(location.path),
            "certificates": .integer(store.certificates.count),
            "countries": .integer(Set(store.certificates.compactMap(\.subject.country)).count),
            "linkCertificates": .integer(store.certificates.count { !$0.isSelfIssued }),
            "lists": .array(listSummaries),
            "fromNoList": .integer(fromNoList),
            "deviationLists": .array(
                store.deviationLists.map { list in
                    [
                        "country": .optional(list.country),
                        "signingTime": .optional(list.signingTime.map { ISO8601DateFormatter().string(from: $0) }),
                        "deviations": .integer(list.deviations.count),
                    ]
                }),
            "entries": .array(entries.map { entry($0, full: false) }),
        ]
    }
}
