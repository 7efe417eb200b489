import Testing

@testable import MRZ

@Suite struct AccessPasswordTests {
    private func password(_ key: AccessPassword) -> String {
        key.withPasswordBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// ICAO 9303-11 Appendix D.2: the MRZ information of the BAC worked example.
    @Test func mrzInformationOfTheWorkedExample() throws {
        let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect(key.kind == .mrz)
        #expect(password(key) == "L898902C<369080619406236")
    }

    @Test func documentNumberIsTrimmedUpperCasedAndPadded() throws {
        let key = try AccessPassword.mrz(documentNumber: " l898902c \n", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect(password(key) == "L898902C<369080619406236")
        #expect(
            key == (try AccessPassword.mrz(documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940623")))
    }

    /// A number longer than 9 characters is used whole with its own check digit (9303-11 §4.3.2).
    @Test func longDocumentNumberIsUsedWhole() throws {
        let key = try AccessPassword.mrz(documentNumber: "D23145890734", dateOfBirth: "740812", dateOfExpiry: "120415")
        #expect(password(key) == "D23145890734" + "9" + "740812" + "2" + "120415" + "9")
    }

    @Test func datesMayHoldFillers() throws {
        let key = try AccessPassword.mrz(documentNumber: "L898902C3", dateOfBirth: "74<<<<", dateOfExpiry: "120415")
        #expect(password(key) == "L898902C36" + "74<<<<1" + "1204159")
    }

    @Test(arguments: [
        ("", "690806", "940623"),
        ("L898-902C", "690806", "940623"),
        ("L898902C", "69086", "940623"),
        ("L898902C", "6908061", "940623"),
        ("L898902C", "69O806", "940623"),
        ("L898902C", "690806", "94-06-23"),
    ])
    func invalidMRZInputsThrow(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) {
        let error = #expect(throws: MRZError.self) {
            try AccessPassword.mrz(documentNumber: documentNumber, dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error.map { !$0.reason.contains(documentNumber) || documentNumber.isEmpty } ?? false)
    }

    @Test func canIsExactlySixDigits() throws {
        let key = try AccessPassword.can(value: "123456")
        #expect(key.kind == .can)
        #expect(password(key) == "123456")
        for bad in ["12345", "1234567", "12345A", "", "12 456"] {
            #expect(throws: MRZError.self) { try AccessPassword.can(value: bad) }
        }
    }

    @Test func descriptionsAreRedacted() throws {
        let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        for text in [String(describing: key), String(reflecting: key), "\(key)"] {
            #expect(!text.contains("L898902C") && !text.contains("690806") && !text.contains("940623"))
        }
        #expect(String(describing: try AccessPassword.can(value: "123456")) == "AccessPassword.can(<redacted>)")
    }

    @Test func accessKeyFromTheTd3Specimen() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ])
        let key = try AccessPassword.printed(in: zone)
        #expect(password(key) == "L898902C36" + "7408122" + "1204159")
    }

    @Test func accessKeyFromALongTd1DocumentNumber() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "I<UTOD23145890<7349<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ])
        #expect(password(try AccessPassword.printed(in: zone)) == "D231458907349" + "7408122" + "1204159")
    }

    @Test func accessKeyFromAZoneWithLettersInADateThrows() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO74A8122F1204159ZE184226B<<<<<10",
        ])
        #expect(zone.td3?.dateOfBirth.date.month == nil)
        #expect(throws: MRZError.self) { try AccessPassword.printed(in: zone) }
    }

    /// A TD3 issued with a wrong document-number check digit (5 printed, 3 computed; the
    /// composite consistent with what is printed, as an issuer's printer makes it): the chip's key
    /// is the printed MRZ information, and the key names the field.
    static let wrongCheckDigitLines = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<5UTO6908061F9406236ZE184226B<<<<<18",
    ]

    @Test func aPrintedWrongCheckDigitIsWhatTheKeyUses() throws {
        let zone = try MachineReadableZone.parse(lines: Self.wrongCheckDigitLines)
        #expect(zone.td3?.documentNumber.checkDigit.isValid == false)
        #expect(zone.td3?.compositeCheckDigit?.isValid == true)
        let key = try AccessPassword.printed(in: zone)
        #expect(password(key) == "L898902C<5" + "6908061" + "9406236")
        #expect(key.usesPrintedCheckDigits)
        #expect(key.wrongPrintedCheckDigits == [.documentNumber])
        let fromFields = try AccessPassword.mrz(
            documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect(key != fromFields)
        #expect(!fromFields.usesPrintedCheckDigits && fromFields.wrongPrintedCheckDigits.isEmpty)
    }

    @Test func wrongDateCheckDigitsAreNamedToo() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908062F9406237ZE184226B<<<<<14",
        ])
        let key = try AccessPassword.printed(in: zone)
        #expect(password(key) == "L898902C<3" + "6908062" + "9406237")
        #expect(key.wrongPrintedCheckDigits == [.dateOfBirth, .dateOfExpiry])
    }

    @Test func aValidZoneGivesTheSameKeyAsItsFields() throws {
        let key = try AccessPassword.printed(
            in: try MachineReadableZone.parse(lines: [
                "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061F9406236ZE184226B<<<<<14",
            ]))
        #expect(
            key == (try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")))
        #expect(key.usesPrintedCheckDigits && key.wrongPrintedCheckDigits.isEmpty)
    }
}
