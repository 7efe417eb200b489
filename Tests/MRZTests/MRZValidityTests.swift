import Foundation
import JSON
import Testing

@testable import MRZ

/// `MRZValidity` (check digits, impossible dates, full years, expiry) and `MRZComparison` (page
/// against chip), on zones built here with check digits computed by the test's own 7-3-1 sum.
@Suite struct MRZValidityTests {
    /// ICAO 9303-3 §4.9, written apart from the package's.
    static func checkDigit(_ text: String) -> String {
        let weights = [7, 3, 1]
        var sum = 0
        for (index, character) in text.enumerated() {
            let value: Int =
                if let digit = character.wholeNumberValue {
                    digit
                } else if let ascii = character.asciiValue, character.isLetter {
                    Int(ascii) - 55
                } else {
                    0
                }
            sum += value * weights[index % 3]
        }
        return String(sum % 10)
    }

    static func padded(_ text: String, _ length: Int) -> String {
        text + String(repeating: "<", count: max(0, length - text.count))
    }

    /// A TD3 zone with every check digit right, unless `breaking` names one to get wrong.
    static func td3(
        name: String = "ERIKSSON<<ANNA<MARIA", number: String = "L898902C", birth: String = "690806",
        sex: String = "F", expiry: String = "940623", breaking: String? = nil
    ) throws -> MachineReadableZone {
        func digit(_ field: String, _ text: String) -> String {
            let right = checkDigit(text)
            guard breaking == field, let value = Int(right) else { return right }
            return String((value + 1) % 10)
        }
        let documentNumber = padded(number, 9)
        let optional = padded("ZE184226B", 14)
        let parts = [
            documentNumber + digit("documentNumber", documentNumber), birth + digit("dateOfBirth", birth),
            expiry + digit("dateOfExpiry", expiry), optional + digit("optionalData", optional),
        ]
        let composite = digit("composite", parts.joined())
        let line2 = parts[0] + "UTO" + parts[1] + sex + parts[2] + parts[3] + composite
        return try MachineReadableZone.parse(lines: [padded("P<UTO" + name, 44), line2])
    }

    static func day(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    @Test func theSpecimenIsValidAndExpiredToday() throws {
        let zone = try Self.td3()
        let validity = MRZValidity(zone, at: Self.day("2026-12-01"))
        #expect(validity.checkDigitsValid && validity.compositeCheckDigitValid == true)
        #expect(
            validity.checkDigits.map(\.field) == [
                "documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite",
            ])
        #expect(validity.problems.isEmpty)
        #expect(validity.dateOfBirth.raw == "690806" && validity.dateOfBirth.isoDate == "1969-08-06")
        #expect(validity.dateOfExpiry.isoDate == "1994-06-23")
        #expect(validity.expired == true)
        #expect(MRZValidity(zone, at: Self.day("1994-06-23")).expired == false)
        #expect(MRZValidity(zone, at: Self.day("1994-06-24")).expired == true)
    }

    @Test(arguments: ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite"])
    func eachFailedCheckDigitIsNamed(field: String) throws {
        let validity = MRZValidity(try Self.td3(breaking: field), at: Self.day("1990-01-01"))
        #expect(!validity.checkDigitsValid)
        #expect(validity.checkDigits.filter { !$0.isValid }.map(\.field) == [field])
        #expect(validity.compositeCheckDigitValid == (field != "composite"))
        #expect(validity.problems.count == 1)
        #expect(validity.problems.first?.contains(field == "composite" ? "composite" : "check digit of the") == true)
        #expect(validity.json["checkDigitsValid"] == false)
    }

    /// Impossible dates are flagged without repeating their digits; unknown parts are not.
    @Test(arguments: [
        ("691306", "no month has that number"), ("690832", "no month has that day"),
        ("000000", "no month has that number"),
        ("690230", "its month has no such day"), ("690229", "its month has no such day"),
        ("690431", "its month has no such day"),
    ])
    func impossibleBirthDates(raw: String, problem: String) throws {
        let validity = MRZValidity(try Self.td3(birth: raw), at: Self.day("2026-12-01"))
        #expect(validity.checkDigitsValid)
        #expect(validity.dateOfBirth.problem == problem)
        #expect(validity.dateOfBirth.isoDate == nil)
        #expect(validity.problems == ["the date of birth is not a possible date (\(problem))"])
        #expect(!validity.problems.joined().contains(raw))
    }

    @Test func leapDaysAndUnknownParts() throws {
        #expect(
            MRZValidity(try Self.td3(birth: "680229"), at: Self.day("2026-12-01")).dateOfBirth.isoDate == "1968-02-29")
        let unknown = MRZValidity(try Self.td3(birth: "69<<<<"), at: Self.day("2026-12-01"))
        #expect(unknown.dateOfBirth.problem == nil && unknown.dateOfBirth.isoDate == nil && unknown.problems.isEmpty)
        let noExpiry = MRZValidity(try Self.td3(expiry: "<<<<<<"), at: Self.day("2026-12-01"))
        #expect(noExpiry.expired == nil)
    }

