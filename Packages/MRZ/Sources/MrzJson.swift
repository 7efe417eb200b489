import Foundation

/// The zone as JSON: lowerCamel keys named as the Swift properties, every optional present as
/// `null`, keys sorted so that output is stable.
public func machineReadableZoneToJson(_ zone: MachineReadableZone, prettyPrinted: Bool = false) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
    // Every value here is a string, number, bool, null, array or object: encoding cannot fail.
    guard let data = try? encoder.encode(zone) else { return "null" }
    return String(decoding: data, as: UTF8.self)
}

// The synthesized `Encodable` leaves nil properties out; these spell every key out instead so
// that `null` stays visible (the project's JSON rule). `encode(_:forKey:)` with an Optional
// writes `null`, unlike `encodeIfPresent`.

extension MachineReadableZone: Encodable {
    fileprivate enum CodingKeys: String, CodingKey {
        case lines, travelDocumentType, td1, td2, td3
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lines, forKey: .lines)
        try container.encode(travelDocumentType, forKey: .travelDocumentType)
        try container.encode(td1, forKey: .td1)
        try container.encode(td2, forKey: .td2)
        try container.encode(td3, forKey: .td3)
    }
}

extension MrzDateElement: Encodable {
    fileprivate enum CodingKeys: String, CodingKey {
        case value, raw, positions, year, month, day, checkDigit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(raw, forKey: .raw)
        try container.encode(positions, forKey: .positions)
        try container.encode(year, forKey: .year)
        try container.encode(month, forKey: .month)
        try container.encode(day, forKey: .day)
        try container.encode(checkDigit, forKey: .checkDigit)
    }
}

extension Td2MachineReadableZone: Encodable {
    fileprivate enum CodingKeys: String, CodingKey {
        case documentCode, issuingStateOrOrganization, name, documentNumber, nationality, dateOfBirth, sex
        case dateOfExpiry, optionalData, compositeCheckDigit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encodeCommon(self, into: &container)
        try container.encode(compositeCheckDigit, forKey: .compositeCheckDigit)
    }
}

extension Td3MachineReadableZone: Encodable {
    fileprivate enum CodingKeys: String, CodingKey {
        case documentCode, issuingStateOrOrganization, name, documentNumber, nationality, dateOfBirth, sex
        case dateOfExpiry, optionalData, optionalDataCheckDigit, compositeCheckDigit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encodeCommon(self, into: &container)
        try container.encode(optionalDataCheckDigit, forKey: .optionalDataCheckDigit)
        try container.encode(compositeCheckDigit, forKey: .compositeCheckDigit)
    }
}

/// The keys TD2 and TD3 share, written once.
private protocol CommonCodingKeys: CodingKey {
    static var documentCode: Self { get }
    static var issuingStateOrOrganization: Self { get }
    static var name: Self { get }
    static var documentNumber: Self { get }
    static var nationality: Self { get }
    static var dateOfBirth: Self { get }
    static var sex: Self { get }
    static var dateOfExpiry: Self { get }
    static var optionalData: Self { get }
}

extension Td2MachineReadableZone.CodingKeys: CommonCodingKeys {}
extension Td3MachineReadableZone.CodingKeys: CommonCodingKeys {}

private func encodeCommon<Keys: CommonCodingKeys>(
    _ zone: some CommonElements,
    into container: inout KeyedEncodingContainer<Keys>
) throws {
    try container.encode(zone.documentCode, forKey: .documentCode)
    try container.encode(zone.issuingStateOrOrganization, forKey: .issuingStateOrOrganization)
    try container.encode(zone.name, forKey: .name)
    try container.encode(zone.documentNumber, forKey: .documentNumber)
    try container.encode(zone.nationality, forKey: .nationality)
    try container.encode(zone.dateOfBirth, forKey: .dateOfBirth)
    try container.encode(zone.sex, forKey: .sex)
    try container.encode(zone.dateOfExpiry, forKey: .dateOfExpiry)
    try container.encode(zone.optionalData, forKey: .optionalData)
}
