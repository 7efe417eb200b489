import JSON

/// A zone read by OCR with its usual confusions (O/0, I/1, B/8, S/5, Z/2, G/6) put right where,
/// and only where, exactly one reading can be valid (gmrtd#405):
///
/// - a position whose field holds digits only (dates, check digits) or letters only (document
///   code, states, nationality, name) has one reading for a confused character: it is fixed;
/// - when a check digit still fails, the document number and the optional data (letters and
///   digits both) are read every way their confusable characters allow; when exactly one
///   reading makes every check digit of the zone (the composite among them) match, it is
///   taken. Two or more, or none, and the check-digit error stands, the field named in
///   `ambiguousFields`.
///
/// G and 6 weigh the same in the 7-3-1 sum (16 − 6 = 10): no check digit tells them apart, so
/// a G or a 6 in a mixed field is always left as read.
public struct MRZCorrection: Sendable, Hashable {
    /// One character changed, at its 0-based line and column.
    public struct Change: Sendable, Hashable {
        public let line: Int
        public let column: Int
        public let from: Character
        public let to: Character
        /// The zone's field, as `MRZValidity` names them (`dateOfBirth`, `documentNumber`, `name`…).
        public let field: String
    }

    /// The lines after the changes (trimmed and upper-cased as the parser reads them).
    public let lines: [String]
    public let changes: [Change]
    /// Mixed fields whose check digit fails and that no single reading puts right.
    public let ambiguousFields: [String]

    /// The corrected zone, parsed.
    public var zone: MachineReadableZone {
        get throws(MRZError) { try MachineReadableZone.parse(lines: lines) }
    }

    /// The most readings of one field tried (2^12); a field with more confusable characters
    /// stays as read.
    static let maximumReadings = 1 << 12

    /// Corrects `lines` (the parser's shapes: 3 × 30, 2 × 36, 2 × 44).
    ///
    /// - Throws: `MRZError` where the parser refuses the lines (shape, characters).
    public static func correcting(lines input: [String]) throws(MRZError) -> MRZCorrection {
        let read = try MachineReadableZone.parse(lines: input)
        var text = read.lines.map { Array($0.utf8) }
        let kinds = PositionKinds(read)
        var changes: [Change] = []

        for line in text.indices {
            for column in text[line].indices {
                guard let (kind, field) = kinds[line, column] else { continue }
                let character = text[line][column]
                let replacement: UInt8? =
                    switch kind {
                    case .digits: confusedDigit[character]
                    case .letters: confusedLetter[character]
                    case .mixed: nil
                    }
                if let replacement {
                    changes.append(Change(line: line, column: column, character, replacement, field))
                    text[line][column] = replacement
                }
            }
        }

        var zone = try MachineReadableZone.parse(lines: text.map { String(decoding: $0, as: UTF8.self) })
        if !allCheckDigitsValid(zone), let solution = uniqueReading(of: text, zone: zone, kinds: kinds) {
            for (position, character) in solution where text[position.line][position.column] != character {
                changes.append(
                    Change(
                        line: position.line, column: position.column, text[position.line][position.column], character,
                        position.field))
                text[position.line][position.column] = character
            }
            zone = try MachineReadableZone.parse(lines: text.map { String(decoding: $0, as: UTF8.self) })
        }
        var ambiguous: [String] = []
        if !allCheckDigitsValid(zone) {
            ambiguous = kinds.checkedMixedFields.map(\.field).filter { !checkDigitValid(zone, $0) }
            if compositeValid(zone) == false, ambiguous.isEmpty, !kinds.compositeOnlyPositions.isEmpty {
                ambiguous = ["optionalData"]
            }
        }
        return MRZCorrection(
            lines: text.map { String(decoding: $0, as: UTF8.self) },
            changes: changes.sorted { ($0.line, $0.column) < ($1.line, $1.column) },
            ambiguousFields: ambiguous)
    }

