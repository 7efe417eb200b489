import Emrtd
import Foundation
import Testing

/// The reference's Swift API for DG11–DG16: every property its Swift column names, with its type,
/// and the values a parsed file gives through them (the same values its JSON shows).
@Suite struct ReferenceShapeDetailsTests {
    /// Computed: an array of key paths is not Sendable, so it cannot be a static constant.
    var keyPaths: [AnyKeyPath] {
        [
            \AdditionalPersonalDetails.nameOfHolder as KeyPath<AdditionalPersonalDetails, NameOfHolder?>,
            \NameOfHolder.primaryIdentifier as KeyPath<NameOfHolder, String?>,
            \NameOfHolder.secondaryIdentifier as KeyPath<NameOfHolder, String?>,
            \AdditionalPersonalDetails.otherNames as KeyPath<AdditionalPersonalDetails, [String]>,
            \AdditionalPersonalDetails.personalNumber as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalPersonalDetails.fullDateOfBirth as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalPersonalDetails.placeOfBirth as KeyPath<AdditionalPersonalDetails, [String]?>,
            \AdditionalPersonalDetails.address as KeyPath<AdditionalPersonalDetails, [String]?>,
            \AdditionalPersonalDetails.telephone as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalPersonalDetails.profession as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalPersonalDetails.title as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalPersonalDetails.personalSummary as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalPersonalDetails.proofOfCitizenship as KeyPath<AdditionalPersonalDetails, DocumentImage?>,
            \AdditionalPersonalDetails.otherValidTravelDocumentNumbers as KeyPath<AdditionalPersonalDetails, [String]?>,
            \AdditionalPersonalDetails.custodyInformation as KeyPath<AdditionalPersonalDetails, String?>,
            \AdditionalDocumentDetails.issuingAuthority as KeyPath<AdditionalDocumentDetails, String?>,
            \AdditionalDocumentDetails.dateOfIssue as KeyPath<AdditionalDocumentDetails, String?>,
            \AdditionalDocumentDetails.otherPersonDetails as KeyPath<AdditionalDocumentDetails, [String]?>,
            \AdditionalDocumentDetails.endorsementsOrObservations as KeyPath<AdditionalDocumentDetails, String?>,
            \AdditionalDocumentDetails.taxOrExitRequirements as KeyPath<AdditionalDocumentDetails, String?>,
            \AdditionalDocumentDetails.imageOfFront as KeyPath<AdditionalDocumentDetails, DocumentImage?>,
            \AdditionalDocumentDetails.imageOfRear as KeyPath<AdditionalDocumentDetails, DocumentImage?>,
            \AdditionalDocumentDetails.personalizationTime as KeyPath<AdditionalDocumentDetails, String?>,
            \AdditionalDocumentDetails.personalizationDeviceSerialNumber as KeyPath<AdditionalDocumentDetails, String?>,
            \OptionalDetails.content as KeyPath<OptionalDetails, Data>,
            \OptionalDetails.fields as KeyPath<OptionalDetails, [TagValue]>,
            \TagValue.tag as KeyPath<TagValue, UInt32>,
            \TagValue.value as KeyPath<TagValue, Data>,
            \PersonsToNotify.persons as KeyPath<PersonsToNotify, [PersonToNotify]>,
            \PersonToNotify.dateRecorded as KeyPath<PersonToNotify, String?>,
            \PersonToNotify.name as KeyPath<PersonToNotify, String?>,
            \PersonToNotify.telephone as KeyPath<PersonToNotify, String?>,
            \PersonToNotify.address as KeyPath<PersonToNotify, String?>,
            \SecurityOptions.securityInfos as KeyPath<SecurityOptions, [SecurityInfo]>,
            \SecurityInfo.`protocol` as KeyPath<SecurityInfo, String>,
            \SecurityInfo.name as KeyPath<SecurityInfo, String>,
            \SecurityInfo.version as KeyPath<SecurityInfo, Int64?>,
            \SecurityInfo.keyId as KeyPath<SecurityInfo, Int64?>,
            \SecurityInfo.parameterId as KeyPath<SecurityInfo, Int64?>,
            \PublicKeyInfo.algorithm as KeyPath<PublicKeyInfo, String>,
            \PublicKeyInfo.keySize as KeyPath<PublicKeyInfo, UInt32>,
            \PublicKeyInfo.curve as KeyPath<PublicKeyInfo, String?>,
            \PublicKeyInfo.der as KeyPath<PublicKeyInfo, Data>,
        ]
    }

