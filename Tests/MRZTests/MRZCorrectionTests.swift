import Foundation
import Testing

@testable import MRZ

/// `MRZCorrection` over the 5,500 zones of `Fixtures/mrz-differential.jsonl` with OCR confusions
/// injected at random (a fixed seed): a change it makes is always the printed character, and a
/// field it cannot be sure of keeps its check-digit error.
@Suite struct MRZCorrectionTests {
    /// The test's own pairs, written apart from the package's table.
    static let partners: [Character: Character] = [
        "O": "0", "0": "O", "I": "1", "1": "I", "B": "8", "8": "B", "S": "5", "5": "S", "Z": "2", "2": "Z",
        "G": "6", "6": "G",
    ]

    /// SplitMix64: the same confusions on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private struct Row: Decodable {
        let l: [String]
        let t: String
        let ok: Bool
    }

    private func zones() throws -> [Row] {
        let url = try #require(
            Bundle.module.url(forResource: "mrz-differential", withExtension: "jsonl", subdirectory: "Fixtures"))
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Row.self, from: Data($0.utf8)) }
    }

    /// TD3 columns of line 2 that hold digits only (dates and check digits), by ICAO 9303-4 §4.2.2.
    static let td3DigitColumns = Set([9, 19, 27, 43] + Array(13...18) + Array(21...26))

    @Test func everyCorrectionIsThePrintedCharacter() throws {
        var generator = SeededGenerator(state: 47)
        var restored = 0
        var changed = 0
        var leftInError = 0
        var typeOnlyTd3 = 0
        var wrong: [String] = []
        var tried = 0
        for row in try zones() where row.ok {
            let printed = row.l.map { Array($0) }
            // Zones that already need no correction as printed (the random fixture puts digits in
            // a few names); a change there would not be a confusion's.
            guard try MRZCorrection.correcting(lines: row.l).changes.isEmpty else { continue }
            let confusable = printed.indices.flatMap { line in
                printed[line].indices.filter { Self.partners[printed[line][$0]] != nil }.map { (line, $0) }
            }
            guard !confusable.isEmpty else { continue }
            tried += 1
            var read = printed
            var injected: [(Int, Int)] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                guard let (line, column) = confusable.randomElement(using: &generator),
                    let other = Self.partners[printed[line][column]]
                else { continue }
                read[line][column] = other
                injected.append((line, column))
            }
            let correction = try MRZCorrection.correcting(lines: read.map { String($0) })
            for change in correction.changes where printed[change.line][change.column] != change.to {
                wrong.append("\(row.l) → \(change)")
            }
            let result = correction.lines.map(Array.init)
            if result == printed { restored += 1 }
            if !correction.changes.isEmpty { changed += 1 }
            let zone = try correction.zone
            if !zone.common.checkDigits.allSatisfy(\.isValid) {
                leftInError += 1
                #expect(!correction.ambiguousFields.isEmpty, "an error left standing names its field: \(row.l)")
            }
            // A TD3 confusion in a date, a check digit or a letters-only field has one reading.
            if row.t == "td3",
                injected.allSatisfy({
                    $0.0 == 0 ? $0.1 < 44 : Self.td3DigitColumns.contains($0.1) || (10...12).contains($0.1)
                })
            {
                typeOnlyTd3 += 1
                #expect(result == printed, "\(row.l) read as \(read.map { String($0) })")
            }
        }
        print(
            "MRZCorrectionTests: \(tried) zones confused, \(changed) with changes, \(restored) restored whole,"
                + " \(leftInError) left with their check-digit error, \(typeOnlyTd3) TD3 with type-only confusions")
        #expect(wrong.isEmpty, "\(wrong.count) wrong corrections, e.g. \(wrong.prefix(5))")
        #expect(tried >= 3000)
        #expect(restored > tried / 2 && changed >= restored && typeOnlyTd3 > 100)
        #expect(leftInError > 0, "some confusions cannot be undone and must stay errors")
    }

    /// A TD3 line 2 with every check digit computed by the test's own sum.
    static func td3LineTwo(number: String) -> String {
        let check = MRZValidityTests.checkDigit
        let optional = "<<<<<<<<<<<<<<"
        let data =
            number + check(number) + "UTO" + "740812" + check("740812") + "F" + "120415" + check("120415") + optional
            + check(optional)
        let composite = check(
            String(data.prefix(10)) + String(data.dropFirst(13).prefix(7)) + String(data.dropFirst(21).prefix(22)))
        return data + composite
    }

    static let td3LineOne = "P<UTOERIKSSON<<ANNA<MARIA" + String(repeating: "<", count: 19)

    /// Reads `number`'s second character, an 8, as B.
    static func withB(_ line: String) -> String { "LB" + String(line.dropFirst(2)) }

    @Test func aConfusionWithOneValidReadingIsUndone() throws {
        let printed = Self.td3LineTwo(number: "L8XK4A7C3")
        let correction = try MRZCorrection.correcting(lines: [Self.td3LineOne, Self.withB(printed)])
        #expect(correction.lines == [Self.td3LineOne, printed])
        #expect(correction.changes.map(\.field) == ["documentNumber"])
        #expect(correction.ambiguousFields.isEmpty)
    }

    /// G and 6 weigh the same modulo 10 at every weight: a G is left as read, the B beside it
    /// is still put right.
    @Test func aGIsLeftAsReadAndTheRestPutRight() throws {
        let printed = Self.td3LineTwo(number: "L8XK4G7C3")
        let correction = try MRZCorrection.correcting(lines: [Self.td3LineOne, Self.withB(printed)])
        #expect(correction.lines == [Self.td3LineOne, printed])
        #expect(correction.changes.map(\.column) == [1])
    }

    /// O7B14X1IO with its first O read as 0: two readings at least of its confusable characters
    /// satisfy both the number's check digit and the composite (found by the test's own sums),
    /// so nothing is changed and the error stands.
    @Test func severalValidReadingsAreNeverCorrected() throws {
        let printed = Self.td3LineTwo(number: "O7B14X1IO")
        #expect(try MRZCorrection.correcting(lines: [Self.td3LineOne, printed]).changes.isEmpty)
        let read = "0" + String(printed.dropFirst(1))
        let correction = try MRZCorrection.correcting(lines: [Self.td3LineOne, read])
        #expect(correction.changes.isEmpty)
        #expect(correction.lines == [Self.td3LineOne, read])
        #expect(correction.ambiguousFields == ["documentNumber"])
    }
}
