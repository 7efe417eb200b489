import ChipSimulator
import Foundation

/// The `pa` suite's batch rows: documents per second of `emrtd verify --batch` (one process, the
/// trust store loaded once, every core) against one `emrtd verify --dir` process per document
/// and against the Python `cryptography` + `asn1crypto` verification of
/// `Tools/make-pa-fixtures.py verify`, over the same dumps in the same run. Each side is timed
/// from outside as a user runs it, process start and trust store included. The dumps: DIR
/// (`--dir`: one dump or a folder of dumps), else the real documents of
/// ../shared/data/gmrtd/sod_samples made into dumps, with simulated specimens beside them.
/// Trusted: every dump's `CSCA.der` (what `emrtd read --out` leaves beside a simulated read),
/// the same files for every side.
struct BatchVerificationRows {
    let dumps: [URL]
    /// `--at` for emrtd (nil: now); Python checks no dates.
    let time: String?

    /// The least number of documents each batch verifies, so that process start and trust-store
    /// load do not dominate.
    static let batchDocuments = 240
    /// The most processes the process-per-document side starts.
    static let processLimit = 60

    func measure(run: BenchRun, scratch: URL) throws {
        guard !dumps.isEmpty else { throw BenchFailure("no dump to verify") }
        let emrtd = try ChildProcess.sibling("emrtd")
        let cscaFiles = dumps.map { $0.appendingPathComponent("CSCA.der").path }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
        let trust = ["--no-builtin"] + cscaFiles.flatMap { ["--csca", $0] } + (time.map { ["--at", $0] } ?? [])
        let rounds = (Self.batchDocuments + dumps.count - 1) / dumps.count
        let list = Array(repeating: dumps.map(\.path), count: rounds).flatMap { $0 }
        let listFile = scratch.appendingPathComponent("dumps.txt")
        try Data((list.joined(separator: "\n") + "\n").utf8).write(to: listFile)
        let jobs = ProcessInfo.processInfo.activeProcessorCount

        // emrtd, one process for the whole list, every core and one.
        func batch(jobs: Int) throws -> (rate: Double, lines: [String]) {
            let output = scratch.appendingPathComponent("batch-\(jobs).jsonl")
            let outcome = try ChildProcess.run(
                emrtd, ["verify", "--batch", "-", "--jobs", "\(jobs)"] + trust, input: listFile.path,
                output: output.path)
            let lines =
                (try? String(contentsOf: output, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            guard lines.count == list.count, outcome.status != 2 else {
                throw BenchFailure("emrtd verify --batch gave \(lines.count) lines for \(list.count) dumps")
            }
            return (Double(list.count) / outcome.seconds, lines)
        }
        let allCores = try batch(jobs: jobs)
        let oneCore = try batch(jobs: 1)

        // emrtd, one process per document (each loads the trust store).
        var processSeconds = 0.0
        let perProcess = Array(list.prefix(Self.processLimit))
        for dump in perProcess {
            processSeconds += try ChildProcess.run(emrtd, ["verify", "--dir", dump] + trust).seconds
        }
        let processRate = Double(perProcess.count) / processSeconds

        // Python, one process for the whole list (one core: the interpreter's lock).
        let script = repositoryRoot().appendingPathComponent("Tools/make-pa-fixtures.py").path
        let pythonOutput = scratch.appendingPathComponent("python.jsonl")
        let python = try ChildProcess.run(
            "/usr/bin/python3",
            [script, "verify", "--list", "-"] + cscaFiles.flatMap { ["--csca", $0] },
            input: listFile.path, output: pythonOutput.path)
        let pythonLines = (try? String(contentsOf: pythonOutput, encoding: .utf8))?.split(separator: "\n") ?? []
        let pythonRate: Double? =
            python.status == 0 && pythonLines.count == list.count + 1
            ? Double(list.count) / python.seconds : nil

        let name = "\(dumps.count) dumps × \(rounds)"
        run.record(
            BenchRow(
                name: "verify --batch (\(jobs) jobs) vs a process each, \(name)", emrtd: allCores.rate,
                reference: processRate, unit: "documents/s"))
        if let pythonRate {
            run.record(
                BenchRow(
                    name: "verify --batch (\(jobs) jobs) vs Python, \(name)", emrtd: allCores.rate,
                    reference: pythonRate, unit: "documents/s"))
            run.record(
                BenchRow(
                    name: "verify --batch --jobs 1 vs Python (one core each)", emrtd: oneCore.rate,
                    reference: pythonRate, unit: "documents/s"))
            try compare(emrtd: allCores.lines, python: pythonLines.map(String.init), run: run)
        } else {
            run.note(
                "Python reference: no result (exit \(python.status); python3-cryptography and python3-asn1crypto"
                    + " come with Tools/setup.sh)")
        }
        run.note(
            "batch: \(list.count) documents in one process; a process each: \(perProcess.count) processes;"
                + " trusted: \(cscaFiles.count) CSCA files (each dump's CSCA.der)")
    }

    /// The verdicts of each dump's first line, emrtd's against Python's: the signature and the
    /// DSC's signature. A disagreement is named under the table.
    private func compare(emrtd: [String], python: [String], run: BenchRun) throws {
        func flags(_ line: String) -> (signature: Bool, chain: Bool)? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return (object["sodSignatureValid"] as? Bool ?? false, object["certificateChainValid"] as? Bool ?? false)
        }
        var agreed = 0
        for (index, dump) in dumps.enumerated() {
            let ours = flags(emrtd[index])
            let theirs = flags(python[index])
            if let ours, let theirs, ours == theirs {
                agreed += 1
            } else {
                run.note(
                    "\(dump.lastPathComponent): emrtd signature/chain \(ours.map { "\($0.signature)/\($0.chain)" } ?? "unreadable"),"
                        + " Python \(theirs.map { "\($0.signature)/\($0.chain)" } ?? "unreadable")")
            }
        }
        run.note(
            "emrtd and Python agree on the EF.SOD signature and the DSC's on \(agreed) of \(dumps.count) dumps"
                + " (Python checks no validity dates, and finds the DSC by the SignerInfo's issuer name as DER)")
    }
}

/// The checkout the bench was built from (its sources' location).
func repositoryRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// The dumps of `path`: the folder itself when it holds `SOD.bin`, else its folders that do, by
/// name.
func dumpFolders(at path: String) throws -> [URL] {
    let folder = URL(fileURLWithPath: path)
    let isDump = { (url: URL) in FileManager.default.fileExists(atPath: url.appendingPathComponent("SOD.bin").path) }
    if isDump(folder) { return [folder] }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
        throw BenchFailure("\(path) is neither a dump (SOD.bin, DG1.bin…) nor a directory of dumps")
    }
    let dumps = names.sorted().map { folder.appendingPathComponent($0) }.filter(isDump)
    guard !dumps.isEmpty else { throw BenchFailure("\(path) holds no dump (a folder with SOD.bin)") }
    return dumps
}

