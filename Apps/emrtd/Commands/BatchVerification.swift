import Dispatch
import Emrtd
import Foundation
import JSON
import Synchronization

/// `emrtd verify --batch DIR|-`: Passive Authentication of many dumps in one process, so that the
/// trust store (the default bundle is ~600 CSCAs) is loaded once and every core verifies.
///
/// The dumps: each folder directly inside DIR, in name order (files beside them are left
/// alone), or one path a line on standard input (`-`), in that order. Every dump gives one
/// JSON line on standard output, in input order whatever order they finish in: the verdict
/// `verify --json` prints for it, with `path` first; a dump that cannot be loaded gives the
/// `readErrorToJson` shape (`invalid_argument`) with `path`, and the batch goes on. A summary goes
/// to standard error, counting the accepted ones by the one rule (`DocumentChecks.accepted`).
/// Exit status: 1 when any dump could not be loaded, else 3 when any would make `verify --dir`
/// exit 3 (not authenticated, or with `--strict` not accepted), else 0.
enum BatchVerification {
    /// The most paths standard input may list: 16 MiB of text, some 100,000 dumps.
    static let listLimit = 16 << 20
    /// The longest path a line of standard input may be (Linux's PATH_MAX), so that an error
    /// line, which repeats the path, stays small.
    static let pathLimit = 4096
    /// The most dumps one batch takes (a directory listing or standard input).
    static let dumpLimit = 1_000_000

    /// `--jobs N`, else one per active processor.
    static func jobs(_ option: String?) throws(UsageError) -> Int {
        guard let option else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard let count = Int(option), (1...1024).contains(count) else {
            throw UsageError("--jobs takes a number of parallel verifications from 1 to 1024, not \(option)")
        }
        return count
    }

    static func run(source: String, settings: VerifySettings, jobs: Int) throws -> Int32 {
        let paths = try dumpPaths(source)
        guard !paths.isEmpty else {
            throw CommandFailure(source == "-" ? "standard input lists no dump" : "\(source) holds no dump folder")
        }
        if let warning = settings.trustWarning { printError("emrtd verify: warning: \(warning)") }
        let start = DispatchTime.now().uptimeNanoseconds
        let tally = verifyAll(paths, settings: settings, jobs: jobs)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        printError(
            "emrtd verify: \(paths.count) dump\(paths.count == 1 ? "" : "s"): \(tally.accepted) accepted, "
                + "\(tally.rejected) not accepted, \(tally.unreadable) unreadable; "
                + String(format: "%.2f s, %.1f documents/s, %d jobs", seconds, Double(paths.count) / seconds, jobs))
        return tally.unreadable > 0 ? 1 : tally.failing > 0 ? 3 : 0
    }

    /// The dumps of `source`: DIR's folders by name, or standard input's lines (`-`).
    static func dumpPaths(_ source: String) throws -> [String] {
        let paths: [String]
        if source == "-" {
            let text = String(decoding: try readStandardInput(limit: listLimit, what: "a list of dumps"), as: UTF8.self)
            paths = text.split(whereSeparator: \.isNewline).map(String.init).filter {
                !$0.allSatisfy(\.isWhitespace)
            }
            if let long = paths.firstIndex(where: { $0.utf8.count > pathLimit }) {
                throw CommandFailure(
                    "line \(long + 1) of standard input is longer than a path can be (\(pathLimit) bytes)")
            }
        } else {
            var status = stat()
            guard stat(source, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw CommandFailure("\(source) is not a directory of dump folders (or - for a list on standard input)")
            }
            let folder = URL(fileURLWithPath: source)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: source)
            } catch {
                throw CommandFailure("cannot list \(source): \(fileSystemWords(error))")
            }
            paths = names.sorted().map { folder.appendingPathComponent($0).path }.filter { path in
                var entry = stat()
                return stat(path, &entry) == 0 && (entry.st_mode & S_IFMT) == S_IFDIR
            }
        }
        guard paths.count <= dumpLimit else {
            throw CommandFailure("\(source) lists \(paths.count) dumps, more than one batch takes (\(dumpLimit))")
        }
        return paths
    }

    /// How the documents came out.
    struct Tally: Sendable {
        /// Accepted by the one rule, and loaded but not.
        var accepted = 0
        var rejected = 0
        var unreadable = 0
        /// Dumps whose `verify --dir` would exit 3.
        var failing = 0
    }

    /// Verifies `paths` on `jobs` tasks at a time, printing each line as soon as every line before
    /// it is printed.
    static func verifyAll(_ paths: [String], settings: VerifySettings, jobs: Int) -> Tally {
        let result = Mutex(Tally())
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let tally = await withTaskGroup(of: (Int, Line).self) { group in
                var tally = Tally()
                var next = 0
                func start() {
                    guard next < paths.count else { return }
                    let (index, path) = (next, paths[next])
                    group.addTask {
                        (index, line(path, settings: settings))
                    }
                    next += 1
                }
                for _ in 0..<jobs { start() }
                // Lines that finished before an earlier one, held until it comes.
                var waiting: [Int: String] = [:]
                var printed = 0
                while let (index, line) = await group.next() {
                    switch line.accepted {
                    case true?: tally.accepted += 1
                    case false?: tally.rejected += 1
                    case nil: tally.unreadable += 1
                    }
                    if line.status == 3 { tally.failing += 1 }
                    waiting[index] = line.text
                    while let ready = waiting.removeValue(forKey: printed) {
                        print(ready)
                        printed += 1
                    }
                    start()
                }
                return tally
            }
            result.withLock { $0 = tally }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// One dump's JSON line, its exit status (0, 3, or 1 when it could not be loaded) and whether
    /// it is accepted (nil when it could not be loaded).
    struct Line: Sendable {
        var text: String
        var status: Int32
        var accepted: Bool?
    }

    static func line(_ path: String, settings: VerifySettings) -> Line {
        do {
            let verification = try settings.verify(folder: path)
            return Line(
                text: withPath(path, verification.json).serialized(pretty: false), status: verification.passes ? 0 : 3,
                accepted: verification.checks.accepted)
        } catch {
            let failure = ReadError(.invalidArgument, error.message)
            let json = (try? JSONValue.parse(readErrorToJson(error: failure, prettyPrinted: false))) ?? .null
            return Line(text: withPath(path, json).serialized(pretty: false), status: 1, accepted: nil)
        }
    }

    /// `object` with `path` as its first key, so that a line says first which dump it is about.
    private static func withPath(_ path: String, _ object: JSONValue) -> JSONValue {
        guard case .object(let members) = object else { return object }
        return .object([JSONMember("path", .string(path))] + members)
    }
}
