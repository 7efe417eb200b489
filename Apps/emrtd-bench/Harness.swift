import Foundation

/// A suite: what `emrtd-bench NAME` measures, and against what.
struct Suite: Sendable {
    let name: String
    /// emrtd's side and the reference's, printed above the table.
    let title: String
    /// Whether `--ids` (standardized domain parameter IDs) means something to it.
    var takesParameterIDs = false
    /// Whether `--dir DIR` (the documents to measure instead of its own) means something to it.
    var takesDirectory = false
    /// Measures, handing each row to `run.record` as soon as it is known.
    let measure: @Sendable (_ run: BenchRun) throws -> Void
}

/// One measured figure beside its reference, both rates (higher is better), so `ratio` above 1
/// means emrtd is faster. The JSON of every suite is an array of these.
struct BenchRow: Encodable {
    let name: String
    let emrtd: Double
    let reference: Double
    let unit: String
    var ratio: Double { emrtd / reference }

    enum CodingKeys: String, CodingKey { case name, emrtd, reference, unit, ratio }

    /// Rates to 0.1 and the ratio to 0.001: the noise of a run is larger.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode((emrtd * 10).rounded() / 10, forKey: .emrtd)
        try container.encode((reference * 10).rounded() / 10, forKey: .reference)
        try container.encode(unit, forKey: .unit)
        try container.encode((ratio * 1000).rounded() / 1000, forKey: .ratio)
    }
}

/// The command line every suite shares: `[--json] [--seconds S] [--ids 13,14] [--dir DIR]`.
struct BenchOptions {
    var json = false
    /// The time each side of a row is measured for.
    var seconds = 0.3
    /// The standardized domain parameter sets to measure (nil: all).
    var parameterIDs: Set<Int>? = nil
    /// A dump or a directory of dumps to measure instead of the suite's own documents.
    var directory: String? = nil

    init(_ arguments: [String]) throws(UsageError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--json": json = true
            case "--seconds":
                guard let value = iterator.next().flatMap(Double.init), value > 0 else {
                    throw UsageError("--seconds takes a positive number")
                }
                seconds = value
            case "--ids":
                guard let list = iterator.next() else { throw UsageError("--ids takes a list such as 13,14") }
                let ids = list.split(separator: ",").map { Int($0) }
                guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else {
                    throw UsageError("--ids takes a list such as 13,14")
                }
                parameterIDs = Set(ids.compactMap { $0 })
            case "--dir":
                guard let path = iterator.next() else { throw UsageError("--dir takes a dump or a directory of dumps") }
                directory = path
            default: throw UsageError("unknown argument \(argument)")
            }
        }
    }
}

/// A wrong command line (exit status 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A suite's failure to set up or check its measurement, such as a sample that is missing or a
/// reference that disagrees (exit status 1).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One run of a suite: the options, the measuring, and the rows, printed as a table while they
/// come or as one JSON array at the end.
final class BenchRun {
    let options: BenchOptions
    private(set) var rows: [BenchRow] = []

    init(_ options: BenchOptions) { self.options = options }

    func record(_ row: BenchRow) {
        rows.append(row)
        guard !options.json else { return }
        let name = row.name.padding(toLength: max(44, row.name.count), withPad: " ", startingAt: 0)
        print(
            "  \(name)  emrtd \(String(format: "%10.1f", row.emrtd)) \(row.unit)"
                + "  reference \(String(format: "%10.1f", row.reference)) \(row.unit)"
                + "  ratio \(String(format: "%.2f", row.ratio))")
    }

    /// A line under the table (not in the JSON): a row that could not be measured against the
    /// reference, and why.
    func note(_ text: String) {
        guard !options.json else { return }
        print("  \(text)")
    }

    /// Operations per second of `emrtd` and of `reference`, each run for about `options.seconds`
    /// in ten alternating slices (after a warm-up), so that a machine whose load changes during
    /// the run slows both sides alike and the ratio stays meaningful. The closures get the
    /// iteration's index, to cycle through prepared inputs.
    func compare(emrtd: (Int) -> Void, reference: (Int) -> Void) -> (emrtd: Double, reference: Double) {
        let slices = 10
        var totals = (emrtd: (iterations: 0, seconds: 0.0), reference: (iterations: 0, seconds: 0.0))
        for index in 0..<3 {
            emrtd(index)
            reference(index)
        }
        func slice(_ body: (Int) -> Void, _ total: inout (iterations: Int, seconds: Double)) {
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed = 0.0
            repeat {
                for _ in 0..<4 {
                    body(total.iterations)
                    total.iterations += 1
                }
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            } while elapsed < options.seconds / Double(slices)
            total.seconds += elapsed
        }
        for _ in 0..<slices {
            slice(emrtd, &totals.emrtd)
            slice(reference, &totals.reference)
        }
        return (
            Double(totals.emrtd.iterations) / totals.emrtd.seconds,
            Double(totals.reference.iterations) / totals.reference.seconds
        )
    }

    /// A row of operations per second from `compare`.
    func compare(_ name: String, unit: String, emrtd: (Int) -> Void, reference: (Int) -> Void) {
        let rates = compare(emrtd: emrtd, reference: reference)
        record(BenchRow(name: name, emrtd: rates.emrtd, reference: rates.reference, unit: unit))
    }
}