    /// The one reading of the mixed fields (document number, optional data) that makes every
    /// check digit match, as the characters of their confusable positions; nil when there are
    /// several, none, or too many to try. Every confusable position of every field with a
    /// check digit over it is read both ways, not only those of the fields that fail: two
    /// confusions in one field can cancel out in its own check digit and show only in the
    /// composite. G and 6 are left as read: no check digit tells them apart.
    private static func uniqueReading(of text: [[UInt8]], zone: MachineReadableZone, kinds: PositionKinds)
        -> [(PositionKinds.Position, UInt8)]?
    {
        var fields: [[[(PositionKinds.Position, UInt8)]]] = []
        var groups: [([PositionKinds.Position], PositionKinds.Position?)] = kinds.checkedMixedFields.map {
            ($0.positions, $0.checkDigit)
        }
        if !kinds.compositeOnlyPositions.isEmpty { groups.append((kinds.compositeOnlyPositions, nil)) }
        var readings = 1
        for (positions, checkDigit) in groups {
            let confusable = positions.filter {
                let character = text[$0.line][$0.column]
                return partner(of: character) != nil && character != UInt8(ascii: "G") && character != UInt8(ascii: "6")
            }
            guard 1 << confusable.count <= maximumReadings else { return nil }
            var candidates: [[(PositionKinds.Position, UInt8)]] = []
            for mask in 0..<(1 << confusable.count) {
                var candidate = text
                var assignment: [(PositionKinds.Position, UInt8)] = []
                for (bit, position) in confusable.enumerated() {
                    let character = text[position.line][position.column]
                    let chosen = mask & (1 << bit) != 0 ? partner(of: character) ?? character : character
                    candidate[position.line][position.column] = chosen
                    assignment.append((position, chosen))
                }
                // A field's own check digit sorts its readings before the zone's are combined.
                if let checkDigit, !confusable.isEmpty {
                    let data = positions.map { candidate[$0.line][$0.column] }
                    guard candidate[checkDigit.line][checkDigit.column] == UInt8(ascii: "0") + mrzCheckDigit(of: data)
                    else { continue }
                }
                candidates.append(assignment)
            }
            readings *= max(candidates.count, 1)
            guard readings <= maximumReadings else { return nil }
            fields.append(candidates)
        }
        guard fields.allSatisfy({ !$0.isEmpty }) else { return nil }
        var found: [(PositionKinds.Position, UInt8)]?
        var index = Array(repeating: 0, count: fields.count)
        while true {
            let assignment = zip(fields, index).flatMap { $0[$1] }
            var candidate = text
            for (position, character) in assignment { candidate[position.line][position.column] = character }
            let lines = candidate.map { String(decoding: $0, as: UTF8.self) }
            if let parsed = try? MachineReadableZone.parse(lines: lines), allCheckDigitsValid(parsed) {
                guard found == nil else { return nil }
                found = assignment
            }
            // The next combination, the last field turning fastest.
            var field = fields.count - 1
            while field >= 0 {
                index[field] += 1
                if index[field] < fields[field].count { break }
                index[field] = 0
                field -= 1
            }
            if field < 0 { break }
        }
        return found
    }

    private static func allCheckDigitsValid(_ zone: MachineReadableZone) -> Bool {
        zone.common.checkDigits.allSatisfy(\.isValid)
    }

    private static func compositeValid(_ zone: MachineReadableZone) -> Bool? {
        (zone.td1?.compositeCheckDigit ?? zone.td2?.compositeCheckDigit ?? zone.td3?.compositeCheckDigit)?.isValid
    }

    private static func checkDigitValid(_ zone: MachineReadableZone, _ field: String) -> Bool {
        switch field {
        case "documentNumber": zone.common.documentNumber.checkDigit.isValid
        case "optionalData": zone.td3?.optionalDataCheckDigit?.isValid ?? true
        default: true
        }
    }

    /// A letter read where a digit must be, and the digit it stands for.
    private static let confusedDigit: [UInt8: UInt8] = Dictionary(
        uniqueKeysWithValues: confusions.map { ($0.letter, $0.digit) })
    /// A digit read where a letter must be, and the letter it stands for.
    private static let confusedLetter: [UInt8: UInt8] = Dictionary(
        uniqueKeysWithValues: confusions.map { ($0.digit, $0.letter) })

    /// The OCR confusions this corrects, each a letter and the digit it is taken for.
    static let confusions: [(letter: UInt8, digit: UInt8)] = ["O0", "I1", "B8", "S5", "Z2", "G6"].map {
        let pair = Array($0.utf8)
        return (pair[0], pair[1])
    }

    static func partner(of character: UInt8) -> UInt8? {
        confusedDigit[character] ?? confusedLetter[character]
    }
}

