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
    var documentCode: MrzElement { get }
    var issuingStateOrOrganization: MrzElement { get }
    var documentNumber: MrzElementWithCheckDigit { get }
    var name: MrzNameElement { get }
    var nationality: MrzElement { get }
    var dateOfBirth: MrzDateElement { get }
    var sex: MrzElement { get }
    var dateOfExpiry: MrzDateElement { get }
    var optionalData: [MrzElement] { get }
    /// Every check digit of the zone, the composite included.
    var checkDigits: [MrzCheckDigit] { get }
}

/// ICAO 9303-5 §4.2.2: an identity card's 3 × 30 zone.
public struct Td1MachineReadableZone: Sendable, Hashable, CommonElements {
    public let documentCode: MrzElement
    public let issuingStateOrOrganization: MrzElement
    /// Continued into the line-1 optional data when longer than 9 characters (two positions).
    public let documentNumber: MrzElementWithCheckDigit
    /// Line 1 columns 15–29 (after a continued document number), then line 2 columns 18–28.
    public let optionalData: [MrzElement]
    public let dateOfBirth: MrzDateElement
    public let sex: MrzElement
    public let dateOfExpiry: MrzDateElement
    public let nationality: MrzElement
    public let compositeCheckDigit: MrzCheckDigit
    public let name: MrzNameElement

    var checkDigits: [MrzCheckDigit] {
        [documentNumber.checkDigit, dateOfBirth.checkDigit, dateOfExpiry.checkDigit, compositeCheckDigit]
    }
}

/// ICAO 9303-6 §4.2.2 (TD2) and 9303-7 §5.2 (MRV-B): a 2 × 36 zone.
public struct Td2MachineReadableZone: Sendable, Hashable, CommonElements {
    public let documentCode: MrzElement
    public let issuingStateOrOrganization: MrzElement
    public let name: MrzNameElement
    /// Continued into the optional data when longer than 9 characters (TD2 only).
    public let documentNumber: MrzElementWithCheckDigit
    public let nationality: MrzElement
    public let dateOfBirth: MrzDateElement
    public let sex: MrzElement
    public let dateOfExpiry: MrzDateElement
    /// Line 2 columns 28–34 (TD2, after a continued document number) or 28–35 (MRV-B).
    public let optionalData: [MrzElement]
    /// Nil for MRV-B, which has none.
    public let compositeCheckDigit: MrzCheckDigit?

    var checkDigits: [MrzCheckDigit] {
        [documentNumber.checkDigit, dateOfBirth.checkDigit, dateOfExpiry.checkDigit]
            + [compositeCheckDigit].compactMap { $0 }
    }
}

/// ICAO 9303-4 §4.2.2 (TD3) and 9303-7 §4.2 (MRV-A): a 2 × 44 zone.
public struct Td3MachineReadableZone: Sendable, Hashable, CommonElements {
    public let documentCode: MrzElement
    public let issuingStateOrOrganization: MrzElement
    public let name: MrzNameElement
    public let documentNumber: MrzElementWithCheckDigit
    public let nationality: MrzElement
    public let dateOfBirth: MrzDateElement
    public let sex: MrzElement
    public let dateOfExpiry: MrzDateElement
    /// Line 2 columns 28–41 (TD3: personal number or optional data) or 28–43 (MRV-A).
    public let optionalData: [MrzElement]
    /// The TD3 optional data's check digit (`<` is valid when that field is empty); nil for MRV-A.
    public let optionalDataCheckDigit: MrzCheckDigit?
    /// Nil for MRV-A, which has none.
    public let compositeCheckDigit: MrzCheckDigit?

    var checkDigits: [MrzCheckDigit] {
        [documentNumber.checkDigit, dateOfBirth.checkDigit, dateOfExpiry.checkDigit]
            + [optionalDataCheckDigit, compositeCheckDigit].compactMap { $0 }
    }
}
