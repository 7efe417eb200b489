import Foundation
import Testing

@testable import MRZ

/// Every MRZ of `Fixtures/mrz-differential.jsonl` (written by `Tools/mrz-fixtures/generate.py`
/// with the PyPI package `mrz`) must read as `mrz` read it.
@Suite struct DifferentialTests {
    /// One fixture line; the keys are explained in the generator's header.
    private struct Expected: Decodable {
        let l: [String]
        let t: String
        let dc: String
        let issuingState: String
        let n: String
        let dn: String
        let dnv: Bool
        let b: String
        let bv: Bool
        let e: String
        let ev: Bool
        let s: String
        let p: String
        let g: String
        let o: [String]
        let ov: Bool?
        let cv: Bool?
        let ok: Bool

        enum CodingKeys: String, CodingKey {
            case l, t, dc, n, dn, dnv, b, bv, e, ev, s, p, g, o, ov, cv, ok
            case issuingState = "is"
        }
    }

    private func fixture() throws -> [Expected] {
        let url = try #require(
            Bundle.module.url(forResource: "mrz-differential", withExtension: "jsonl", subdirectory: "Fixtures")
        )
        let text = try String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(Expected.self, from: Data($0.utf8)) }
    }

    /// The differences between what the parser read and what `mrz` read, named by field.
    private func differences(_ expected: Expected) -> [String] {
        let zone: MachineReadableZone
        do {
            zone = try MachineReadableZone.parse(lines: expected.l)
        } catch {
            return ["parse failed: \(error)"]
        }
        let fields = zone.fields
        let layout = zone.common
        var differences: [String] = []
        func compare<Value: Equatable>(_ name: String, _ actual: Value, _ wanted: Value) {
            if actual != wanted { differences.append("\(name): \(actual) ≠ \(wanted)") }
        }
        compare("type", zone.travelDocumentType.rawValue, expected.t)
        compare("documentCode", fields.documentCode, expected.dc)
        compare("issuingState", fields.issuingState, expected.issuingState)
        compare("nationality", fields.nationality, expected.n)
        compare("documentNumber", fields.documentNumber, expected.dn)
        compare("documentNumber check digit", layout.documentNumber.checkDigit.isValid, expected.dnv)
        compare("dateOfBirth", fields.dateOfBirth, expected.b)
        compare("dateOfBirth check digit", layout.dateOfBirth.checkDigit.isValid, expected.bv)
        compare("dateOfBirth parts", parts(layout.dateOfBirth), parts(expected.b))
        compare("dateOfExpiry", fields.dateOfExpiry, expected.e)
        compare("dateOfExpiry check digit", layout.dateOfExpiry.checkDigit.isValid, expected.ev)
        compare("dateOfExpiry parts", parts(layout.dateOfExpiry), parts(expected.e))
        // `mrz` gives "" for an unspecified sex, the reference model `<` as printed.
        compare("sex", fields.sex, expected.s.isEmpty ? "<" : expected.s)
        compare("primaryIdentifier", fields.primaryIdentifier ?? "", expected.p)
        compare("secondaryIdentifier", fields.secondaryIdentifier ?? "", expected.g)
        compare("optionalData", fields.optionalDataFields, expected.o)
        compare("optionalData check digit", zone.td3?.optionalDataCheckDigit?.isValid, expected.ov)
        let composite = zone.td1?.compositeCheckDigit.isValid ?? zone.td2?.compositeCheckDigit?.isValid
        compare("composite check digit", composite ?? zone.td3?.compositeCheckDigit?.isValid, expected.cv)
        compare("checkDigitsValid", fields.checkDigitsValid, expected.ok)
        return differences
    }

    private func parts(_ element: DateElementWithCheckDigit) -> [Int?] {
        [element.date.year, element.date.month, element.date.day].map { $0.map(Int.init) }
    }

    /// The two-digit parts as `Int`s, nil where a part is not two digits: read here from the raw
    /// YYMMDD `mrz` returned, independently of the parser.
    private func parts(_ raw: String) -> [Int?] {
        stride(from: 0, to: 6, by: 2).map { offset in
            let pair = raw.dropFirst(offset).prefix(2)
            return pair.allSatisfy(\.isASCII) && pair.allSatisfy(\.isNumber) ? Int(pair) : nil
        }
    }

    @Test func everyFixtureReadsAsTheMRZPackageReadIt() throws {
        let rows = try fixture()
        #expect(rows.count >= 5000)
        for kind in ["td1", "td2", "td3", "mrvA", "mrvB"] {
            #expect(rows.filter { $0.t == kind }.count >= 1000, "\(kind) is covered")
        }
        #expect(rows.contains { $0.dn.count > 9 } && rows.contains { !$0.ok } && rows.contains { $0.b.contains("<") })
        let failures = rows.compactMap { row in
            let found = differences(row)
            return found.isEmpty ? nil : "\(row.l): \(found.joined(separator: "; "))"
        }
        #expect(failures.isEmpty, "\(failures.count) differ, e.g.\n\(failures.prefix(10).joined(separator: "\n"))")
    }
}
