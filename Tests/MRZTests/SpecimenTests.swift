import Testing

@testable import MRZ

/// The specimens printed in ICAO Doc 9303 parts 4–7, every field checked.
@Suite struct SpecimenTests {
    private func position(_ line: UInt32, _ start: UInt32, _ end: UInt32) -> StringPosition {
        StringPosition(lineIndex: line, startIndex: start, endIndex: end)
    }

    @Test func td1Specimen() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ])
        #expect(zone.travelDocumentType == .td1)
        #expect(zone.td2 == nil && zone.td3 == nil)
        let td1 = try #require(zone.td1)
        #expect(td1.documentCode == Element(value: "I", raw: "I<", positions: [position(0, 0, 1)]))
        #expect(td1.issuingStateOrOrganization == Element(value: "UTO", raw: "UTO", positions: [position(0, 2, 4)]))
        #expect(td1.documentNumber.value == "D23145890")
        #expect(td1.documentNumber.positions == [position(0, 5, 13)])
        #expect(
            td1.documentNumber.checkDigit == CheckDigit(value: "7", isValid: true, position: position(0, 14, 14)))
        #expect(
            td1.optionalData == [
                Element(value: "", raw: "<<<<<<<<<<<<<<<", positions: [position(0, 15, 29)]),
                Element(value: "", raw: "<<<<<<<<<<<", positions: [position(1, 18, 28)]),
            ]
        )
        #expect(td1.dateOfBirth.raw == "740812")
        #expect(td1.dateOfBirth.date == MrzDate(year: 74, month: 8, day: 12))
        #expect(td1.dateOfBirth.checkDigit == CheckDigit(value: "2", isValid: true, position: position(1, 6, 6)))
        #expect(td1.sex == Element(value: "F", raw: "F", positions: [position(1, 7, 7)]))
        #expect(td1.dateOfExpiry.date == MrzDate(year: 12, month: 4, day: 15))
        #expect(td1.dateOfExpiry.positions == [position(1, 8, 13)])
        #expect(td1.dateOfExpiry.checkDigit == CheckDigit(value: "9", isValid: true, position: position(1, 14, 14)))
        #expect(td1.nationality.value == "UTO")
        #expect(td1.compositeCheckDigit == CheckDigit(value: "6", isValid: true, position: position(1, 29, 29)))
        #expect(td1.name.value == "ERIKSSON  ANNA MARIA")
        #expect(
            td1.name.primaryIdentifier == Element(value: "ERIKSSON", raw: "ERIKSSON", positions: [position(2, 0, 7)]))
        #expect(
            td1.name.secondaryIdentifier
                == Element(value: "ANNA MARIA", raw: "ANNA<MARIA<<<<<<<<<<", positions: [position(2, 10, 29)]))
        #expect(td1.name.positions == [position(2, 0, 29)])
        #expect(zone.fields.checkDigitsValid)
    }

    /// ICAO 9303-5 §4.2.4: a 12-character document number continued into the optional data.
    @Test func td1LongDocumentNumber() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "I<UTOD23145890<7349<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ])
        let td1 = try #require(zone.td1)
        #expect(td1.documentNumber.value == "D23145890734")
        #expect(td1.documentNumber.raw == "D23145890734")
        #expect(td1.documentNumber.positions == [position(0, 5, 13), position(0, 15, 17)])
        #expect(
            td1.documentNumber.checkDigit == CheckDigit(value: "9", isValid: true, position: position(0, 18, 18)))
        #expect(td1.optionalData[0] == Element(value: "", raw: "<<<<<<<<<<", positions: [position(0, 20, 29)]))
        #expect(zone.fields.documentNumber == "D23145890734")
        #expect(zone.fields.checkDigitsValid)
    }

    @Test func td3Specimen() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ])
        #expect(zone.travelDocumentType == .td3)
        let td3 = try #require(zone.td3)
        #expect(td3.documentCode.value == "P")
        #expect(td3.issuingStateOrOrganization.value == "UTO")
        #expect(td3.name.positions == [position(0, 5, 43)])
        #expect(td3.name.primaryIdentifier?.value == "ERIKSSON" && td3.name.secondaryIdentifier?.value == "ANNA MARIA")
        #expect(td3.passportNumber.value == "L898902C3" && td3.documentNumber == td3.passportNumber)
        #expect(td3.passportNumber.checkDigit == CheckDigit(value: "6", isValid: true, position: position(1, 9, 9)))
        #expect(td3.nationality == Element(value: "UTO", raw: "UTO", positions: [position(1, 10, 12)]))
        #expect(td3.dateOfBirth.positions == [position(1, 13, 18)])
        #expect(td3.dateOfBirth.checkDigit.value == "2" && td3.dateOfBirth.checkDigit.isValid)
        #expect(td3.sex.positions == [position(1, 20, 20)])
        #expect(td3.dateOfExpiry.raw == "120415" && td3.dateOfExpiry.checkDigit.isValid)
        #expect(
            td3.personalNumberOrOtherOptionalData
                == ElementWithCheckDigit(
                    value: "ZE184226B", raw: "ZE184226B<<<<<", positions: [position(1, 28, 41)],
                    checkDigit: CheckDigit(value: "1", isValid: true, position: position(1, 42, 42))))
        #expect(td3.optionalDataCheckDigit == td3.personalNumberOrOtherOptionalData.checkDigit)
        #expect(td3.compositeCheckDigit == CheckDigit(value: "0", isValid: true, position: position(1, 43, 43)))
        #expect(
            zone.fields
                == MrzFields(
                    travelDocumentType: .td3, documentCode: "P", issuingState: "UTO",
                    documentNumber: "L898902C3", primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA",
                    nationality: "UTO", dateOfBirth: "740812", dateOfExpiry: "120415", sex: "F",
                    optionalData: "ZE184226B", optionalDataFields: ["ZE184226B"], checkDigitsValid: true
                )
        )
    }

    @Test func td2Specimen() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6",
        ])
        #expect(zone.travelDocumentType == .td2)
        let td2 = try #require(zone.td2)
        #expect(td2.name.positions == [position(0, 5, 35)])
        #expect(td2.documentNumber.value == "D23145890" && td2.documentNumber.checkDigit.isValid)
        #expect(td2.optionalData == Element(value: "", raw: "<<<<<<<", positions: [position(1, 28, 34)]))
        #expect(td2.compositeCheckDigit == CheckDigit(value: "6", isValid: true, position: position(1, 35, 35)))
        #expect(zone.fields.checkDigitsValid)
    }

    @Test func mrvASpecimen() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8988901C4XXX4009078F96121096ZE184226B<<<<<<",
        ])
        #expect(zone.travelDocumentType == .mrvA)
        let td3 = try #require(zone.td3)
        #expect(td3.documentNumber.value == "L8988901C" && td3.documentNumber.checkDigit.isValid)
        #expect(td3.nationality.value == "XXX")
        #expect(td3.dateOfBirth.date == MrzDate(year: 40, month: 9, day: 7))
        #expect(
            td3.personalNumberOrOtherOptionalData
                == ElementWithCheckDigit(
                    value: "6ZE184226B", raw: "6ZE184226B<<<<<<", positions: [position(1, 28, 43)],
                    checkDigit: CheckDigit(value: "", isValid: true, position: position(1, 28, 43))))
        #expect(td3.optionalDataCheckDigit == nil && td3.compositeCheckDigit == nil)
        #expect(zone.fields.checkDigitsValid)
    }

    @Test func mrvBSpecimen() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "L8988901C4XXX4009078F9612109<<<<<<<<",
        ])
        #expect(zone.travelDocumentType == .mrvB)
        let td2 = try #require(zone.td2)
        #expect(td2.optionalData == Element(value: "", raw: "<<<<<<<<", positions: [position(1, 28, 35)]))
        #expect(td2.compositeCheckDigit == nil)
        #expect(td2.dateOfExpiry.raw == "961210" && td2.dateOfExpiry.checkDigit.isValid)
        #expect(zone.fields.checkDigitsValid)
    }

    @Test func linesAreTrimmedAndUpperCased() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "  p<utoeriksson<<anna<maria<<<<<<<<<<<<<<<<<<<\t", "L898902C36UTO7408122F1204159ZE184226B<<<<<10\r",
        ])
        #expect(zone.lines[0] == "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<")
        #expect(zone.lines[1] == "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
    }

    @Test func wrongCheckDigitsAreReportedNotThrown() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C37UTO7408122F1204159ZE184226B<<<<<10",
        ])
        let td3 = try #require(zone.td3)
        #expect(!td3.documentNumber.checkDigit.isValid)
        #expect(td3.dateOfBirth.checkDigit.isValid)
        #expect(!td3.compositeCheckDigit!.isValid)
        #expect(!zone.fields.checkDigitsValid)
    }

    @Test func unknownDatePartsAreNull() throws {
        // 9303-3 §4.7: unknown parts of a date are fillers; the check digit counts them as 0.
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO74<<<<1F1204159ZE184226B<<<<<18",
        ])
        let birth = try #require(zone.td3).dateOfBirth
        #expect(birth.date == MrzDate(year: 74, month: nil, day: nil))
        #expect(birth.value == "74" && birth.raw == "74<<<<")
        #expect(birth.checkDigit.isValid)
        #expect(zone.fields.dateOfBirth == "74<<<<")
    }

    @Test func nameWithoutSecondaryIdentifier() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "I<UTOERIKSSON<<<<<<<<<<<<<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6",
        ])
        let name = try #require(zone.td2).name
        #expect(
            name.primaryIdentifier?.value == "ERIKSSON" && name.secondaryIdentifier == nil && name.value == "ERIKSSON")
    }

    @Test(arguments: [
        [String](),
        ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"],
        ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<1"],
        ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<1 0"],
        ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<1!"],
        ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<1É"],
        ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6"],
        [
            "I<UTOD231458907<<<<<<<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6<<<<<<",
            "ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<",
        ],
        Array(repeating: "I<UTOD231458907<<<<<<<<<<<<<<<", count: 4),
    ])
    func invalidLayoutsThrow(lines: [String]) {
        let error = #expect(throws: MRZError.self) { try MachineReadableZone.parse(lines: lines) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason.isEmpty == false)
    }
}

@Suite struct RedactionTests {
    @Test func zonesPrintWithoutTheirContent() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ])
        let printed: [Any] = [zone, try #require(zone.td3), zone.fields]
        for value in printed {
            for text in [String(describing: value), String(reflecting: value)] {
                #expect(text.hasSuffix("(<redacted>)"))
                #expect(!text.contains("L898902C") && !text.contains("740812"))
            }
        }
    }
}

@Suite struct UnbrokenTextTests {
    @Test func dataGroupOneTextReadsAsItsLines() throws {
        let lines = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
        #expect(
            try MachineReadableZone.parse(unbrokenText: lines.joined()) == (try MachineReadableZone.parse(lines: lines))
        )
        let td1 = [
            "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ]
        #expect(try MachineReadableZone.parse(unbrokenText: td1.joined()).travelDocumentType == .td1)
        let td2 = ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"]
        #expect(try MachineReadableZone.parse(unbrokenText: td2.joined()).lines == td2)
    }

    @Test func otherLengthsThrow() {
        for length in [0, 1, 30, 71, 89, 91, 180] {
            #expect(throws: MRZError.self) {
                try MachineReadableZone.parse(unbrokenText: String(repeating: "<", count: length))
            }
        }
    }
}
