import JSON
import MRZ

/// The seal held against the document in hand: its MRZ against the zone printed on the page
/// that carries it, its document number against the chip's (DG1). A genuine seal copied onto
/// another document verifies; only this ties it to the page and the chip.
public struct SealComparison: Sendable, Hashable {
    /// One difference: the field (`MrzFields` names, `documentNumber`, `mrzLine1` …), the seal's
    /// value and the other side's.
    public struct Difference: Sendable, Hashable {
        public let field: String
        public let seal: String
        public let other: String
    }

    /// `page` or `chip`.
    public let against: String
    public let differences: [Difference]
    public var matches: Bool { differences.isEmpty }

    /// The seal's MRZ against the printed zone, field by field. A visa's seal leaves out the
    /// second line's optional data (9303-13 §4.3): those characters are taken from the page.
    /// Nil when the seal carries no MRZ.
    public init?(seal: Seal, page: MachineReadableZone) {
        guard let sealLines = seal.machineReadableZoneLines else { return nil }
        against = "page"
        guard sealLines.count == page.lines.count else {
            differences = [
                Difference(
                    field: "lines", seal: sealLines.joined(separator: "\n"), other: page.lines.joined(separator: "\n"))
            ]
            return
        }
        let completed = zip(sealLines, page.lines).map { sealLine, pageLine in
            sealLine.count < pageLine.count ? sealLine + pageLine.dropFirst(sealLine.count) : sealLine
        }
        guard let zone = try? MachineReadableZone.parse(lines: completed) else {
            differences = zip(completed, page.lines).enumerated().filter { $0.element.0 != $0.element.1 }.map {
                Difference(field: "mrzLine\($0.offset + 1)", seal: $0.element.0, other: $0.element.1)
            }
            return
        }
        differences = MRZComparison(printed: page, chip: zone).differences.map {
            Difference(field: $0.field, seal: $0.chip, other: $0.printed)
        }
    }

    /// The seal's document number (a visa's passport number, a sticker's card number, a VDS-NC's
    /// `pid.i`, else its own MRZ's) against DG1's.
    public init?(seal: Seal, chip: MachineReadableZone) {
        let mrzNumber = seal.machineReadableZoneLines.flatMap { try? MachineReadableZone.parse(lines: $0) }?.fields
            .documentNumber
        guard let number = seal.documentNumber ?? mrzNumber else { return nil }
        against = "chip"
        let chipNumber = chip.fields.documentNumber
        differences =
            number == chipNumber ? [] : [Difference(field: "documentNumber", seal: number, other: chipNumber)]
    }
}

extension SealComparison: JSONRepresentable {
    public var json: JSONValue {
        [
            "against": .string(against), "matches": .bool(matches),
            "differences": .array(
                differences.map { ["field": .string($0.field), "seal": .string($0.seal), "other": .string($0.other)] }),
        ]
    }
}
