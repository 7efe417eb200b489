import Foundation
import JSON

/// `emrtd-bench json`: writing a read document's JSON, `JSONValue.serialized()` against
/// Foundation's `JSONSerialization` given the same tree as dictionaries and arrays (the tree is
/// built before timing on both sides). The documents are shaped like a read's output: a few
/// small objects of text, and data groups whose bytes are base64 (a face is 15–80 KB). Rates in
/// MB/s of JSON written.
let jsonSuite = Suite(name: "json", title: "json: emrtd vs Foundation JSONSerialization") { run in
    for (label, faceSize) in [("text only", 0), ("15 KB face", 15_000), ("80 KB face", 80_000)] {
        let document = benchDocument(faceSize: faceSize)
        let foundationTree = foundationObject(document)
        let size = document.serialized().utf8.count
        let rates = run.compare(
            emrtd: { _ in _ = document.serialized() },
            reference: { _ in _ = try? JSONSerialization.data(withJSONObject: foundationTree) }
        )
        run.record(
            BenchRow(
                name: "document, \(label) (\(size) B)", emrtd: rates.emrtd * Double(size) / 1e6,
                reference: rates.reference * Double(size) / 1e6, unit: "MB/s"))
    }
}

/// A document-shaped tree: the holder's details with escapes and non-ASCII text, and when
/// `faceSize` is above zero a DG2 whose file, data block and image each appear as base64.
private func benchDocument(faceSize: Int) -> JSONValue {
    let details: JSONValue = [
        "primaryIdentifier": "MUSTERMANN", "secondaryIdentifier": "ERIKA", "nationality": "D",
        "placeOfBirth": "KÖLN", "address": "HEIDESTRASSE 17\n51147 KÖLN", "remark": "\"quoted\" \\ path",
        "dateOfBirth": "1964-08-12", "documentNumber": "C01X00T47", "warnings": ["EF.COM lists DG3 \"absent\""],
    ]
    var members: [(String, JSONValue)] = (0..<12).map { ("details\($0 + 1)", details) }
    if faceSize > 0 {
        let face = (0..<faceSize).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        let image: JSONValue = ["format": "jpeg2000", "width": 413, "height": 531, "bytes": .bytes(face)]
        members.append(
            ("dg2", ["rawBytes": .bytes(face), "dataBlock": .bytes(face), "images": [image], "warnings": []]))
    }
    return .object(members.map { JSONMember($0.0, $0.1) })
}

/// The same tree as Foundation's property-list types (objects as dictionaries: Foundation does
/// not keep member order, which only makes its side simpler).
private func foundationObject(_ value: JSONValue) -> Any {
    switch value {
    case .null: return NSNull()
    case .bool(let flag): return flag
    case .integer(let number): return number
    case .number(let number): return number
    case .string(let text): return text
    case .array(let elements): return elements.map(foundationObject)
    case .object(let members):
        return Dictionary(members.map { ($0.key, foundationObject($0.value)) }, uniquingKeysWith: { $1 })
    }
}
