import Emrtd
import Foundation
import Testing

/// The reference's MRZ records ("Layout records", "Element types"), property for property and
/// type for type: a renamed or retyped property stops this file compiling.
@Suite struct ReferenceShapeMRZTests {
    static var keyPaths: [AnyKeyPath] {
        [
            \MachineReadableZoneInformation.machineReadableZone
                as KeyPath<MachineReadableZoneInformation, MachineReadableZone>,
            \MachineReadableZoneInformation.fields as KeyPath<MachineReadableZoneInformation, MrzFields>,

            \MrzFields.documentCode as KeyPath<MrzFields, String>,
            \MrzFields.issuingState as KeyPath<MrzFields, String>,
            \MrzFields.documentNumber as KeyPath<MrzFields, String>,
            \MrzFields.primaryIdentifier as KeyPath<MrzFields, String?>,
            \MrzFields.secondaryIdentifier as KeyPath<MrzFields, String?>,
            \MrzFields.nationality as KeyPath<MrzFields, String>,
            \MrzFields.dateOfBirth as KeyPath<MrzFields, String>,
            \MrzFields.sex as KeyPath<MrzFields, String>,
            \MrzFields.dateOfExpiry as KeyPath<MrzFields, String>,
            \MrzFields.optionalData as KeyPath<MrzFields, String?>,
            \MrzFields.checkDigitsValid as KeyPath<MrzFields, Bool>,

            \MachineReadableZone.lines as KeyPath<MachineReadableZone, [String]>,
            \MachineReadableZone.travelDocumentType as KeyPath<MachineReadableZone, TravelDocumentType>,
            \MachineReadableZone.td1 as KeyPath<MachineReadableZone, Td1MachineReadableZone?>,
            \MachineReadableZone.td2 as KeyPath<MachineReadableZone, Td2MachineReadableZone?>,
            \MachineReadableZone.td3 as KeyPath<MachineReadableZone, Td3MachineReadableZone?>,

            \Td1MachineReadableZone.documentCode as KeyPath<Td1MachineReadableZone, Element>,
            \Td1MachineReadableZone.issuingStateOrOrganization as KeyPath<Td1MachineReadableZone, Element>,
            \Td1MachineReadableZone.name as KeyPath<Td1MachineReadableZone, NameElement>,
            \Td1MachineReadableZone.documentNumber as KeyPath<Td1MachineReadableZone, ElementWithCheckDigit>,
            \Td1MachineReadableZone.nationality as KeyPath<Td1MachineReadableZone, Element>,
            \Td1MachineReadableZone.dateOfBirth as KeyPath<Td1MachineReadableZone, DateElementWithCheckDigit>,
            \Td1MachineReadableZone.sex as KeyPath<Td1MachineReadableZone, Element>,
            \Td1MachineReadableZone.dateOfExpiry as KeyPath<Td1MachineReadableZone, DateElementWithCheckDigit>,
            \Td1MachineReadableZone.optionalData as KeyPath<Td1MachineReadableZone, [Element]>,
            \Td1MachineReadableZone.compositeCheckDigit as KeyPath<Td1MachineReadableZone, CheckDigit>,

            \Td2MachineReadableZone.documentCode as KeyPath<Td2MachineReadableZone, Element>,
            \Td2MachineReadableZone.issuingStateOrOrganization as KeyPath<Td2MachineReadableZone, Element>,
            \Td2MachineReadableZone.name as KeyPath<Td2MachineReadableZone, NameElement>,
            \Td2MachineReadableZone.documentNumber as KeyPath<Td2MachineReadableZone, ElementWithCheckDigit>,
            \Td2MachineReadableZone.nationality as KeyPath<Td2MachineReadableZone, Element>,
            \Td2MachineReadableZone.dateOfBirth as KeyPath<Td2MachineReadableZone, DateElementWithCheckDigit>,
            \Td2MachineReadableZone.sex as KeyPath<Td2MachineReadableZone, Element>,
            \Td2MachineReadableZone.dateOfExpiry as KeyPath<Td2MachineReadableZone, DateElementWithCheckDigit>,
            \Td2MachineReadableZone.optionalData as KeyPath<Td2MachineReadableZone, Element?>,
            \Td2MachineReadableZone.compositeCheckDigit as KeyPath<Td2MachineReadableZone, CheckDigit?>,

            \Td3MachineReadableZone.documentCode as KeyPath<Td3MachineReadableZone, Element>,
            \Td3MachineReadableZone.issuingStateOrOrganization as KeyPath<Td3MachineReadableZone, Element>,
            \Td3MachineReadableZone.name as KeyPath<Td3MachineReadableZone, NameElement>,
            \Td3MachineReadableZone.passportNumber as KeyPath<Td3MachineReadableZone, ElementWithCheckDigit>,
            \Td3MachineReadableZone.nationality as KeyPath<Td3MachineReadableZone, Element>,
            \Td3MachineReadableZone.dateOfBirth as KeyPath<Td3MachineReadableZone, DateElementWithCheckDigit>,
            \Td3MachineReadableZone.sex as KeyPath<Td3MachineReadableZone, Element>,
            \Td3MachineReadableZone.dateOfExpiry as KeyPath<Td3MachineReadableZone, DateElementWithCheckDigit>,
            \Td3MachineReadableZone.personalNumberOrOtherOptionalData
                as KeyPath<Td3MachineReadableZone, ElementWithCheckDigit>,
            \Td3MachineReadableZone.compositeCheckDigit as KeyPath<Td3MachineReadableZone, CheckDigit?>,

            \Element.value as KeyPath<Element, String>,
            \Element.raw as KeyPath<Element, String>,
            \Element.positions as KeyPath<Element, [StringPosition]>,

            \ElementWithCheckDigit.value as KeyPath<ElementWithCheckDigit, String>,
            \ElementWithCheckDigit.raw as KeyPath<ElementWithCheckDigit, String>,
            \ElementWithCheckDigit.positions as KeyPath<ElementWithCheckDigit, [StringPosition]>,
            \ElementWithCheckDigit.checkDigit as KeyPath<ElementWithCheckDigit, CheckDigit>,

            \DateElementWithCheckDigit.date as KeyPath<DateElementWithCheckDigit, MrzDate>,
            \DateElementWithCheckDigit.value as KeyPath<DateElementWithCheckDigit, String>,
            \DateElementWithCheckDigit.raw as KeyPath<DateElementWithCheckDigit, String>,
            \DateElementWithCheckDigit.positions as KeyPath<DateElementWithCheckDigit, [StringPosition]>,
            \DateElementWithCheckDigit.checkDigit as KeyPath<DateElementWithCheckDigit, CheckDigit>,

            \NameElement.primaryIdentifier as KeyPath<NameElement, Element?>,
            \NameElement.secondaryIdentifier as KeyPath<NameElement, Element?>,

            \CheckDigit.isValid as KeyPath<CheckDigit, Bool>,
            \CheckDigit.value as KeyPath<CheckDigit, String>,

            \MrzDate.year as KeyPath<MrzDate, UInt32?>,
            \MrzDate.month as KeyPath<MrzDate, UInt32?>,
            \MrzDate.day as KeyPath<MrzDate, UInt32?>,

            \StringPosition.lineIndex as KeyPath<StringPosition, UInt32>,
            \StringPosition.startIndex as KeyPath<StringPosition, UInt32>,
            \StringPosition.endIndex as KeyPath<StringPosition, UInt32>,
        ]
    }

