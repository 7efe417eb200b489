import ASN1
import CryptoPrimitives
import Files
import Foundation

/// The master lists a built-in bundle was derived from, as the `SOURCES` file beside it names
/// them (`list  FILE  ROOT  SIGNING-TIME`, `masterlist/SOURCES`): how old the trust is, since a
/// bundle never refreshed goes on trusting withdrawn CSCAs and misses new ones. Beside them,
/// deviation lists (`deviations  FILE  SIGNING-TIME`, verified under the lists' CSCAs) and one
/// ICAO PKD download (`pkd  FILE.ldif`: its Document Signers and CRLs, `emrtd trust update`).
public struct BundleSources: Sendable {
    /// One `list` line.
    public struct List: Sendable {
        public let file: String
        /// A root certificate file beside the list, or `sha256:` and a pinned fingerprint.
        public let root: String
        public let signingTime: Date

        public init(file: String, root: String, signingTime: Date) {
            (self.file, self.root, self.signingTime) = (file, root, signingTime)
        }
    }

    /// Older than this, the newest list is stale (about six months: BSI and RvIG publish
    /// monthly or so, ICAO several times a year).
    public static let maximumAge: TimeInterval = 180 * 86_400

    /// One `deviations` line.
    public struct Deviations: Sendable {
        public let file: String
        public let signingTime: Date
    }

    public let lists: [List]
    public let deviationLists: [Deviations]
    /// The `pkd` line's LDIF file, when there is one.
    public let download: String?
    /// The SHA-256 of every committed file, from the `sha256sum`-style lines (`HEX  FILE`).
    public let checksums: [String: [UInt8]]

