/// The fields every layout has, flattened, for callers that do not care which layout it was
/// (the reader's DG1 summary, the CLI, the access key): the reference's `MrzFields`, property for
/// property and type for type, with `travelDocumentType` and `optionalDataFields` added.
public struct MrzFields: Sendable, Hashable, Encodable {
    public let travelDocumentType: TravelDocumentType
    public let documentCode: String
    /// The issuing state or organization, fillers removed (`UTO`, `D`).
    public let issuingState: String
    /// The whole number, a continuation in the optional data included.
    public let documentNumber: String
    /// Nil when the zone prints none.
    public let primaryIdentifier: String?
    public let secondaryIdentifier: String?
    public let nationality: String
    /// YYMMDD as printed, fillers kept (`<` marks an unknown part).
    public let dateOfBirth: String
    /// YYMMDD as printed, fillers kept.
    public let dateOfExpiry: String
    /// As printed: `M`, `F`, `X` or `<` (unspecified).
    public let sex: String
    /// The optional data: TD1's two fields joined by a space, TD3's personal number; nil when
    /// empty.
    public let optionalData: String?
    /// The optional-data fields' values in zone order (TD1 has two), empty ones kept.
    public let optionalDataFields: [String]
    /// Whether every check digit of the zone matches, the composite included.
    public let checkDigitsValid: Bool
}

extension MachineReadableZone {
    /// The flattened fields of whichever layout this zone is.
    public var fields: MrzFields {
        let zone = common
        return MrzFields(
            travelDocumentType: travelDocumentType,
            documentCode: zone.documentCode.value,
            issuingState: zone.issuingStateOrOrganization.value,
            documentNumber: zone.documentNumber.value,
            primaryIdentifier: zone.name.primaryIdentifier?.value,
            secondaryIdentifier: zone.name.secondaryIdentifier?.value,
            nationality: zone.nationality.value,
            dateOfBirth: zone.dateOfBirth.raw,
            dateOfExpiry: zone.dateOfExpiry.raw,
            sex: zone.sex.raw,
            optionalData: Self.joined(zone.optionalDataElements.map(\.value)),
            optionalDataFields: zone.optionalDataElements.map(\.value),
            checkDigitsValid: zone.checkDigits.allSatisfy(\.isValid)
        )
    }

    private static func joined(_ fields: [String]) -> String? {
        let text = fields.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }
}
