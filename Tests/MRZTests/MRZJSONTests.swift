import Foundation
import Testing

@testable import MRZ

@Suite struct MRZJSONTests {
    private func object(_ lines: [String]) throws -> [String: Any] {
        let json = machineReadableZoneToJson(mrz: try MachineReadableZone.parse(lines: lines))
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func td1KeysAndNulls() throws {
        let root = try object([
            "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ])
        #expect(Set(root.keys) == ["lines", "travelDocumentType", "td1", "td2", "td3", "visa"])
        #expect(root["travelDocumentType"] as? String == "td1")
        #expect(root["td2"] is NSNull && root["td3"] is NSNull)
        let td1 = try #require(root["td1"] as? [String: Any])
        #expect(
            Set(td1.keys) == [
                "documentCode", "issuingStateOrOrganization", "documentNumber", "optionalData", "dateOfBirth", "sex",
                "dateOfExpiry", "nationality", "compositeCheckDigit", "name",
            ]
        )
        let number = try #require(td1["documentNumber"] as? [String: Any])
        #expect(number["value"] as? String == "D23145890")
        let checkDigit = try #require(number["checkDigit"] as? [String: Any])
        #expect(checkDigit["isValid"] as? Bool == true && checkDigit["value"] as? String == "7")
        let position = try #require(checkDigit["position"] as? [String: Any])
        #expect(position["lineIndex"] as? Int == 0 && position["startIndex"] as? Int == 14)
        let name = try #require(td1["name"] as? [String: Any])
        let primary = try #require(name["primaryIdentifier"] as? [String: Any])
        let secondary = try #require(name["secondaryIdentifier"] as? [String: Any])
        #expect(primary["value"] as? String == "ERIKSSON" && secondary["value"] as? String == "ANNA MARIA")
        #expect(primary["raw"] as? String == "ERIKSSON" && secondary["raw"] as? String == "ANNA<MARIA<<<<<<<<<<")
        let secondaryPosition = try #require((secondary["positions"] as? [[String: Any]])?.first)
        #expect(secondaryPosition["lineIndex"] as? Int == 2 && secondaryPosition["startIndex"] as? Int == 10)
        #expect(secondaryPosition["endIndex"] as? Int == 29)
        let birth = try #require((td1["dateOfBirth"] as? [String: Any])?["date"] as? [String: Any])
        #expect(birth["year"] as? Int == 74 && birth["month"] as? Int == 8 && birth["day"] as? Int == 12)
    }

    @Test func mrvAWritesItsMissingCheckDigitsAsNull() throws {
        let root = try object([
            "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8988901C4XXX40<<<<2F96121096ZE184226B<<<<<<",
        ])
        #expect(root["travelDocumentType"] as? String == "td3" && root["visa"] as? String == "mrvA")
        let td3 = try #require(root["td3"] as? [String: Any])
        #expect(td3["compositeCheckDigit"] is NSNull)
        let optional = try #require(td3["personalNumberOrOtherOptionalData"] as? [String: Any])
        #expect((optional["checkDigit"] as? [String: Any])?["value"] as? String == "")
        #expect((td3["passportNumber"] as? [String: Any])?["value"] as? String == "L8988901C")
        let birth = try #require((td3["dateOfBirth"] as? [String: Any])?["date"] as? [String: Any])
        #expect(birth["year"] as? Int == 40 && birth["month"] is NSNull && birth["day"] is NSNull)
    }

    @Test func mrvBWritesItsMissingCompositeAsNull() throws {
        let root = try object(["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "L8988901C4XXX4009078F9612109<<<<<<<<"])
        let td2 = try #require(root["td2"] as? [String: Any])
        #expect(td2.keys.contains("compositeCheckDigit") && td2["compositeCheckDigit"] is NSNull)
        #expect(root["td1"] is NSNull && root["td3"] is NSNull)
    }

    @Test func prettyOutputIsTheSameDocument() throws {
        let zone = try MachineReadableZone.parse(lines: [
            "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6",
        ])
        let compact = machineReadableZoneToJson(mrz: zone)
        let pretty = machineReadableZoneToJson(mrz: zone, prettyPrinted: true)
        #expect(pretty.contains("\n") && !compact.contains("\n"))
        let decodedCompact = try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? NSDictionary
        let decodedPretty = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? NSDictionary
        #expect(decodedCompact == decodedPretty)
    }
}
