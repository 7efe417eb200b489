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
        "list the trusted CSCAs and the master lists they come from; check a DSC or EF.SOD against them"
    static let usage = """
        usage: emrtd trust list
               emrtd trust show FINGERPRINT|COUNTRY
               emrtd trust check FILE [--at ISO8601]

        The default trust bundle (masterlist/README.md) as JSON. `list`: every certificate's
        country, subject, validity, SHA-256 fingerprint, whether it is a link certificate (not
        self-issued), and the master lists holding it (the lists of the SOURCES file beside the
        bundle, as Tools/build-trust-bundle.sh derived it; none for a certificate imported
        otherwise), with each list's signing time and counts. `show` prints the certificates
        whose fingerprint starts with FINGERPRINT (at least 8 hex digits) or whose country is
        COUNTRY, in full. `check` says whether FILE, a Document Signer certificate or an EF.SOD
        (its DSC), chains to a trusted CSCA at --at (default now): the CSCA found, or the
        problems.
        Exit status: 0 listed, shown, or chains; 3 nothing shown, or does not chain; 1 no bundle
        or an unreadable file; 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let time = try arguments.option("--at").map(TrustOptions.parseTime)
        let words = try arguments.positionals()
        guard let action = words.first else { throw UsageError("give list, show or check") }
        guard action == "check" || time == nil else { throw UsageError("--at goes with check") }
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
        default:
            throw UsageError("give list, show FINGERPRINT|COUNTRY or check FILE")
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
