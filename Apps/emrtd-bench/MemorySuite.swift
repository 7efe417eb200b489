import ChipSimulator
import Foundation

/// `emrtd-bench memory`: the peak resident memory of a whole `emrtd read` (BAC, every file,
/// Chip and Active Authentication, Passive Authentication, the JSON, images rendered) of the
/// rich specimen from the simulator in the same process (`emrtd read --simulator DIR`), measured
/// by `wait4`'s `ru_maxrss` of the child, against the goal of 40 MB. Rows are rates so the table
/// reads as the other suites do: reads per GB of peak memory, ours against the goal's (1024/40),
/// so a ratio of 1 or more meets the goal; a note gives the megabytes.
let memorySuite = Suite(
    name: "memory", title: "memory: peak resident memory of emrtd read (simulated rich specimen) vs the 40 MB goal"
) { run in
    let goal = 40.0
    let emrtd = try ChildProcess.sibling("emrtd")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "emrtd-bench-memory-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let cases: [(name: String, faceSize: Int, arguments: [String])] = [
        ("rich specimen", 0, ["--json"]),
        ("rich specimen, summary", 0, []),
        ("rich specimen, 90 KB face", 90_000, ["--json"]),
    ]
    for item in cases {
        let specimen = try Specimen.generate(rich: true, faceSize: item.faceSize)
        let folder = scratch.appendingPathComponent(item.name.filter(\.isLetter))
        try specimen.files.write(to: folder)
        try Data(specimen.credentials.keysFile()).write(
            to: folder.appendingPathComponent(Credentials.keysFileName))
        let csca = folder.appendingPathComponent("CSCA.der")
        try Data(specimen.countrySigningCertificate).write(to: csca)
        var peaks: [Int] = []
        // The largest of three runs: a read's peak hardly varies, a first run may page in less.
        for _ in 0..<3 {
            let outcome = try ChildProcess.run(
                emrtd,
                [
                    "read", "--simulator", folder.path, "--mrz", "L898902C", "690806", "940623", "--no-builtin",
                    "--csca",
                    csca.path,
                ] + item.arguments)
            // 3: the specimen expired in 1994 (strict mode is off, so only a failed read is 1).
            guard outcome.status == 0 || outcome.status == 3 else {
                throw BenchFailure("emrtd read --simulator \(folder.path) exited \(outcome.status)")
            }
            peaks.append(outcome.peakResidentBytes)
        }
        let megabytes = Double(peaks.max() ?? 0) / 1_048_576
        run.record(
            BenchRow(
                name:
                    "emrtd read, \(item.name)\(item.arguments.isEmpty ? "" : " (\(item.arguments.joined(separator: " ")))")",
                emrtd: 1024 / megabytes, reference: 1024 / goal, unit: "reads/GB"))
        run.note(
            "\(item.name): peak resident \(String(format: "%.1f", megabytes)) MB, goal ≤ \(Int(goal)) MB: "
                + (megabytes <= goal ? "met" : "not met"))
    }
}
