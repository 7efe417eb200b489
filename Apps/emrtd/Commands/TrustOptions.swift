import CMS
import Foundation

/// The trust and time options `verify`, `masterlist`, `read` and `report` share: `--csca FILE`…,
/// `--masterlist FILE.ml --ml-root CERT`…, `--no-builtin`, `--at ISO8601`.
struct TrustOptions {
    var store = TrustStore()
    var time = Date()
    /// `--at` was given: certificates are checked at `time`, not when each read runs.
    var isTimeGiven = false
    /// No `--no-builtin`: the default CSCA bundle is trusted (in `store` when `read` was asked
    /// to load it; a reader loads it itself).
    var trustsDefaultBundle = true

    /// Every certificate `store` holds (the given CSCAs and the master lists' ones), DER, for a
    /// reader's `authorityCertificates`.
    var authorityCertificates: [[UInt8]] { store.certificates.map(\.der) }

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
        let lists = try arguments.options("--masterlist")
        let roots = try arguments.options("--ml-root")
        guard lists.count == roots.count else {
            throw UsageError("give each --masterlist its --ml-root (\(lists.count) lists, \(roots.count) roots)")
        }
        if builtIn && !noBuiltIn {
            do {
                options.store = try DefaultTrustBundle.load()
            } catch {
                throw CommandFailure("the default CSCA bundle cannot be read: \(error.reason)")
            }
        }
        for file in cscaFiles {
            do {
                try options.store.add(pemOrDer: readFile(file))
            } catch let error as CMSError {
                throw CommandFailure("\(file): \(error.reason)")
            }
        }
        for (list, root) in zip(lists, roots) {
            let verification = options.store.add(
                masterList: try loadMasterList(list), roots: try loadCertificates(root), at: options.time)
            guard verification.isTrusted else {
                throw CommandFailure(
                    "\(list) does not verify against \(root): "
                        + verification.problems.map(\.description).joined(separator: "; "))
            }
        }
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

func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("cannot read \(path)") }
    return [UInt8](data)
}

func loadCertificates(_ path: String) throws -> [Certificate] {
    do {
        return try CertificateFile(bytes: readFile(path)).certificates
    } catch let error as CMSError {
        throw CommandFailure("\(path): \(error.reason)")
    }
}

func loadMasterList(_ path: String) throws -> MasterList {
    do {
        return try MasterList(bytes: readFile(path))
    } catch let error as CMSError {
        throw CommandFailure("\(path): \(error.reason)")
    }
}
