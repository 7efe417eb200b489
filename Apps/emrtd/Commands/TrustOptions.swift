import CMS
import Foundation
import Output

/// The trust and time options `verify`, `masterlist`, `read` and `report` share: `--csca FILE`…,
/// `--masterlist FILE.ml --ml-root CERT`…, `--deviation-list FILE`…, `--no-builtin`, `--at ISO8601`.
struct TrustOptions {
    var store = TrustStore()
    var time = Date()
    /// What is amiss with the trusted CSCAs (none at all, the default bundle missing), for
    /// stderr and the output's warnings.
    var warning: String?
    /// `--at` was given: certificates are checked at `time`, not when each read runs.
    var isTimeGiven = false
    /// No `--no-builtin`: the default CSCA bundle is trusted (in `store` when `read` was asked
    /// to load it; a reader loads it itself).
    var trustsDefaultBundle = true

    /// Every certificate `store` holds (the given CSCAs and the master lists' ones), DER,
    /// and the `--crl` files, for a reader's `authorityCertificates`.
    var authorityCertificates: [[UInt8]] { store.certificates.map(\.der) + revocationLists + deviationLists }
    /// The `--crl` files as read (a reader takes CRL entries among its authority certificates).
    var revocationLists: [[UInt8]] = []
    /// The `--deviation-list` files as read, verified (a reader verifies them again among its
    /// authority certificates).
    var deviationLists: [[UInt8]] = []
    /// The `--csca`, `--crl` and `--masterlist` files, in the order loaded, for the report's footer.
    var files: [TrustSource] = []

    /// Everything trusted, for the report's footer: the default bundle (unless `--no-builtin`),
    /// then the given files.
    var sources: [TrustSource] {
        guard trustsDefaultBundle else { return files }
        let bundle =
            DefaultTrustBundle.location.map { TrustSource.file(.defaultBundle, path: $0.path) }
            ?? TrustSource(.defaultBundle, path: nil)
        return [bundle] + files
    }

    /// The time a reader checks certificates at: `--at`, else the moment of each read.
    var clock: @Sendable () -> Date {
        let fixed = isTimeGiven ? time : nil
        return { fixed ?? Date() }
    }

    /// Reads the options out of `arguments` and loads every named file; `builtIn` loads the
    /// default bundle into `store` too (unless `--no-builtin`).
    static func read(_ arguments: inout ArgumentReader, builtIn: Bool) throws -> TrustOptions {
        var options = TrustOptions()
        if let at = try arguments.option("--at") {
            options.time = try parseTime(at)
            options.isTimeGiven = true
        }
        let noBuiltIn = arguments.flag("--no-builtin")
        options.trustsDefaultBundle = !noBuiltIn
        let cscaFiles = try arguments.options("--csca")
        let revocationFiles = try arguments.options("--crl")
        let lists = try arguments.options("--masterlist")
        let roots = try arguments.options("--ml-root")
        let deviationFiles = try arguments.options("--deviation-list")
        guard lists.count == roots.count else {
            throw UsageError("give each --masterlist its --ml-root (\(lists.count) lists, \(roots.count) roots)")
        }
        var defaultBundleProblem: CMSError?
        if builtIn && !noBuiltIn {
            do {
                let assembled = try TrustStore.assemble(includingDefaultBundle: true, authorityCertificates: [])
                (options.store, defaultBundleProblem) = (assembled.store, assembled.defaultBundleProblem)
            } catch {
                throw CommandFailure(error.reason)
            }
        }
        for file in cscaFiles {
            do {
                let added = try options.store.add(pemOrDer: readCertificateFile(file))
                options.files.append(.file(.certificateFile, path: file, certificates: added))
            } catch let error as CMSError {
                throw CommandFailure("\(file): \(error.reason)")
            }
        }
        for file in revocationFiles {
            try options.store.addRevocationLists(from: file)
            options.revocationLists.append(try readCertificateFile(file))
            options.files.append(.file(.revocationList, path: file))
        }
        for (list, root) in zip(lists, roots) {
            let masterList = try loadMasterList(list)
            let verification = options.store.add(
                masterList: masterList, roots: try loadCertificates(root), at: options.time)
            guard verification.isTrusted else {
                throw CommandFailure(
                    "\(list) does not verify against \(root): "
                        + verification.problems.map(\.description).joined(separator: "; "))
            }
            options.files.append(
                .file(
                    .masterList, path: list, certificates: masterList.certificates.count,
                    signingTime: verification.signingTime))
        }
        if !deviationFiles.isEmpty {
            // Checked under every CSCA the command trusts: a reader loads the default bundle
            // itself, so it is loaded here too to check against.
            var anchors = options.store
            if !builtIn && !noBuiltIn {
                do {
                    anchors = try TrustStore.assemble(
                        includingDefaultBundle: true, authorityCertificates: options.store.certificates.map(\.der)
                    ).store
                } catch {
                    throw CommandFailure(error.reason)
                }
            }
            for file in deviationFiles {
                let bytes = try readFile(file, limit: InputLimit.masterList, what: "a deviation list")
                let list: DeviationList
                do throws(CMSError) {
                    list = try DeviationList(bytes: bytes)
                } catch {
                    throw CommandFailure("\(file) is not a readable deviation list: \(error.reason)")
                }
                let verification = anchors.add(deviationList: list)
                guard verification.isTrusted else {
                    throw CommandFailure(
                        "\(file) does not verify under a trusted CSCA: "
                            + verification.problems.map(\.description).joined(separator: "; "))
                }
                options.store.add(deviationList: list)
                options.deviationLists.append(bytes)
                options.files.append(.file(.deviationList, path: file, signingTime: verification.signingTime))
            }
        }
        options.warning = options.store.assemblyWarning(defaultBundleProblem: defaultBundleProblem)
        return options
    }

    /// ISO 8601: a date ("2026-06-01") or a date and time ("2026-06-01T12:00:00Z").
    static func parseTime(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        if let date = formatter.date(from: text) { return date }
        throw UsageError("--at \(text) is not an ISO 8601 date or time")
    }
}

/// A certificate file, a PEM bundle or a CRL, bounded (`InputLimit.certificates`).
func readCertificateFile(_ path: String) throws -> [UInt8] {
    try readFile(path, limit: InputLimit.certificates, what: "a certificate file")
}

func loadCertificates(_ path: String) throws -> [Certificate] {
    do {
        return try CertificateFile(bytes: readCertificateFile(path)).certificates
    } catch let error as CMSError {
        throw CommandFailure("\(path): \(error.reason)")
    }
}

func loadMasterList(_ path: String) throws -> MasterList {
    do {
        return try MasterList(bytes: readFile(path, limit: InputLimit.masterList, what: "a master list"))
    } catch let error as CMSError {
        throw CommandFailure("\(path): \(error.reason)")
    }
}

extension TrustStore {
    /// Adds the certificate revocation lists of `path` (PEM `X509 CRL` blocks or one DER CRL),
    /// refusing a file that holds none.
    mutating func addRevocationLists(from path: String) throws {
        do {
            let lists = try CertificateRevocationList.all(in: readCertificateFile(path))
            guard !lists.isEmpty else { throw CommandFailure("\(path) holds no certificate revocation list") }
            for list in lists { add(list) }
        } catch let error as CMSError {
            throw CommandFailure("\(path) is not a readable certificate revocation list: \(error.reason)")
        }
    }
}