    @Test func everyReferencePropertyIsListed() {
        #expect(Self.keyPaths.count == 70)
    }

    private func at(_ line: UInt32, _ start: UInt32, _ end: UInt32) -> [StringPosition] {
        [StringPosition(lineIndex: line, startIndex: start, endIndex: end)]
    }

    /// ICAO 9303-4's TD3 specimen through `parseMrz(lines:)`.
    @Test func td3SpecimenReadsAsTheReferenceModels() throws {
        let zone = try parseMrz(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ])
        #expect(zone.travelDocumentType == .td3 && zone.td1 == nil && zone.td2 == nil)
        let td3 = try #require(zone.td3)
        #expect(
            td3.documentCode.value == "P" && td3.documentCode.raw == "P<" && td3.documentCode.positions == at(0, 0, 1))
        #expect(td3.name.primaryIdentifier?.value == "ERIKSSON")
        #expect(td3.name.primaryIdentifier?.positions == at(0, 5, 12))
        #expect(td3.name.secondaryIdentifier?.value == "ANNA MARIA")
        #expect(td3.name.secondaryIdentifier?.positions == at(0, 15, 43))
        #expect(td3.passportNumber.value == "L898902C3" && td3.passportNumber.positions == at(1, 0, 8))
        #expect(td3.passportNumber.checkDigit.value == "6" && td3.passportNumber.checkDigit.isValid)
        #expect(td3.dateOfBirth.date == MrzDate(year: 74, month: 8, day: 12))
        #expect(td3.dateOfBirth.raw == "740812" && td3.dateOfBirth.positions == at(1, 13, 18))
        #expect(td3.dateOfExpiry.date.year == 12 && td3.dateOfExpiry.date.month == 4 && td3.dateOfExpiry.date.day == 15)
        #expect(td3.sex.value == "F" && td3.sex.positions == at(1, 20, 20))
        #expect(td3.personalNumberOrOtherOptionalData.value == "ZE184226B")
        #expect(td3.personalNumberOrOtherOptionalData.positions == at(1, 28, 41))
        #expect(td3.personalNumberOrOtherOptionalData.checkDigit.value == "1")
        #expect(td3.compositeCheckDigit?.value == "0" && td3.compositeCheckDigit?.isValid == true)
        let information = MachineReadableZoneInformation(zone)
        #expect(information.machineReadableZone == zone)
        #expect(information.fields.documentNumber == "L898902C3" && information.fields.optionalData == "ZE184226B")
        #expect(information.fields.primaryIdentifier == "ERIKSSON" && information.fields.checkDigitsValid)
    }

    /// ICAO 9303-5's TD1 specimen: a date of birth, line-3 names, two optional-data elements.
    @Test func td1SpecimenReadsAsTheReferenceModels() throws {
        let zone = try parseMrz(lines: [
            "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ])
        let td1 = try #require(zone.td1)
        #expect(td1.documentNumber.value == "D23145890" && td1.documentNumber.positions == at(0, 5, 13))
        #expect(td1.dateOfBirth.date == MrzDate(year: 74, month: 8, day: 12))
        #expect(td1.dateOfBirth.checkDigit.value == "2" && td1.dateOfBirth.checkDigit.isValid)
        #expect(td1.dateOfExpiry.positions == at(1, 8, 13))
        #expect(td1.optionalData.map(\.positions) == [at(0, 15, 29), at(1, 18, 28)])
        #expect(td1.name.primaryIdentifier == Element(value: "ERIKSSON", raw: "ERIKSSON", positions: at(2, 0, 7)))
        #expect(td1.name.secondaryIdentifier?.raw == "ANNA<MARIA<<<<<<<<<<")
        #expect(td1.name.secondaryIdentifier?.positions == at(2, 10, 29))
        #expect(td1.compositeCheckDigit == CheckDigit(value: "6", isValid: true, position: at(1, 29, 29)[0]))
    }

    /// An unknown date part is nil, and MRV-A's optional data has an empty check digit.
    @Test func unknownPartsAndVisas() throws {
        let unknown = try #require(
            try parseMrz(lines: [
                "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO74<<<<1F1204159ZE184226B<<<<<18",
            ]).td3)
        #expect(unknown.dateOfBirth.date == MrzDate(year: 74, month: nil, day: nil))
        let visa = try #require(
            try parseMrz(lines: [
                "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8988901C4XXX4009078F96121096ZE184226B<<<<<<",
            ]).td3)
        #expect(visa.personalNumberOrOtherOptionalData.checkDigit.value.isEmpty)
        #expect(visa.compositeCheckDigit == nil)
    }
}
