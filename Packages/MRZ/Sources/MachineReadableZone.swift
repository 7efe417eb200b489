/// The layout a zone was printed in, told by its shape and its first character.
public enum TravelDocumentType: String, Sendable, Hashable, Encodable {
    /// 3 lines of 30 characters: identity cards (ICAO 9303-5).
    case td1
    /// 2 lines of 36 characters (ICAO 9303-6).
    case td2
    /// 2 lines of 44 characters: passports (ICAO 9303-4).
    case td3
    /// 2 lines of 44 characters starting with `V`: a full-size visa (ICAO 9303-7).
    case mrvA
    /// 2 lines of 36 characters starting with `V`: a smaller visa (ICAO 9303-7).
    case mrvB
}

/// A parsed machine readable zone: the normalized lines and exactly one of `td1`, `td2`, `td3`
/// (MRV-A is read as `td3`, MRV-B as `td2`, both without a composite check digit).
public struct MachineReadableZone: Sendable, Hashable {
    /// The lines as parsed: trimmed and upper-cased.
    public let lines: [String]
    public let travelDocumentType: TravelDocumentType
    let layout: Layout

    enum Layout: Sendable, Hashable {
        case td1(Td1MachineReadableZone)
        case td2(Td2MachineReadableZone)
        case td3(Td3MachineReadableZone)
    }

    public var td1: Td1MachineReadableZone? {
        if case .td1(let zone) = layout { zone } else { nil }
    }
    public var td2: Td2MachineReadableZone? {
        if case .td2(let zone) = layout { zone } else { nil }
    }
    public var td3: Td3MachineReadableZone? {
        if case .td3(let zone) = layout { zone } else { nil }
    }

    /// The elements every layout has, whichever this one is.
    var common: any CommonElements {
        switch layout {
        case .td1(let zone): zone
        case .td2(let zone): zone
        case .td3(let zone): zone
        }
    }
}

/// The elements all three layouts share, so that `MrzFields` and the access key are read once.
protocol CommonElements: Sendable {
    var documentCode: Element { get }
    var issuingStateOrOrganization: Element { get }
    /// TD3's `passportNumber`.
    var documentNumber: ElementWithCheckDigit { get }
    var name: NameElement { get }
    var nationality: Element { get }
    var dateOfBirth: DateElementWithCheckDigit { get }
    var sex: Element { get }
    var dateOfExpiry: DateElementWithCheckDigit { get }
    /// The optional-data fields in zone order (TD1 has two, TD2 and TD3 one), check digit left out.
    var optionalDataElements: [Element] { get }
    /// Every check digit of the zone, the composite included.
    var checkDigits: [CheckDigit] { get }
}

/// ICAO 9303-5 §4.2.2: an identity card's 3 × 30 zone.
public struct Td1MachineReadableZone: Sendable, Hashable, CommonElements {
    public let documentCode: Element
    public let issuingStateOrOrganization: Element
    /// Continued into the line-1 optional data when longer than 9 characters (two positions).
    public let documentNumber: ElementWithCheckDigit
    /// Line 1 columns 15–29 (after a continued document number), then line 2 columns 18–28.
    public let optionalData: [Element]
    public let dateOfBirth: DateElementWithCheckDigit
    public let sex: Element
    public let dateOfExpiry: DateElementWithCheckDigit
    public let nationality: Element
    public let compositeCheckDigit: CheckDigit
    public let name: NameElement

    var optionalDataElements: [Element] { optionalData }

    var checkDigits: [CheckDigit] {
        [documentNumber.checkDigit, dateOfBirth.checkDigit, dateOfExpiry.checkDigit, compositeCheckDigit]
    }
}

/// ICAO 9303-6 §4.2.2 (TD2) and 9303-7 §5.2 (MRV-B): a 2 × 36 zone.
public struct Td2MachineReadableZone: Sendable, Hashable, CommonElements {
    public let documentCode: Element
    public let issuingStateOrOrganization: Element
    public let name: NameElement
    /// Continued into the optional data when longer than 9 characters (TD2 only).
    public let documentNumber: ElementWithCheckDigit
    public let nationality: Element
    public let dateOfBirth: DateElementWithCheckDigit
    public let sex: Element
    public let dateOfExpiry: DateElementWithCheckDigit
    /// Line 2 columns 28–34 (TD2, after a continued document number) or 28–35 (MRV-B). The parser
    /// always sets it (empty, without positions, when a continued document number used it up);
    /// optional as the reference has it.
    public let optionalData: Element?
    /// Nil for MRV-B, which has none.
    public let compositeCheckDigit: CheckDigit?

    var optionalDataElements: [Element] { optionalData.map { [$0] } ?? [] }

    var checkDigits: [CheckDigit] {
        [documentNumber.checkDigit, dateOfBirth.checkDigit, dateOfExpiry.checkDigit]
            + [compositeCheckDigit].compactMap { $0 }
    }
}

/// ICAO 9303-4 §4.2.2 (TD3) and 9303-7 §4.2 (MRV-A): a 2 × 44 zone.
public struct Td3MachineReadableZone: Sendable, Hashable, CommonElements {
    public let documentCode: Element
    public let issuingStateOrOrganization: Element
    public let name: NameElement
    public let passportNumber: ElementWithCheckDigit
    public let nationality: Element
    public let dateOfBirth: DateElementWithCheckDigit
    public let sex: Element
    public let dateOfExpiry: DateElementWithCheckDigit
    /// Line 2 columns 28–41 with its check digit at 42 (TD3: `<` is valid when the field is
    /// empty), or 28–43 for MRV-A, which has no check digit there: an empty `checkDigit.value`,
    /// valid, positioned over the field.
    public let personalNumberOrOtherOptionalData: ElementWithCheckDigit
    /// Nil for MRV-A, which has none.
    public let compositeCheckDigit: CheckDigit?

    /// `passportNumber` under the name the other layouts give it (added: code that reads any
    /// layout's number reads it once).
    public var documentNumber: ElementWithCheckDigit { passportNumber }

    /// The optional data's check digit; nil for MRV-A, which prints none (added: the empty
    /// placeholder of `personalNumberOrOtherOptionalData` is not a check digit to count).
    public var optionalDataCheckDigit: CheckDigit? {
        let digit = personalNumberOrOtherOptionalData.checkDigit
        return digit.value.isEmpty ? nil : digit
    }

    var optionalDataElements: [Element] { [personalNumberOrOtherOptionalData.element] }

    var checkDigits: [CheckDigit] {
        [passportNumber.checkDigit, dateOfBirth.checkDigit, dateOfExpiry.checkDigit]
            + [optionalDataCheckDigit, compositeCheckDigit].compactMap { $0 }
    }
}