/// The bench's own dumps in `directory`: each real document of `samples` with its CSCA
/// (`<country>_EF_SOD.bin`, `_DG<n>.bin`, `_CSCA.der` → `SOD.bin`, `DG<n>.bin`, `CSCA.der`), and
/// `specimens` simulated reads of the specimen (every other one rich), signed at `time`, as
/// `emrtd read --simulator --out` leaves them (without DG3, which a read without EAC never gets).
func makeDumps(in directory: URL, samples: URL, specimens: Int, at time: Date) throws -> [URL] {
    var dumps: [URL] = []
    let names = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
    for name in names.sorted() where name.hasSuffix("_EF_SOD.bin") {
        let country = String(name.dropLast("_EF_SOD.bin".count))
        guard names.contains("\(country)_CSCA.der") else { continue }
        let dump = directory.appendingPathComponent("real-\(country)")
        try FileManager.default.createDirectory(at: dump, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent(name), to: dump.appendingPathComponent("SOD.bin"))
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("\(country)_CSCA.der"), to: dump.appendingPathComponent("CSCA.der"))
        for number in 1...16 where names.contains("\(country)_DG\(number).bin") {
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent("\(country)_DG\(number).bin"),
                to: dump.appendingPathComponent("DG\(number).bin"))
        }
        dumps.append(dump)
    }
    for index in 0..<specimens {
        let specimen = try Specimen.generate(rich: index % 2 == 1, at: time)
        let dump = directory.appendingPathComponent("specimen-\(index < 10 ? "0" : "")\(index)")
        try specimen.files.write(to: dump)
        try? FileManager.default.removeItem(at: dump.appendingPathComponent("DG3.bin"))
        try Data(specimen.countrySigningCertificate).write(to: dump.appendingPathComponent("CSCA.der"))
        dumps.append(dump)
    }
    return dumps
}