extension MRZCorrection.Change {
    fileprivate init(line: Int, column: Int, _ from: UInt8, _ to: UInt8, _ field: String) {
        self.init(
            line: line, column: column, from: Character(Unicode.Scalar(from)), to: Character(Unicode.Scalar(to)),
            field: field)
    }
}

/// What each position of a layout may hold, told by the field it belongs to.
private struct PositionKinds {
    enum Kind { case digits, letters, mixed }
    struct Position {
        let line: Int
        let column: Int
        let field: String
    }

    private var kinds: [[(Kind, String)?]]
    /// Mixed fields with a check digit of their own: the document number, TD3's optional data.
    private(set) var checkedMixedFields: [(field: String, positions: [Position], checkDigit: Position)] = []
    /// Mixed positions only the composite check digit covers (TD1's and TD2's optional data).
    private(set) var compositeOnlyPositions: [Position] = []

    init(_ zone: MachineReadableZone) {
        kinds = zone.lines.map { Array(repeating: nil, count: $0.utf8.count) }
        let common = zone.common
        mark(common.documentCode.positions, .letters, "documentCode")
        mark(common.issuingStateOrOrganization.positions, .letters, "issuingState")
        mark(common.nationality.positions, .letters, "nationality")
        mark(common.name.positions, .letters, "name")
        let number = mark(common.documentNumber.positions, .mixed, "documentNumber")
        checkedMixedFields.append(("documentNumber", number, Self.position(common.documentNumber.checkDigit)))
        if zone.td3 != nil {
            let optional = mark(common.optionalDataElements.flatMap(\.positions), .mixed, "optionalData")
            if let digit = zone.td3?.optionalDataCheckDigit {
                checkedMixedFields.append(("optionalData", optional, Self.position(digit)))
            }
        } else {
            let optional = mark(common.optionalDataElements.flatMap(\.positions), .mixed, "optionalData")
            if compositeOf(zone) != nil { compositeOnlyPositions = optional }
        }
        mark(common.dateOfBirth.positions, .digits, "dateOfBirth")
        mark(common.dateOfExpiry.positions, .digits, "dateOfExpiry")
        let digits: [(CheckDigit?, String)] = [
            (common.documentNumber.checkDigit, "documentNumber"), (common.dateOfBirth.checkDigit, "dateOfBirth"),
            (common.dateOfExpiry.checkDigit, "dateOfExpiry"), (zone.td3?.optionalDataCheckDigit, "optionalData"),
            (compositeOf(zone), "composite"),
        ]
        for case (let digit?, let field) in digits where !digit.value.isEmpty {
            mark([digit.position], .digits, field)
        }
    }

    subscript(line: Int, column: Int) -> (Kind, String)? { kinds[line][column] }

    private static func position(_ digit: CheckDigit) -> Position {
        Position(line: Int(digit.position.lineIndex), column: Int(digit.position.startIndex), field: "checkDigit")
    }

    @discardableResult
    private mutating func mark(_ positions: [StringPosition], _ kind: Kind, _ field: String) -> [Position] {
        var marked: [Position] = []
        for position in positions {
            let line = Int(position.lineIndex)
            guard position.startIndex <= position.endIndex else { continue }
            for column in Int(position.startIndex)...Int(position.endIndex) {
                kinds[line][column] = (kind, field)
                marked.append(Position(line: line, column: column, field: field))
            }
        }
        return marked
    }

    private func compositeOf(_ zone: MachineReadableZone) -> CheckDigit? {
        zone.td1?.compositeCheckDigit ?? zone.td2?.compositeCheckDigit ?? zone.td3?.compositeCheckDigit
    }
}

extension MRZCorrection: JSONRepresentable {
    /// `changes` (0-based `line` and `column`, `from`, `to`, `field`) and `ambiguousFields`.
    public var json: JSONValue {
        .object([
            JSONMember(
                "changes",
                .array(
                    changes.map {
                        .object([
                            JSONMember("line", .integer($0.line)),
                            JSONMember("column", .integer($0.column)),
                            JSONMember("from", .string(String($0.from))), JSONMember("to", .string(String($0.to))),
                            JSONMember("field", .string($0.field)),
                        ])
                    })),
            JSONMember("ambiguousFields", .array(ambiguousFields.map(JSONValue.string))),
        ])
    }
}