    @Test func everyPropertyHasTheReferenceType() {
        #expect(keyPaths.count == 43)
    }

    /// DG11 written by the LDS writer: the stored texts (with `<` separators) read through the
    /// reference's properties as lines, split names and digits.
    @Test func additionalPersonalDetails() throws {
        let written = AdditionalPersonalDetails(
            fullNameText: "ERIKSSON<<ANNA<MARIA", otherNamesText: ["ERIKSSON<<ANNA"], personalNumberText: "ZE184226B",
            fullDateOfBirthRecord: LDSDate(value: "19690806", encoding: .bcd), placeOfBirthText: "ZENITH<UTOPIA",
            addressText: "17 EXAMPLE STREET<<UTOPIA", telephoneText: "+00 555 0100", professionText: "SPECIMEN",
            titleText: "DR", personalSummaryText: "NONE", otherValidTravelDocumentNumbersText: "C01X00T47<<C01X00T48",
            custodyInformationText: "NONE")
        let details = try AdditionalPersonalDetails(written.encoded())
        #expect(details.nameOfHolder == NameOfHolder(primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA"))
        #expect(details.otherNames == ["ERIKSSON ANNA"])
        #expect(details.personalNumber == "ZE184226B")
        #expect(details.fullDateOfBirth == "19690806")
        #expect(details.placeOfBirth == ["ZENITH", "UTOPIA"])
        #expect(details.address == ["17 EXAMPLE STREET", "", "UTOPIA"])
        #expect(details.telephone == "+00 555 0100" && details.profession == "SPECIMEN" && details.title == "DR")
        #expect(details.personalSummary == "NONE" && details.custodyInformation == "NONE")
        #expect(details.proofOfCitizenship == nil)
        #expect(details.otherValidTravelDocumentNumbers == ["C01X00T47", "C01X00T48"])
    }

    /// DG12: dates as digits whatever the chip's encoding, names and texts without fillers.
    @Test func additionalDocumentDetails() throws {
        let written = AdditionalDocumentDetails(
            issuingAuthorityText: "UTOPIA PASSPORT OFFICE",
            dateOfIssueRecord: LDSDate(value: "19890624", encoding: .bcd), otherPersonDetailsText: ["ERIKSSON<<LARS"],
            endorsementsOrObservationsText: "SPECIMEN<NOT<VALID", taxOrExitRequirementsText: "NONE",
            dateAndTimeOfPersonalization: LDSDate(value: "19890601120000", encoding: .text),
            personalizationDeviceSerialNumberText: "EMRTD-SIM-1")
        let details = try AdditionalDocumentDetails(written.encoded())
        #expect(details.issuingAuthority == "UTOPIA PASSPORT OFFICE")
        #expect(details.dateOfIssue == "19890624")
        #expect(details.otherPersonDetails == ["ERIKSSON LARS"])
        #expect(details.endorsementsOrObservations == "SPECIMEN NOT VALID")
        #expect(details.taxOrExitRequirements == "NONE")
        #expect(details.imageOfFront == nil && details.imageOfRear == nil)
        #expect(details.personalizationTime == "19890601120000")
        #expect(details.personalizationDeviceSerialNumber == "EMRTD-SIM-1")
        #expect(try AdditionalDocumentDetails(AdditionalDocumentDetails().encoded()).otherPersonDetails == nil)
    }

