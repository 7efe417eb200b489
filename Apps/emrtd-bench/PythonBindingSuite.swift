import Emrtd
import Foundation

/// `python`: documents verified per second through the Python binding (`emrtd.verify` of the
/// wheel `Tools/build-python.sh` builds, installed into a fresh virtual environment of Debian's
/// Python) against `emrtd verify --batch --jobs 1` and against the pure-Python reference
/// (`Tools/make-pa-fixtures.py verify`: Debian's python3-cryptography and python3-asn1crypto),
/// over the same dumps as `pa`'s batch rows (`--dir DIR`: DIR's). Every side is one process on
/// one core (the interpreter runs one), timed from outside, process start included. Skipped, with
/// the reason on standard error, when the wheel or `python3 -m venv` is missing.
let pythonBindingSuite = Suite(
    name: "python",
    title: "python: emrtd.verify (Python binding) vs emrtd verify --batch --jobs 1 and pure Python",
    takesDirectory: true
) { run in
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "emrtd-bench-python-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let python: String
    switch BindingRows.installWheel(in: scratch) {
    case .success(let interpreter): python = interpreter
    case .failure(let reason):
        FileHandle.standardError.write(Data("emrtd-bench python: skipped: \(reason.description)\n".utf8))
        return
    }
    let host = BindingRows.Host(
        label: "emrtd.verify (Python)", program: python, arguments: ["-c", BindingRows.pythonDriver],
        comparesWithPurePython: true)
    try BindingRows.measure(host: host, run: run, scratch: scratch)
}

/// The rows of a binding's suite (`python`, `jvm`): a host program that verifies the dumps named
/// on its standard input through the binding, against `emrtd verify --batch --jobs 1` (and, for
/// Python, the pure-Python reference). Trusted on every side: each dump's `CSCA.der`; the binding
/// and `emrtd verify` also take the built-in bundle wherever one is found (the bindings' default),
/// which adds certificates but changes no verdict of these dumps.
struct BindingRows {
    /// How a binding's side runs: `program arguments… AT CSCA…`, one dump path per input line, one
    /// JSON line of `flags` per dump on its output.
    struct Host {
        let label: String
        let program: String
        let arguments: [String]
        let comparesWithPurePython: Bool
    }

    let dumps: [URL]
    /// `at` for emrtd (nil: now); the pure-Python reference checks no dates.
    let time: String?
    let host: Host

    /// The host over `--dir`'s dumps, or else over `pa`'s (the real SODs and the specimens).
    static func measure(host: Host, run: BenchRun, scratch: URL) throws {
        if let directory = run.options.directory {
            try BindingRows(dumps: try dumpFolders(at: directory), time: nil, host: host)
                .measure(run: run, scratch: scratch)
            return
        }
        let samples = repositoryRoot().deletingLastPathComponent().appendingPathComponent(
            "shared/data/gmrtd/sod_samples")
        let dumps = try makeDumps(
            in: scratch.appendingPathComponent("dumps"), samples: samples, specimens: 12,
            at: Date(timeIntervalSince1970: 1_780_272_000))  // 2026-06-01, as `pa`
        try BindingRows(dumps: dumps, time: "2026-06-01", host: host).measure(run: run, scratch: scratch)
    }

    /// The verdict's three flags every side gives, one JSON line per dump.
    static let flags = ["sodSignatureValid", "certificateChainValid", "dataGroupHashesValid"]

    /// The binding's side: `emrtd.verify(dump, csca=…, at=…)` per dump read from standard input,
    /// as a Python host calls it (the first call loads the trust store, later ones share it), its flags printed.
    static let pythonDriver = """
        import json, sys
        import emrtd
        at = sys.argv[1] or None
        cscas = [open(path, "rb").read() for path in sys.argv[2:]]
        for line in sys.stdin:
            if line.strip():
                verdict = emrtd.verify(line.strip(), csca=cscas, at=at)
                print(json.dumps({flag: verdict.get(flag) for flag in \(flags)}))
        """

    /// The wheel of this checkout's version (`dist/`, from `Tools/build-python.sh`) installed
    /// into a fresh virtual environment in `scratch`: its interpreter, or why there is none.
    static func installWheel(in scratch: URL) -> Result<String, BenchFailure> {
        let wheel = repositoryRoot().appendingPathComponent(
            "dist/emrtd-\(emrtdReleaseVersion)-py3-none-linux_x86_64.whl"
        ).path
        guard FileManager.default.fileExists(atPath: wheel) else {
            return .failure(BenchFailure("no wheel at \(wheel) (Tools/build-python.sh builds it)"))
        }
        let environment = scratch.appendingPathComponent("venv").path
        let steps: [(String, [String], String)] = [
            ("/usr/bin/python3", ["-m", "venv", "--system-site-packages", environment], "Debian's python3-venv"),
            (
                environment + "/bin/pip", ["install", "--quiet", "--no-index", "--no-deps", wheel],
                "pip install of the wheel"
            ),
        ]
        for (program, arguments, what) in steps {
            guard let outcome = try? ChildProcess.run(program, arguments), outcome.status == 0 else {
                return .failure(BenchFailure("\(program) \(arguments.joined(separator: " ")) failed (\(what))"))
            }
        }
        return .success(environment + "/bin/python")
    }

