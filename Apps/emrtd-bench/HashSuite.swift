import COpenSSL
import CryptoPrimitives
import Foundation

/// `emrtd-bench hash`: one-shot hashing through `HashAlgorithm.hash` against
/// OpenSSL's one-shot `EVP_Digest` (with `EVP_sha*()`, the usual way to call it),
/// and `IncrementalHash` reused across messages, per algorithm and message size.
func hashSuite(_ arguments: [String]) -> Int32 {
    var rows: [BenchRow] = []
    for size in [64, 1024, 65536] {
        let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for (algorithm, reference) in [
            (HashAlgorithm.sha1, EVP_sha1()), (.sha256, EVP_sha256()), (.sha512, EVP_sha512()),
        ] {
            var digest = [UInt8](repeating: 0, count: 64)
            let evpDigest = { _ = EVP_Digest(message, message.count, &digest, nil, reference, nil) }
            let oneShot = compareNanosecondsPerOperation(emrtd: { _ = algorithm.hash(message) }, reference: evpDigest)
            let hasher = IncrementalHash(algorithm)
            let reused = compareNanosecondsPerOperation(
                emrtd: {
                    hasher.update(message)
                    _ = hasher.finalize()
                },
                reference: evpDigest
            )
            let megabytesPerSecond = { (nanoseconds: Double) in Double(size) / nanoseconds * 1e3 }
            for (label, times) in [("one-shot", oneShot), ("reused context", reused)] {
                rows.append(
                    BenchRow(
                        name: "\(algorithm) \(size) B \(label)",
                        emrtd: megabytesPerSecond(times.emrtd),
                        reference: megabytesPerSecond(times.reference),
                        unit: "MB/s"
                    )
                )
            }
        }
    }
    printBenchRows(rows, title: "hash: emrtd vs OpenSSL EVP_Digest", json: arguments.contains("--json"))
    return 0
}

/// One measured figure beside its reference; `ratio` above 1 means emrtd is faster
/// (figures are rates: higher is better).
struct BenchRow: Encodable {
    let name: String
    let emrtd: Double
    let reference: Double
    let unit: String
    var ratio: Double { emrtd / reference }

    enum CodingKeys: String, CodingKey { case name, emrtd, reference, unit, ratio }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(emrtd, forKey: .emrtd)
        try container.encode(reference, forKey: .reference)
        try container.encode(unit, forKey: .unit)
        try container.encode(ratio, forKey: .ratio)
    }
}

extension BenchRow {
    /// A row of operations per second, from `compareNanosecondsPerOperation`'s times.
    init(name: String, nanosecondsPerOperation times: (emrtd: Double, reference: Double), unit: String) {
        self.init(name: name, emrtd: 1e9 / times.emrtd, reference: 1e9 / times.reference, unit: unit)
    }
}

/// Runs a suite's measurements and prints their rows; an error thrown while measuring fails the
/// suite (exit 1) with a line naming it.
func runSuite(_ name: String, title: String, arguments: [String], _ measure: () throws -> [BenchRow]) -> Int32 {
    do {
        printBenchRows(try measure(), title: title, json: arguments.contains("--json"))
        return 0
    } catch {
        FileHandle.standardError.write(Data("emrtd-bench \(name): \(error)\n".utf8))
        return 1
    }
}

/// A suite's failure to set up its measurement, such as a sample that is missing or unreadable.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func printBenchRows(_ rows: [BenchRow], title: String, json: Bool) {
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(rows) { print(String(decoding: data, as: UTF8.self)) }
        return
    }
    print(title)
    let width = rows.map(\.name.count).max() ?? 0
    for row in rows {
        let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
        print(
            "  \(name)  emrtd \(String(format: "%10.1f", row.emrtd)) \(row.unit)"
                + "  reference \(String(format: "%10.1f", row.reference)) \(row.unit)"
                + "  ratio \(String(format: "%.2f", row.ratio))"
        )
    }
}

/// Times `emrtd` and `reference` in alternating batches (so both see the same
/// machine load), each batch long enough to take about 100 ms, and returns the
/// best nanoseconds per call of five batches for each.
func compareNanosecondsPerOperation(
    emrtd: () -> Void,
    reference: () -> Void
) -> (emrtd: Double, reference: Double) {
    let clock = ContinuousClock()
    func iterationsFor(_ body: () -> Void) -> Int {
        var iterations = 1
        while clock.measure({ for _ in 0..<iterations { body() } }) < .milliseconds(100) { iterations *= 2 }
        return iterations
    }
    func nanoseconds(_ body: () -> Void, _ iterations: Int) -> Double {
        let elapsed = clock.measure { for _ in 0..<iterations { body() } }
        return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
            / Double(iterations)
    }
    let emrtdIterations = iterationsFor(emrtd)
    let referenceIterations = iterationsFor(reference)
    var best = (emrtd: Double.infinity, reference: Double.infinity)
    for _ in 0..<5 {
        best.emrtd = min(best.emrtd, nanoseconds(emrtd, emrtdIterations))
        best.reference = min(best.reference, nanoseconds(reference, referenceIterations))
    }
    return best
}