    /// DG11, DG12 and DG16 with `<` fillers in every text: each reference-named property is
    /// exactly the value its JSON shows (the JSON is the model serialized).
    @Test func propertiesEqualTheirJSONValues() throws {
        let personal = try AdditionalPersonalDetails(
            AdditionalPersonalDetails(
                fullNameText: "SMITH<<JOHN<J", otherNamesText: ["SMITH<<JACK", "<JOHNNY<<"],
                personalNumberText: "123<456<<789", fullDateOfBirthRecord: LDSDate(value: "19700100", encoding: .text),
                placeOfBirthText: "ANYTOWN<<MN", addressText: "123 MAPLE RD<ANYTOWN<MN",
                telephoneText: "1<612<555<1212", professionText: "TRAVEL<AGENT", titleText: "<DR<",
                personalSummaryText: "SUMMARY<<OF<<LIFE", otherValidTravelDocumentNumbersText: "C01X00T47<<C01X00T48",
                custodyInformationText: "NONE<<KNOWN"
            ).encoded())
        let personalJSON = try Self.members(personal.json.serialized())
        #expect(personal.personalNumber == "123 456 789" && personal.telephone == "1 612 555 1212")
        #expect(personal.profession == "TRAVEL AGENT" && personal.title == "DR")
        #expect(personal.otherNames == ["SMITH JACK", "JOHNNY"])
        let name = personalJSON["nameOfHolder"] as? [String: Any]
        #expect(Self.same(personal.nameOfHolder?.primaryIdentifier, name?["primaryIdentifier"]))
        #expect(Self.same(personal.nameOfHolder?.secondaryIdentifier, name?["secondaryIdentifier"]))
        #expect(Self.same(personal.otherNames, personalJSON["otherNames"]))
        let personalTexts: [(String, String?)] = [
            ("personalNumber", personal.personalNumber), ("fullDateOfBirth", personal.fullDateOfBirth),
            ("telephone", personal.telephone), ("profession", personal.profession), ("title", personal.title),
            ("personalSummary", personal.personalSummary), ("custodyInformation", personal.custodyInformation),
        ]
        for (key, value) in personalTexts { #expect(Self.same(value, personalJSON[key]), "\(key)") }
        let personalLists: [(String, [String]?)] = [
            ("placeOfBirth", personal.placeOfBirth), ("address", personal.address),
            ("otherValidTravelDocumentNumbers", personal.otherValidTravelDocumentNumbers),
        ]
        for (key, value) in personalLists { #expect(Self.same(value, personalJSON[key]), "\(key)") }

        let document = try AdditionalDocumentDetails(
            AdditionalDocumentDetails(
                issuingAuthorityText: "UTOPIA<PASSPORT<<OFFICE",
                dateOfIssueRecord: LDSDate(value: "19890624", encoding: .bcd),
                otherPersonDetailsText: ["ERIKSSON<<LARS", "ERIKSSON<<EVA<MARIA"],
                endorsementsOrObservationsText: "SPECIMEN<NOT<VALID", taxOrExitRequirementsText: "NONE<<DUE",
                dateAndTimeOfPersonalization: LDSDate(value: "19890601120000", encoding: .text),
                personalizationDeviceSerialNumberText: "EMRTD<SIM<1"
            ).encoded())
        let documentJSON = try Self.members(document.json.serialized())
        #expect(document.issuingAuthority == "UTOPIA PASSPORT OFFICE" && document.taxOrExitRequirements == "NONE DUE")
        let documentTexts: [(String, String?)] = [
            ("issuingAuthority", document.issuingAuthority), ("dateOfIssue", document.dateOfIssue),
            ("endorsementsOrObservations", document.endorsementsOrObservations),
            ("taxOrExitRequirements", document.taxOrExitRequirements),
            ("personalizationTime", document.personalizationTime),
            ("personalizationDeviceSerialNumber", document.personalizationDeviceSerialNumber),
        ]
        for (key, value) in documentTexts { #expect(Self.same(value, documentJSON[key]), "\(key)") }
        #expect(Self.same(document.otherPersonDetails, documentJSON["otherPersonDetails"]))

        let persons = try PersonsToNotify(
            PersonsToNotify.encoded(persons: [
                PersonToNotify(
                    dateDataRecorded: LDSDate(value: "20020101", encoding: .text), nameText: "SMITH<<CHARLES<R",
                    telephoneText: "1<612<555<1212", addressText: "49 REDWOOD LN<OCEAN BREEZE<CA<94000"),
                PersonToNotify(nameText: "BROWN<<MARY<J"),
            ]))
        let personsJSON = try #require(try Self.members(persons.json.serialized())["persons"] as? [[String: Any]])
        #expect(persons.persons.count == 2 && personsJSON.count == 2)
        #expect(persons.persons[0].name == "SMITH CHARLES R" && persons.persons[0].telephone == "1 612 555 1212")
        #expect(persons.persons[0].address == "49 REDWOOD LN OCEAN BREEZE CA 94000")
        for (person, json) in zip(persons.persons, personsJSON) {
            let texts: [(String, String?)] = [
                ("dateRecorded", person.dateRecorded), ("name", person.name), ("telephone", person.telephone),
                ("address", person.address),
            ]
            for (key, value) in texts { #expect(Self.same(value, json[key]), "\(key)") }
        }
    }

    /// The members of a JSON object, read back by Foundation (only `Emrtd` is importable here).
    static func members(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Whether a Swift value is what the JSON member holds: the string, or null for nil.
    static func same(_ value: String?, _ member: Any?) -> Bool {
        guard let value else { return member is NSNull }
        return member as? String == value
    }

    /// Whether a list is what the JSON member holds: the strings in order, or null for nil.
    static func same(_ value: [String]?, _ member: Any?) -> Bool {
        guard let value else { return member is NSNull }
        return member as? [String] == value
    }

    /// DG13 (no writer: issuer-defined): the top-level objects, a constructed one not descended into.
    @Test func optionalDetails() throws {
        let bytes = Self.bytes("6D10 5F0E044A4F484E 80020102 A1038101FF")
        let details = try OptionalDetails(bytes)
        #expect(details.content == Data(bytes.dropFirst(2)))
        #expect(details.fields.map(\.tag) == [0x5F0E, 0x80, 0xA1])
        #expect(details.fields.map(\.value) == [Data("JOHN".utf8), Data([1, 2]), Data([0x81, 0x01, 0xFF])])
        #expect(try OptionalDetails(Self.bytes("6D03 FFFFFF")).fields.isEmpty)
    }

    @Test func personsToNotify() throws {
        let bytes = PersonsToNotify.encoded(persons: [
            PersonToNotify(
                dateDataRecorded: LDSDate(value: "20240101", encoding: .text), nameText: "ERIKSSON LARS",
                telephoneText: "+00 555 0101", addressText: "17 EXAMPLE STREET"),
            PersonToNotify(nameText: "OTHER"),
        ])
        let persons = try PersonsToNotify(bytes).persons
        #expect(persons.count == 2)
        #expect(persons[0].dateRecorded == "20240101" && persons[0].name == "ERIKSSON LARS")
        #expect(persons[0].telephone == "+00 555 0101" && persons[0].address == "17 EXAMPLE STREET")
        #expect(persons[1].dateRecorded == nil && persons[1].telephone == nil)
    }

    /// DG14 by hand: a PACEInfo (ECDH GM, AES-128, parameter 13), a ChipAuthenticationInfo (key 1)
    /// and its ChipAuthenticationPublicKeyInfo (brainpoolP256r1 by its standardized ID).
    @Test func securityOptions() throws {
        let dataGroup14 = Self.bytes(
            """
            6E818F31818C
              3012 060A04007F00070202040202 020102 02010D
              3012 060A04007F00070202030202 020101 020101
              3062 060904007F000702020102
                3052 300C 060704007F00070102 02010D
                     034200 046B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
                            4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5
                020101
            """)
        let infos = try SecurityOptions(dataGroup14, kind: .dg14).securityInfos
        #expect(
            infos.map(\.`protocol`) == ["0.4.0.127.0.7.2.2.4.2.2", "0.4.0.127.0.7.2.2.3.2.2", "0.4.0.127.0.7.2.2.1.2"])
        #expect(infos.map(\.name) == ["id-PACE-ECDH-GM-AES-CBC-CMAC-128", "id-CA-ECDH-AES-CBC-CMAC-128", "id-PK-ECDH"])
        #expect(infos.map(\.version) == [2, 1, nil])
        #expect(infos.map(\.keyId) == [nil, 1, 1])
        #expect(infos.map(\.parameterId) == [13, nil, nil])
        guard case .chipAuthenticationPublicKey(let key) = infos[2] else {
            Issue.record("not a ChipAuthenticationPublicKeyInfo: \(infos[2])")
            return
        }
        #expect(key.publicKey.algorithm == "EC" && key.publicKey.keySize == 256)
        #expect(key.publicKey.curve == "brainpoolP256r1")
    }

    /// DG15 by hand: a P-256 key (the curve's generator as the point).
    @Test func activeAuthenticationPublicKey() throws {
        let info = Self.bytes(
            """
            3059 3013 06072A8648CE3D0201 06082A8648CE3D030107
                 034200 046B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
                        4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5
            """)
        let key = try ActiveAuthenticationPublicKey([0x6F, UInt8(info.count)] + info).publicKey
        #expect(key.algorithm == "EC")
        #expect(key.keySize == 256)
        #expect(key.curve == "secp256r1")
        #expect(key.der == Data(info))
    }

    /// Hex digits to bytes, whitespace ignored (test vectors only: a malformed pair is a test bug).
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }
}
