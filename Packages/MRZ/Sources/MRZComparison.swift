/// The zone printed on the document's page against the one its chip holds (DG1), field by field.
///
/// A chip that opens with the printed document number and dates can still hold another holder's
/// name, sex or nationality: a page swapped onto a genuine chip, or a chip from another booklet.
/// Passive Authentication proves DG1 genuine; only this comparison ties it to the page in hand.
public struct MRZComparison: Sendable, Hashable {
    /// One field compared, with both values.
    public struct Field: Sendable, Hashable {
        /// The `MrzFields` name (`documentNumber`, `primaryIdentifier`, `sex`, …), a check digit
        /// (`documentNumberCheckDigit`, …, `compositeCheckDigit`), `travelDocumentType`, or
        /// `otherCharacters` when every field matches but the lines do not (fillers).
        public let field: String
        public let printed: String
        public let chip: String

        public var matches: Bool { printed == chip }
    }

    /// Every field compared, in zone order (a report shows them side by side), and
    /// `otherCharacters` last when every field matches but the lines do not.
    public let fields: [Field]

    /// The fields that differ; empty when the zones are the same.
    public var differences: [Field] { fields.filter { !$0.matches } }

    public var matches: Bool { differences.isEmpty }

    /// The differing fields' names, for a message that must not repeat MRZ text.
    public var differingFields: [String] { differences.map(\.field) }

    public init(printed: MachineReadableZone, chip: MachineReadableZone) {
        let printedFields = Self.namedFields(printed)
        let chipFields = Self.namedFields(chip)
        var fields: [Field] = []
        for (index, (field, value)) in printedFields.enumerated() {
            let other = index < chipFields.count && chipFields[index].0 == field ? chipFields[index].1 : ""
            fields.append(Field(field: field, printed: value, chip: other))
        }
        if fields.allSatisfy(\.matches) && printed.lines != chip.lines {
            fields.append(
                Field(
                    field: "otherCharacters", printed: printed.lines.joined(separator: "\n"),
                    chip: chip.lines.joined(separator: "\n")))
        }
        self.fields = fields
    }

    /// Every field and check digit compared, in one order for every layout (a check digit a
    /// layout lacks is the empty string).
    private static func namedFields(_ zone: MachineReadableZone) -> [(String, String)] {
        let fields = zone.fields
        let common = zone.common
        let composite = zone.td1?.compositeCheckDigit ?? zone.td2?.compositeCheckDigit ?? zone.td3?.compositeCheckDigit
        return [
            ("travelDocumentType", fields.travelDocumentType.rawValue), ("documentCode", fields.documentCode),
            ("issuingStateOrOrganization", fields.issuingState),
            ("documentNumber", fields.documentNumber),
            ("documentNumberCheckDigit", common.documentNumber.checkDigit.value),
            ("primaryIdentifier", fields.primaryIdentifier ?? ""),
            ("secondaryIdentifier", fields.secondaryIdentifier ?? ""),
            ("nationality", fields.nationality), ("dateOfBirth", fields.dateOfBirth),
            ("dateOfBirthCheckDigit", common.dateOfBirth.checkDigit.value), ("sex", fields.sex),
            ("dateOfExpiry", fields.dateOfExpiry), ("dateOfExpiryCheckDigit", common.dateOfExpiry.checkDigit.value),
            ("optionalData", fields.optionalDataFields.joined(separator: "<")),
            ("optionalDataCheckDigit", zone.td3?.optionalDataCheckDigit?.value ?? ""),
            ("compositeCheckDigit", composite?.value ?? ""),
        ]
    }
}
