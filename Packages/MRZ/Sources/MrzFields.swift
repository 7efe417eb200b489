/// The fields every layout has, flattened, for callers that do not care which layout it was
/// (the reader's DG1 summary, the CLI, the access key).
public struct MrzFields: Sendable, Hashable, Encodable {
    public let travelDocumentType: TravelDocumentType
    public let documentCode: String
    public let issuingStateOrOrganization: String
    /// The whole number, a continuation in the optional data included.
    public let documentNumber: String
    public let primaryIdentifier: String
    public let secondaryIdentifier: String
    public let nationality: String
    /// YYMMDD as printed, fillers kept (`<` marks an unknown part).
    public let dateOfBirth: String
    /// YYMMDD as printed, fillers kept.
    public let dateOfExpiry: String
    /// As printed: `M`, `F`, `X` or `<` (unspecified).
    public let sex: String
    /// The optional-data fields' values in zone order (TD1 has two).
    public let optionalData: [String]
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
            issuingStateOrOrganization: zone.issuingStateOrOrganization.value,
            documentNumber: zone.documentNumber.value,
            primaryIdentifier: zone.name.primaryIdentifier,
            secondaryIdentifier: zone.name.secondaryIdentifier,
            nationality: zone.nationality.value,
            dateOfBirth: zone.dateOfBirth.raw,
            dateOfExpiry: zone.dateOfExpiry.raw,
            sex: zone.sex.raw,
            optionalData: zone.optionalData.map(\.value),
            checkDigitsValid: zone.checkDigits.allSatisfy(\.isValid)
        )
    }
}