    /// Birth: the latest date not after the check date. Expiry: the latest date at most 50 years
    /// after the check date's year.
    @Test func centuriesFollowTheDocumentedRule() throws {
        func birth(_ raw: String, _ at: String) throws -> String? {
            MRZValidity(try Self.td3(birth: raw), at: Self.day(at)).dateOfBirth.isoDate
        }
        func expiry(_ raw: String, _ at: String) throws -> String? {
            MRZValidity(try Self.td3(expiry: raw), at: Self.day(at)).dateOfExpiry.isoDate
        }
        #expect(try birth("251231", "2025-06-01") == "1925-12-31")
        #expect(try birth("251231", "2026-01-01") == "2025-12-31")
        #expect(try birth("260601", "2026-06-01") == "2026-06-01")
        #expect(try birth("990101", "2026-06-01") == "1999-01-01")
        #expect(try expiry("760101", "2026-06-01") == "2076-01-01")
        #expect(try expiry("770101", "2026-06-01") == "1977-01-01")
        #expect(try expiry("300101", "2026-06-01") == "2030-01-01")
        #expect(try expiry("300101", "2090-06-01") == "2130-01-01")
    }

    @Test func theValidityJSONCarriesRawAndISODates() throws {
        let json = MRZValidity(try Self.td3(), at: Self.day("2026-12-01")).json
        #expect(json["dateOfBirth"]?["raw"] == "690806" && json["dateOfBirth"]?["isoDate"] == "1969-08-06")
        #expect(json["expired"] == true && json["compositeCheckDigitValid"] == true)
        #expect(json["checkTime"] == "2026-12-01T00:00:00Z")
    }

    @Test func eachDateSaysWhichCenturyRuleResolvedIt() throws {
        let validity = MRZValidity(try Self.td3(), at: Self.day("2026-12-01"))
        #expect(validity.dateOfBirth.rule == .birth && validity.dateOfExpiry.rule == .expiry)
        #expect(validity.dateOfExpiry.rule.description.contains("\(MRZValidity.expiryYearsAhead) years"))
    }

    @Test func theSameZoneMatches() throws {
        let comparison = MRZComparison(printed: try Self.td3(), chip: try Self.td3())
        #expect(comparison.matches && comparison.differences.isEmpty)
    }

    @Test func anotherHolderIsReportedFieldByField() throws {
        let comparison = MRZComparison(
            printed: try Self.td3(name: "ERIKSSON<<JOHN", sex: "M"), chip: try Self.td3())
        #expect(!comparison.matches)
        #expect(comparison.differingFields == ["secondaryIdentifier", "sex"])
        let sex = try #require(comparison.differences.last)
        #expect(sex.printed == "M" && sex.chip == "F")
        #expect(comparison.json["matches"] == false)
        // Every field is kept for a side-by-side view, the same ones beside the different ones.
        #expect(comparison.fields.count == 16 && comparison.fields.filter(\.matches).count == 14)
        let nationality = try #require(comparison.fields.first { $0.field == "nationality" })
        #expect(nationality.printed == "UTO" && nationality.chip == "UTO" && nationality.matches)
    }

    @Test func otherNumbersAndCheckDigitsAreReported() throws {
        let number = MRZComparison(printed: try Self.td3(number: "L898902D"), chip: try Self.td3())
        #expect(number.differingFields.starts(with: ["documentNumber", "documentNumberCheckDigit"]))
        #expect(number.differingFields.last == "compositeCheckDigit")
        let digit = MRZComparison(printed: try Self.td3(breaking: "dateOfBirth"), chip: try Self.td3())
        #expect(digit.differingFields == ["dateOfBirthCheckDigit", "compositeCheckDigit"])
        let layout = MRZComparison(
            printed: try MachineReadableZone.parse(lines: [
                "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
            ]), chip: try Self.td3())
        #expect(layout.differingFields.first == "travelDocumentType")
    }
}
