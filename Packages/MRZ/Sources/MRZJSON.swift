import Foundation
import JSON

/// The zone as JSON text (see `MachineReadableZone.json`); `prettyPrinted` uses the layout this
/// text has always had (`"key" : value`).
public func machineReadableZoneToJson(_ zone: MachineReadableZone, prettyPrinted: Bool = false) -> String {
    zone.json.serialized(prettyPrinted ? .foundationPretty : .compact)
}

/// An object whose members are in key order, the order the zone's JSON has always had.
private func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
    .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })
}

extension MachineReadableZone: JSONRepresentable {
    /// lowerCamel keys named as the Swift properties, every optional present as `null`, keys
    /// sorted so that output is stable.
    public var json: JSONValue {
        sortedObject([
            "lines": .array(lines.map(JSONValue.string)), "travelDocumentType": travelDocumentType.json,
            "td1": .optional(td1), "td2": .optional(td2), "td3": .optional(td3),
        ])
    }
}

extension TravelDocumentType: JSONEnum {}

extension MrzPosition: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "lineIndex": .integer(lineIndex), "startIndex": .integer(startIndex), "endIndex": .integer(endIndex),
        ])
    }
}

extension MrzElement: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(["value": .string(value), "raw": .string(raw), "positions": .array(positions)])
    }
}

extension MrzCheckDigit: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(["value": .string(value), "isValid": .bool(isValid), "position": position.json])
    }
}

extension MrzElementWithCheckDigit: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "value": .string(value), "raw": .string(raw), "positions": .array(positions),
            "checkDigit": checkDigit.json,
        ])
    }
}

extension MrzDateElement: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "value": .string(value), "raw": .string(raw), "positions": .array(positions), "year": .optional(year),
            "month": .optional(month), "day": .optional(day), "checkDigit": checkDigit.json,
        ])
    }
}

extension MrzNameElement: JSONRepresentable {
    public var json: JSONValue {
        sortedObject([
            "value": .string(value), "raw": .string(raw), "positions": .array(positions),
            "primaryIdentifier": .string(primaryIdentifier), "secondaryIdentifier": .string(secondaryIdentifier),
        ])
    }
}

extension Td1MachineReadableZone: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(commonMembers(self).merging(["compositeCheckDigit": compositeCheckDigit.json]) { $1 })
    }
}

extension Td2MachineReadableZone: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(commonMembers(self).merging(["compositeCheckDigit": .optional(compositeCheckDigit)]) { $1 })
    }
}

extension Td3MachineReadableZone: JSONRepresentable {
    public var json: JSONValue {
        sortedObject(
            commonMembers(self).merging([
                "optionalDataCheckDigit": .optional(optionalDataCheckDigit),
                "compositeCheckDigit": .optional(compositeCheckDigit),
            ]) { $1 })
    }
}

/// The members all three layouts share, written once.
private func commonMembers(_ zone: some CommonElements) -> [String: JSONValue] {
    [
        "documentCode": zone.documentCode.json, "issuingStateOrOrganization": zone.issuingStateOrOrganization.json,
        "name": zone.name.json, "documentNumber": zone.documentNumber.json, "nationality": zone.nationality.json,
        "dateOfBirth": zone.dateOfBirth.json, "sex": zone.sex.json, "dateOfExpiry": zone.dateOfExpiry.json,
        "optionalData": .array(zone.optionalData),
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
            "checkTime": .string(ISO8601DateFormatter().string(from: checkTime)),
            "expired": expired.map(JSONValue.bool) ?? .null,
            "problems": .array(problems.map(JSONValue.string)),
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
