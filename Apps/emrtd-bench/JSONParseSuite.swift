import Foundation
import JSON

/// `emrtd-bench json-parse`: reading JSON, `JSONValue.parse` against Foundation's
/// `JSONSerialization` on the same text: a request carrying one long string (a 16 MB base64
/// face, as a hostile or merely large `verify` request may), and one with escapes throughout.
/// A parser quadratic in a string's length shows here as a rate that falls with the size.
/// Rates in MB/s of JSON read.
let jsonParseSuite = Suite(name: "json-parse", title: "json-parse: emrtd vs Foundation JSONSerialization") { run in
    let plain = String(repeating: "QUJDRA==", count: 2 << 20)
    let escaped = String(repeating: #"line \"quoted\"\n\u00e9\\ "#, count: 1 << 19)
    for (label, string) in [("16 MB base64 string", plain), ("escaped string", escaped)] {
        let text = #"{"files":{"DG2":""# + string + #""}}"#
        let data = Data(text.utf8)
        let size = Double(data.count)
        let rates = run.compare(
            emrtd: { _ in _ = try? JSONValue.parse(text) },
            reference: { _ in _ = try? JSONSerialization.jsonObject(with: data) }
        )
        run.record(
            BenchRow(
                name: "\(label) (\(data.count) B)", emrtd: rates.emrtd * size / 1e6,
                reference: rates.reference * size / 1e6, unit: "MB/s"))
    }
}