    func measure(run: BenchRun, scratch: URL) throws {
        guard !dumps.isEmpty else { throw BenchFailure("no dump to verify") }
        let emrtd = try ChildProcess.sibling("emrtd")
        let cscaFiles = dumps.map { $0.appendingPathComponent("CSCA.der").path }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
        let rounds = (BatchVerificationRows.batchDocuments + dumps.count - 1) / dumps.count
        let list = Array(repeating: dumps.map(\.path), count: rounds).flatMap { $0 }
        let listFile = scratch.appendingPathComponent("dumps.txt")
        try Data((list.joined(separator: "\n") + "\n").utf8).write(to: listFile)

        /// One side over the whole list: its rate and its lines (the first `dumps.count` compared).
        func side(_ name: String, _ program: String, _ arguments: [String], extraLines: Int = 0) throws -> (
            rate: Double, lines: [String]
        ) {
            let output = scratch.appendingPathComponent("\(name).jsonl")
            let outcome = try ChildProcess.run(program, arguments, input: listFile.path, output: output.path)
            let lines =
                (try? String(contentsOf: output, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            guard lines.count == list.count + extraLines, outcome.status != 2 else {
                throw BenchFailure("\(name) gave \(lines.count) lines for \(list.count) dumps (exit \(outcome.status))")
            }
            return (Double(list.count) / outcome.seconds, lines)
        }
        let binding = try side("binding", host.program, host.arguments + [time ?? ""] + cscaFiles)
        let batch = try side(
            "batch", emrtd,
            ["verify", "--batch", "-", "--jobs", "1"] + cscaFiles.flatMap { ["--csca", $0] }
                + (time.map { ["--at", $0] } ?? []))
        let script = repositoryRoot().appendingPathComponent("Tools/make-pa-fixtures.py").path
        let reference =
            host.comparesWithPurePython
            ? try? side(
                "python", "/usr/bin/python3",
                [script, "verify", "--list", "-"] + cscaFiles.flatMap { ["--csca", $0] },
                extraLines: 1) : nil

        let name = "\(dumps.count) dumps × \(rounds)"
        run.record(
            BenchRow(
                name: "\(host.label) vs verify --batch --jobs 1, \(name)", emrtd: binding.rate,
                reference: batch.rate, unit: "documents/s"))
        if let reference {
            run.record(
                BenchRow(
                    name: "emrtd.verify (Python) vs pure Python (cryptography), \(name)", emrtd: binding.rate,
                    reference: reference.rate, unit: "documents/s"))
        } else if host.comparesWithPurePython {
            run.note("pure-Python reference: no result (python3-cryptography and python3-asn1crypto: Tools/setup.sh)")
        }
        let fromEmrtd = disagreements(binding.lines, batch.lines)
        let fromPython = reference.map { disagreements(binding.lines, $0.lines) }
        run.note(
            "the binding and emrtd agree on \(dumps.count - fromEmrtd.count) of \(dumps.count) dumps"
                + (fromPython.map { ", the binding and Python on \(dumps.count - $0.count)" } ?? "")
                + " (the EF.SOD's signature, the DSC's by its CSCA, the data-group hashes)")
        for (dump, verdicts) in fromEmrtd { run.note("\(dump): binding \(verdicts.0), emrtd \(verdicts.1)") }
        for (dump, verdicts) in fromPython ?? [] { run.note("\(dump): binding \(verdicts.0), Python \(verdicts.1)") }
        if host.comparesWithPurePython {
            run.note(
                "Python checks those three alone: no validity dates, no revocation, no document checks;"
                    + " emrtd.verify gives emrtd verify --dir's whole verdict, its trust store loaded once per process and set of CSCAs"
            )
        }
    }

    /// The dumps (the first line of each) on which two sides differ in the three flags, by name,
    /// with each side's flags (signature/chain/hashes, "unreadable" for a line that is not JSON).
    private func disagreements(_ one: [String], _ other: [String]) -> [(String, (String, String))] {
        func flags(_ line: String) -> String {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return "unreadable"
            }
            return Self.flags.map { "\(object[$0] as? Bool ?? false)" }.joined(separator: "/")
        }
        return dumps.indices.compactMap { index in
            let verdicts = (flags(one[index]), flags(other[index]))
            guard verdicts.0 == "unreadable" || verdicts.0 != verdicts.1 else { return nil }
            return (dumps[index].lastPathComponent, verdicts)
        }
    }
}
