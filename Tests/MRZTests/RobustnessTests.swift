import Foundation
import Testing

@testable import MRZ

/// Random, mutated and truncated input never crashes: it reads as a zone or throws `MRZError`.
@Suite struct RobustnessTests {
    /// SplitMix64: a fixed seed makes every run test the same inputs.
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let specimens: [[String]] = [
        ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"],
        ["I<UTOD23145890<7349<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"],
        ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"],
        ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"],
        ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8988901C4XXX4009078F96121096ZE184226B<<<<<<"],
        ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "L8988901C4XXX4009078F9612109<<<<<<<<"],
    ]

    /// Mostly MRZ characters, so that many inputs get past the character check and into the
    /// layout readers; some lower case, whitespace, punctuation and non-ASCII.
    private static let alphabet =
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<<<<<<<<<<<<<<<<V") + Array("az !\t\u{e9}\u{3000}")

    /// Parses and, when it reads, exercises everything built on the result.
    private func exercise(_ lines: [String]) throws {
        let zone: MachineReadableZone
        do {
            zone = try MachineReadableZone.parse(lines: lines)
        } catch {
            #expect(error.code == .invalidArgument)
            return
        }
        #expect([zone.td1 != nil, zone.td2 != nil, zone.td3 != nil].filter { $0 }.count == 1)
        #expect(zone.lines.count == (zone.travelDocumentType == .td1 ? 3 : 2))
        let fields = zone.fields
        #expect(fields.documentNumber.count <= 23)
        let json = machineReadableZoneToJson(mrz: zone)
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
        do {
            _ = try AccessPassword.printed(in: zone)
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func randomLines() throws {
        var random = SeededGenerator(state: 9303)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...4, using: &random)
            let length = [30, 36, 44, Int.random(in: 0...50, using: &random)].randomElement(using: &random) ?? 0
            let lines = (0..<count).map { _ in
                String((0..<length).map { _ in Self.alphabet.randomElement(using: &random) ?? "<" })
            }
            try exercise(lines)
        }
    }

    @Test func mutatedSpecimens() throws {
        var random = SeededGenerator(state: 7501)
        for _ in 0..<3000 {
            var lines = Self.specimens.randomElement(using: &random) ?? []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let line = Int.random(in: 0..<lines.count, using: &random)
                var characters = Array(lines[line])
                let column = Int.random(in: 0..<characters.count, using: &random)
                characters[column] = Self.alphabet.randomElement(using: &random) ?? "<"
                lines[line] = String(characters)
            }
            try exercise(lines)
        }
    }

    @Test func everyTruncation() throws {
        for specimen in Self.specimens {
            for line in specimen.indices {
                for keep in 0..<specimen[line].count {
                    var lines = specimen
                    lines[line] = String(specimen[line].prefix(keep))
                    #expect(throws: MRZError.self) { try MachineReadableZone.parse(lines: lines) }
                }
                #expect(throws: MRZError.self) { try MachineReadableZone.parse(lines: Array(specimen.prefix(line))) }
            }
        }
    }

    @Test func hugeInputIsRejectedByItsShape() {
        let line = String(repeating: "<", count: 1_000_000)
        #expect(throws: MRZError.self) { try MachineReadableZone.parse(lines: [line, line]) }
        #expect(throws: MRZError.self) { try MachineReadableZone.parse(lines: Array(repeating: "<", count: 100_000)) }
    }
}
