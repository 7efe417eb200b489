import ASN1
import CMS
import Files
import Foundation
import JSON

/// `emrtd trust`: what the default bundle trusts and which master list brought each certificate,
/// and whether a DSC or an EF.SOD would chain to it, so that trust is inspected, not assumed.
enum TrustCommand: Command {
    static let name = "trust"
    static let printsOnlyJSON = true
    static let summary =
        "list the trusted CSCAs and the master lists they come from, check a DSC or EF.SOD, build or update the bundle"
    static let usage = """
        usage: emrtd trust list
               emrtd trust show FINGERPRINT|COUNTRY
               emrtd trust check FILE [--at ISO8601]
               emrtd trust build DIR [--out FILE]
               emrtd trust update FILE.ml

        The default trust bundle (masterlist/README.md) as JSON. `list`: every certificate's
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
        `update` replaces the list in the bundle's folder whose signer is of the same country as
        FILE.ml's by FILE.ml, only when FILE.ml is signed later and verifies against the same
        root; it copies FILE.ml beside the bundle, rewrites SOURCES' lines for it, keeps the
        bundle it replaces as csca.pem.previous, and derives the bundle again.
        Exit status: 0 listed, shown, chains, built or updated; 3 nothing shown, does not chain, no
        list verified, or an update refused (older, not verified, no list of its country); 1 no
        bundle or an unreadable file; 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let time = try arguments.option("--at").map(TrustOptions.parseTime)
        let output = try arguments.option("--out")
        let words = try arguments.positionals()
        guard let action = words.first else { throw UsageError("give list, show, check, build or update") }
        guard action == "check" || time == nil else { throw UsageError("--at goes with check") }
        guard action == "build" || output == nil else { throw UsageError("--out goes with build") }
        switch (action, words.count) {
        case ("list", 1):
            let bundle = try ProvenancedBundle.load()
            print(bundle.summary(entries: bundle.store.certificates).serialized(pretty: true))
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
            throw UsageError("give list, show FINGERPRINT|COUNTRY, check FILE, build DIR or update FILE.ml")
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
        let sources = try sources(in: folder).sources
        let derivation: BundleSources.Derivation
        do throws(CMSError) {
            derivation = try sources.derive(in: folder)
        } catch {
            throw CommandFailure("\(error.reason), no bundle built")
        }
        for note in derivation.notes { printError("emrtd trust: \(note)") }
        for problem in derivation.leftOut { printError("emrtd trust: WARNING: \(problem): LEFT OUT of the bundle") }
        guard !derivation.notes.isEmpty else {
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

    /// Replaces the bundle folder's list of FILE.ml's signer country by FILE.ml when it is
    /// newer and verifies against that list's root; the old bundle is kept as `csca.pem.previous`.
    private static func update(_ path: String) throws -> Int32 {
        let target = DefaultTrustBundle.writeLocation
        let folder = target.deletingLastPathComponent()
        let (text, current) = try sources(in: folder)
        let bytes = try readFile(path, limit: InputLimit.masterList, what: "a master list")
        let candidate: MasterList
        do throws(CMSError) {
            candidate = try MasterList(bytes: bytes)
        } catch {
            throw CommandFailure("\(path) is not a readable master list: \(error.reason)")
        }
        let signerCountry = { (list: MasterList) -> String? in
            list.signedData.signerInfos.first.flatMap { list.signedData.certificates(matching: $0).first }?.subject
                .country
        }
        guard let country = signerCountry(candidate),
            let signed = candidate.signedData.signerInfos.first?.signedAttributes?.signingTime
        else { throw CommandFailure("\(path) carries no signer certificate with a country, or no signing time") }
        guard
            let replaced = try current.lists.first(where: {
                signerCountry(try loadMasterList(folder.appendingPathComponent($0.file).path)) == country
            })
        else {
            printError("emrtd trust: \(folder.path)/SOURCES has no list signed in \(country): nothing replaced")
            return 3
        }
        guard signed > replaced.signingTime else {
            printError(
                "emrtd trust: \(path) was signed \(UTCDateTime(signed).iso8601), not after \(replaced.file) "
                    + "(\(UTCDateTime(replaced.signingTime).iso8601)): refused, nothing replaced")
            return 3
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let listLine = "list  \(name)  \(replaced.root)  \(UTCDateTime(signed).iso8601)"
        let sumLine = "\(Hex.encode(BundleSources.checksum(of: bytes), uppercase: false))  \(name)"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("list ") && line.split(separator: " ").dropFirst().first.map(String.init) == replaced.file
            {
                return listLine
            }
            if line.hasSuffix("  \(replaced.file)") && line.split(separator: " ").first?.count == 64 { return sumLine }
            return String(line)
        }
        let updated: BundleSources
        do throws(CMSError) {
            updated = try BundleSources(text: lines.joined(separator: "\n"))
        } catch {
            throw CommandFailure(error.reason)
        }
        // Checked before anything is written: the candidate must verify against the same root.
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-trust-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            for file in Set(updated.lists.flatMap { [$0.file, $0.root] })
            where !file.hasPrefix("sha256:") && file != name {
                try FileManager.default.copyItem(
                    at: folder.appendingPathComponent(file), to: staging.appendingPathComponent(file))
            }
        } catch {
            throw CommandFailure("cannot stage the update: \(error.localizedDescription)")
        }
        try writeFile(bytes, to: staging.appendingPathComponent(name).path)
        let derivation: BundleSources.Derivation
        do throws(CMSError) {
            derivation = try updated.derive(in: staging)
        } catch {
            throw CommandFailure(error.reason)
        }
        if let refused = derivation.leftOut.first(where: { $0.hasPrefix(name) }) {
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
        try writeFile(bytes, to: folder.appendingPathComponent(name).path)
        try writeFile(Array(lines.joined(separator: "\n").utf8), to: folder.appendingPathComponent("SOURCES").path)
        try writeFile(Array(derivation.store.pem.utf8), to: target.path)
        printError(
            "emrtd trust: \(replaced.file) replaced by \(name) (signed \(UTCDateTime(signed).iso8601)); "
                + "\(derivation.store.certificates.count) certificates in \(target.path), the previous bundle kept as "
                + "\(target.lastPathComponent).previous")
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
            "entries": .array(entries.map { entry($0, full: false) }),
        ]
    }
}
