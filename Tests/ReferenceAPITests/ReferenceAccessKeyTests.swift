import Emrtd
import Testing

/// The reference's access keys, `parseMrz` and `accessKeyFromMrz` as a host that imports
/// `Emrtd` alone writes them: keys made without `try`, switched over, and the reference's error.
@Suite struct ReferenceAccessKeyTests {
    /// ICAO 9303-4's TD3 specimen, whose key is the reference example's.
    static let specimenLines = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    ]

    static func spelled(_ key: AccessKey) -> String {
        switch key {
        case .mrz(let documentNumber, let dateOfBirth, let dateOfExpiry):
            "mrz \(documentNumber) \(dateOfBirth) \(dateOfExpiry)"
        case .can(let value):
            "can \(value)"
        }
    }

    @Test func keysAreMadeWithoutTryAndSwitchedOver() {
        let mrz: AccessKey = .mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        let can: AccessKey = .can(value: "123456")
        #expect(Self.spelled(mrz) == "mrz L898902C 690806 940623")
        #expect(Self.spelled(can) == "can 123456")
        // Not checked when made: the read refuses it (ReferenceKeyCheckTests).
        #expect(Self.spelled(.can(value: "12")) == "can 12")
    }

    @Test func aPrintedKeyShowsNoValue() {
        let key: AccessKey = .mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        var dumped = ""
        dump(key, to: &dumped)
        for text in ["\(key)", String(reflecting: key), dumped] {
            #expect(!text.contains("L898902C") && !text.contains("690806") && !text.contains("940623"), "\(text)")
        }
        #expect("\(key)" == "AccessKey.mrz(<redacted>)")
        #expect("\(AccessKey.can(value: "123456"))" == "AccessKey.can(<redacted>)")
    }

    @Test func parseMrzThenAccessKeyFromMrzWithoutTry() throws {
        let zone = try parseMrz(lines: Self.specimenLines)
        #expect(zone.fields.documentNumber == "L898902C3")
        let key = accessKeyFromMrz(mrz: zone)
        #expect(Self.spelled(key) == "mrz L898902C3 740812 120415")
    }

    /// "document number including any TD1/TD2 overflow, raw dates".
    @Test func accessKeyFromMrzTakesTheWholeNumberOfALongTd1() throws {
        let zone = try parseMrz(lines: [
            "I<UTOD23145890<7349<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ])
        #expect(Self.spelled(accessKeyFromMrz(mrz: zone)) == "mrz D23145890734 740812 120415")
    }

    @Test(arguments: [
        (["P<UTOERIKSSON<<ANNA<MARIA"], "2 or 3 lines"),
        (["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO"], "equal length"),
        (
            ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<1*"],
            "only A-Z, 0-9 and <"
        ),
    ])
    func parseMrzThrowsInvalidArgument(lines: [String], reasonPart: String) {
        do {
            _ = try parseMrz(lines: lines)
            Issue.record("parsed \(lines)")
        } catch ReadError.InvalidArgument(let reason) {
            #expect(reason.contains(reasonPart), "\(reason)")
        } catch {
            Issue.record("not InvalidArgument: \(error)")
        }
    }
}
