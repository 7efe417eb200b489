import ASN1
import Foundation
import JSON

/// The zone as JSON text (see `MachineReadableZone.json`); `prettyPrinted` uses the layout every
/// command prints (`JSONValue.Layout.pretty`).
public func machineReadableZoneToJson(mrz zone: MachineReadableZone, prettyPrinted: Bool = false) -> String {
    zone.json.serialized(prettyPrinted ? .pretty : .compact)
}

/// An object whose members are in key order, the order the zone's JSON has always had.
private func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
    .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })
}

extension MachineReadableZone: JSONRepresentable {
    /// The reference model's `MachineReadableZone`: `lines`, `travelDocumentType` (`td1`, `td2`,
    /// `td3`: a visa is the layout it is printed in, MRV-A `td3`, MRV-B `td2`) and exactly one of
    /// `td1`, `td2`, `td3`; `visa` (added) says `mrvA`/`mrvB`, null for other documents.
    public var json: JSONValue {
        let visa: JSONValue =
            switch travelDocumentType {
            case .mrvA, .mrvB: .string(travelDocumentType.rawValue)
            default: .null
            }
        return sortedObject([
            "lines": .array(lines.map(JSONValue.string)), "travelDocumentType": travelDocumentType.json,
            "td1": .optional(td1), "td2": .optional(td2), "td3": .optional(td3), "visa": visa,
        ])
    }
}

extension TravelDocumentType: JSONRepresentable {
    /// The reference's three layouts: a visa is named by the layout it shares.
    public var json: JSONValue {
        switch self {
        case .td1: "td1"
        case .td2, .mrvB: "td2"
        case .td3, .mrvA: "td3"
        }
    }
}

extension StringPosition: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "lineIndex": .integer(Int(lineIndex)), "startIndex": .integer(Int(startIndex)),
            "endIndex": .integer(Int(endIndex)),
        ])
    }
}

extension Element: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(["value": .string(value), "raw": .string(raw), "positions": .array(positions)])
    }
}

extension CheckDigit: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(["value": .string(value), "isValid": .bool(isValid), "position": position.json])
    }
}

extension ElementWithCheckDigit: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "value": .string(value), "raw": .string(raw), "positions": .array(positions),
            "checkDigit": checkDigit.json,
        ])
    }
}

extension MrzDate: JSONRepresentable {
    /// The two-digit parts as printed, null where unknown.
    public var json: JSONValue {
        sortedObject([
            "year": .optional(year.map(Int.init)), "month": .optional(month.map(Int.init)),
            "day": .optional(day.map(Int.init)),
        ])
    }
}

extension DateElementWithCheckDigit: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "value": .string(value), "raw": .string(raw), "positions": .array(positions), "date": date.json,
            "checkDigit": checkDigit.json,
        ])
    }
}

extension NameElement: JSONRepresentable {
    /// The whole field (`value`, `raw`, `positions`, added) and the reference's two identifiers as
    /// elements of their own: where each is printed, null when the zone has none.
    public var json: JSONValue {
        sortedObject([
            "value": .string(value), "raw": .string(raw), "positions": .array(positions),
            "primaryIdentifier": .optional(primaryIdentifier),
            "secondaryIdentifier": .optional(secondaryIdentifier),
        ])
    }
}

extension Td1MachineReadableZone: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(
            commonMembers(self).merging([
                "documentNumber": documentNumber.json, "optionalData": .array(optionalData),
                "compositeCheckDigit": compositeCheckDigit.json,
            ]) { $1 })
    }
}

extension Td2MachineReadableZone: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(
            commonMembers(self).merging([
                "documentNumber": documentNumber.json, "optionalData": .optional(optionalData),
                "compositeCheckDigit": .optional(compositeCheckDigit),
            ]) { $1 })
    }
}

extension Td3MachineReadableZone: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(
            commonMembers(self).merging([
                "passportNumber": passportNumber.json,
                "personalNumberOrOtherOptionalData": personalNumberOrOtherOptionalData.json,
                "compositeCheckDigit": .optional(compositeCheckDigit),
            ]) { $1 })
    }
}

/// The members all three layouts share, written once.
private func commonMembers(_ zone: some CommonElements) -> [String: JSONValue] {
    [
        "documentCode": zone.documentCode.json, "issuingStateOrOrganization": zone.issuingStateOrOrganization.json,
        "name": zone.name.json, "nationality": zone.nationality.json, "dateOfBirth": zone.dateOfBirth.json,
        "sex": zone.sex.json, "dateOfExpiry": zone.dateOfExpiry.json,
    ]
}

extension MRZValidity: JSONRepresentable {
    /// `checkDigitsValid` sums up `checkDigits`; the dates carry the raw YYMMDD beside the
    /// resolved `isoDate`.
    public var json: JSONValue {
        [
            "checkDigitsValid": .bool(checkDigitsValid),
            "compositeCheckDigitValid": compositeCheckDigitValid.map(JSONValue.bool) ?? .null,
            "checkDigits": .array(checkDigits.map { ["field": .string($0.field), "isValid": .bool($0.isValid)] }),
            "dateOfBirth": dateOfBirth.json, "dateOfExpiry": dateOfExpiry.json,
            "checkTime": .string(UTCDateTime(checkTime).iso8601),
            "expired": expired.map(JSONValue.bool) ?? .null,
            "problems": .array(problems.map(JSONValue.string)),
        ]
    }
}

extension MrzFields: JSONRepresentable {
    /// The reference's `MrzFields`: fillers removed, dates YYMMDD as printed, `sex` as printed,
    /// the optional data fields joined by a space (null when all are empty). `travelDocumentType`
    /// is added.
    public var json: JSONValue {
        [
            "documentCode": .string(documentCode),
            "issuingState": .string(issuingState),
            "documentNumber": .string(documentNumber),
            "primaryIdentifier": .optional(primaryIdentifier),
            "secondaryIdentifier": .optional(secondaryIdentifier),
            "nationality": .string(nationality),
            "dateOfBirth": .string(dateOfBirth),
            "sex": .string(sex),
            "dateOfExpiry": .string(dateOfExpiry),
            "optionalData": .optional(optionalData),
            "checkDigitsValid": .bool(checkDigitsValid),
            "travelDocumentType": travelDocumentType.json,
        ]
    }
}

extension MRZDate: JSONRepresentable {
    public var json: JSONValue {
        ["raw": .string(raw), "isoDate": .optional(isoDate), "problem": .optional(problem)]
    }
}

extension MRZComparison: JSONRepresentable {
    public var json: JSONValue {
        [
            "matches": .bool(matches),
            "differences": .array(
                differences.map {
                    ["field": .string($0.field), "printed": .string($0.printed), "chip": .string($0.chip)]
                }),
        ]
    }
}