    /// The `list` and checksum lines of `text`; any other line is prose and ignored.
    public init(text: String) throws(CMSError) {
        var lists: [List] = []
        var deviationLists: [Deviations] = []
        var download: String?
        var checksums: [String: [UInt8]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0].count == 64, let sum = Hex.decode(String(fields[0])) {
                checksums[String(fields[1])] = sum
            }
        }
        self.checksums = checksums
        for line in text.split(separator: "\n") where line.hasPrefix("list ") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let time = Self.time(String(fields[3])) else {
                throw CMSError(.malformed, "SOURCES line \"\(line)\" is not `list FILE ROOT YYYY-MM-DDTHH:MM:SSZ`")
            }
            lists.append(List(file: String(fields[1]), root: String(fields[2]), signingTime: time))
        }
        for line in text.split(separator: "\n") where line.hasPrefix("deviations ") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let time = Self.time(String(fields[2])) else {
                throw CMSError(.malformed, "SOURCES line \"\(line)\" is not `deviations FILE YYYY-MM-DDTHH:MM:SSZ`")
            }
            deviationLists.append(Deviations(file: String(fields[1]), signingTime: time))
        }
        for line in text.split(separator: "\n") where line.hasPrefix("pkd ") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, download == nil else {
                throw CMSError(.malformed, "SOURCES line \"\(line)\" is not `pkd FILE`, or a second one")
            }
            download = String(fields[1])
        }
        self.lists = lists
        self.deviationLists = deviationLists
        self.download = download
    }

    /// The `SOURCES` beside `bundle`, or nil when there is none (a bundle imported by hand).
    public static func beside(_ bundle: URL) throws(CMSError) -> BundleSources? {
        let path = bundle.deletingLastPathComponent().appendingPathComponent("SOURCES").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes: [UInt8]
        do throws(FilesError) {
            bytes = try CappedFile.read(path, as: CappedFile.Kind("a SOURCES file", limit: 1 << 20))
        } catch {
            throw CMSError(.unreadableFile, error.reason)
        }
        return try BundleSources(text: String(decoding: bytes, as: UTF8.self))
    }

    /// A bundle derived from the lists, and what happened to each.
    public struct Derivation: Sendable {
        public let store: TrustStore
        /// Per list kept: its counts; per list left out: why (a list is never trusted unverified).
        public let notes: [String]
        public let leftOut: [String]
    }

    /// Derives the bundle from the lists in `folder`: every file named must match its checksum
    /// (else nothing is derived: the data is not what SOURCES describes), then each master list
    /// is added only when its signature and signer chain verify against its root at its signing
    /// time (its signer may have expired since; its age is `freshnessWarning`'s), each deviation
    /// list only when it verifies under the CSCAs so derived, and the PKD download's Document
    /// Signers and CRLs (each checked when used); its CA certificates are left out (an LDIF file
    /// is not signed: a CSCA is trusted through a verified master list only).
    public func derive(in folder: URL) throws(CMSError) -> Derivation {
        var files: [String: [UInt8]] = [:]
        let named =
            lists.flatMap { [$0.file] + ($0.root.hasPrefix("sha256:") ? [] : [$0.root]) }
            + deviationLists.map(\.file) + (download.map { [$0] } ?? [])
        for file in named {
            let bytes = try Self.read(
                folder.appendingPathComponent(file), limit: file == download ? DefaultTrustBundle.maximumSize : 64 << 20
            )
            guard let sum = checksums[file], Self.checksum(of: bytes) == sum else {
                throw CMSError(.malformed, "\(file) differs from the checksum in SOURCES (or has none)")
            }
            files[file] = bytes
        }
        var store = TrustStore()
        var notes: [String] = []
        var leftOut: [String] = []
        for list in lists {
            do throws(CMSError) {
                let masterList = try MasterList(bytes: files[list.file] ?? [])
                let roots = try Self.roots(of: list, rootFile: files[list.root], carriedBy: masterList)
                guard !roots.isEmpty else {
                    leftOut.append("\(list.file): no root certificate \(list.root) to check it against")
                    continue
                }
                let before = store.certificates.count
                let verification = store.add(masterList: masterList, roots: roots, at: list.signingTime)
                guard verification.isTrusted else {
                    let problems = verification.problems.map(\.description).joined(separator: "; ")
                    leftOut.append("\(list.file) does not verify against \(list.root): \(problems)")
                    continue
                }
                notes.append(
                    "\(list.file): \(masterList.certificates.count) certificates, "
                        + "\(store.certificates.count - before) new, \(store.certificates.count) in the bundle")
            } catch {
                leftOut.append("\(list.file): \(error.reason)")
            }
        }
        if let download {
            do throws(CMSError) {
                let ldif = try PKDLDIF(bytes: files[download] ?? [])
                let signers = ldif.certificates.filter(\.isDocumentSignerOnly)
                let added = store.add(signers)
                for list in ldif.revocationLists { store.add(list) }
                notes.append(
                    "\(download): \(added) Document Signers, \(ldif.revocationLists.count) CRLs"
                        + (signers.count < ldif.certificates.count
                            ? ", \(ldif.certificates.count - signers.count) CA certificates left out (an LDIF is not signed)"
                            : ""))
            } catch {
                leftOut.append("\(download): \(error.reason)")
            }
        }
        for deviations in deviationLists {
            do throws(CMSError) {
                let verification = store.add(deviationList: try DeviationList(bytes: files[deviations.file] ?? []))
                guard verification.isTrusted else {
                    leftOut.append(
                        "\(deviations.file) does not verify under a CSCA of the bundle: "
                            + verification.problems.map(\.description).joined(separator: "; "))
                    continue
                }
                notes.append("\(deviations.file): a deviation list of \(store.deviationLists.last?.country ?? "?")")
            } catch {
                leftOut.append("\(deviations.file): \(error.reason)")
            }
        }
        return Derivation(store: store, notes: notes, leftOut: leftOut)
    }

    /// The root `list` names: its certificate file's (`rootFile`, read beside it), or the one
    /// `masterList` carries whose SHA-256 is the pinned one. Empty when there is none.
    public static func roots(of list: List, rootFile: [UInt8]?, carriedBy masterList: MasterList) throws(CMSError)
        -> [Certificate]
    {
        guard list.root.hasPrefix("sha256:") else { return try CertificateFile(bytes: rootFile ?? []).certificates }
        let pin = Hex.decode(String(list.root.dropFirst("sha256:".count))) ?? []
        return (masterList.signedData.certificates + masterList.certificates).filter { $0.sha256Fingerprint == pin }
    }

    /// The SHA-256 SOURCES records for a file.
    public static func checksum(of bytes: [UInt8]) -> [UInt8] { HashAlgorithm.sha256.hash(bytes) }

    /// A file beside the bundle, read to `limit` (a master list's cap; an LDIF's).
    static func read(_ url: URL, limit: Int) throws(CMSError) -> [UInt8] {
        do throws(FilesError) {
            return try CappedFile.read(url.path, as: CappedFile.Kind("a trust source", limit: limit))
        } catch {
            throw CMSError(.unreadableFile, error.reason)
        }
    }

    public var newestSigningTime: Date? { lists.map(\.signingTime).max() }

    /// A warning when the newest list was signed more than `maximumAge` before `now`.
    public func freshnessWarning(at now: Date) -> String? {
        guard let newest = newestSigningTime, now.timeIntervalSince(newest) > Self.maximumAge else { return nil }
        let days = Int(now.timeIntervalSince(newest) / 86_400)
        return "the newest master list in the trust bundle was signed \(UTCDateTime(newest).isoDay), \(days) days ago "
            + "(more than \(Int(Self.maximumAge / 86_400))): CSCAs issued or withdrawn since are not known; "
            + "`emrtd trust update` takes a newer list"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    private static func time(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 20, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
            digits[10] == UInt8(ascii: "T"), digits[13] == UInt8(ascii: ":"), digits[16] == UInt8(ascii: ":"),
            digits[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        return UTCDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)?.date
    }
}
