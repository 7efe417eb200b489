import ASN1
import Foundation
import Testing

@testable import LDS

/// Files written by the package's writers parse back to what was written.
struct WriterTests {
    @Test func additionalPersonalDetailsRoundTripWithNonASCIINames() throws {
        let written = AdditionalPersonalDetails(
            fullNameText: "MÜLLER-LÜDENSCHEIDT<<JÜRGEN<ÆSØ",
            otherNamesText: ["Ωμέγα Δοκιμή", "Łukasz Żółć", "山田<<太郎"], personalNumberText: "",
            fullDateOfBirthRecord: LDSDate(value: "19700229", encoding: .bcd), placeOfBirthText: "SÃO PAULO<BRASIL",
            addressText: "Straße 1<Köln", telephoneText: "+49 221 000", professionText: "INGÉNIEUR", titleText: "Dr.",
            personalSummaryText: "Ça va", proofOfCitizenship: nil,
            otherValidTravelDocumentNumbersText: "C01X00T47<C01X00T48", custodyInformationText: "<<<")
        let bytes = written.encoded()
        let parsed = try AdditionalPersonalDetails(bytes)
        #expect(parsed.rawBytes == bytes)
        #expect(parsed.fullNameText == written.fullNameText)
        #expect(parsed.otherNamesText == written.otherNamesText)
        #expect(parsed.otherNames == ["Ωμέγα Δοκιμή", "Łukasz Żółć", "山田 太郎"])
        #expect(parsed.personalNumberText == "" && parsed.personalNumber == "")
        #expect(parsed.fullDateOfBirthRecord == written.fullDateOfBirthRecord)
        #expect(parsed.placeOfBirthText == written.placeOfBirthText)
        #expect(parsed.addressText == written.addressText)
        #expect(parsed.professionText == written.professionText && parsed.titleText == written.titleText)
        #expect(parsed.personalSummaryText == written.personalSummaryText)
        #expect(parsed.otherValidTravelDocumentNumbersText == written.otherValidTravelDocumentNumbersText)
        #expect(parsed.custodyInformationText == "<<<" && parsed.custodyInformation == "")
        #expect(parsed.proofOfCitizenship == nil && parsed.telephoneText == written.telephoneText)
        #expect(
            parsed.tagList == [
                0x5F0E, 0xA0, 0x5F10, 0x5F2B, 0x5F11, 0x5F42, 0x5F12, 0x5F13, 0x5F14, 0x5F15, 0x5F17, 0x5F18,
            ])
        #expect(parsed.warnings.isEmpty)
        // Re-encoding what was parsed gives the same bytes.
        #expect(parsed.encoded() == bytes)
    }

    @Test func additionalDocumentDetailsRoundTripWithNonASCIINames() throws {
        let front = DocumentImage(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0xFF, 0xD9])
        let written = AdditionalDocumentDetails(
            issuingAuthorityText: "Préfecture de Police — Île-de-France",
            dateOfIssueRecord: LDSDate(value: "20240131", encoding: .text),
            otherPersonDetailsText: ["ÅSA<<ÖBERG", "Ñandú<<José"],
            endorsementsOrObservationsText: "Gültig für alle Länder", taxOrExitRequirementsText: "Ø",
            imageOfFront: front, imageOfRear: nil,
            dateAndTimeOfPersonalization: LDSDate(value: "20240131235959", encoding: .bcd),
            personalizationDeviceSerialNumberText: "Σ-42")
        let bytes = written.encoded()
        let parsed = try AdditionalDocumentDetails(bytes)
        #expect(parsed.issuingAuthorityText == written.issuingAuthorityText)
        #expect(parsed.dateOfIssueRecord == written.dateOfIssueRecord)
        #expect(parsed.otherPersonDetailsText == written.otherPersonDetailsText)
        #expect(parsed.otherPersonDetails == ["ÅSA ÖBERG", "Ñandú José"])
        #expect(parsed.endorsementsOrObservationsText == written.endorsementsOrObservationsText)
        // 5F1C (tax or exit requirements) is not confused with 5C (the tag list).
        #expect(parsed.taxOrExitRequirements == "Ø")
        #expect(parsed.imageOfFront?.bytes == front.bytes && parsed.imageOfFront?.format == .jpeg)
        #expect(parsed.imageOfRear == nil)
        #expect(parsed.dateAndTimeOfPersonalization == written.dateAndTimeOfPersonalization)
        #expect(parsed.personalizationDeviceSerialNumberText == "Σ-42")
        #expect(parsed.encoded() == bytes)
        // BCD is written as packed digits.
        #expect(bytes.windowsContaining([0x5F, 0x55, 0x07, 0x20, 0x24, 0x01, 0x31, 0x23, 0x59, 0x59]))
    }

    @Test func commonFileAndDataGroup1() throws {
        let com = try CommonFile(CommonFile.encoded(dataGroups: [.dg1, .dg2, .dg11, .dg14, .dg15]))
        #expect(com.ldsVersion == "0108" && com.unicodeVersion == "040000")
        #expect(com.dataGroups == [.dg1, .dg2, .dg11, .dg14, .dg15])
        let lines = [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
            "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ]
        let dg1 = try MRZDataGroup(MRZDataGroup.encoded(mrzLines: lines))
        #expect(dg1.machineReadableZone.lines == lines)
        #expect(dg1.machineReadableZone.td3?.documentNumber.value == "L898902C3")
    }

    @Test func malformedTagListsAreTolerated() throws {
        // A tag list naming a non-data-group tag and a multi-byte tag, and a COM without a list.
        let odd = try CommonFile(
            DER.constructed(
                ASN1Tag(0x60),
                [DER.tlv(ASN1Tag(0x5F01), Array("0107".utf8)), DER.tlv(ASN1Tag(0x5C), [0x61, 0x99, 0x5F, 0x1F, 0x75])]))
        #expect(odd.tagList == [0x61, 0x99, 0x5F1F, 0x75])
        #expect(odd.dataGroups == [.dg1, .dg2])
        #expect(odd.warnings.count == 2)
        let bare = try CommonFile(DER.constructed(ASN1Tag(0x60), [DER.tlv(ASN1Tag(0x5F01), Array("0107".utf8))]))
        #expect(bare.dataGroups.isEmpty && bare.unicodeVersion == nil)
        #expect(bare.warnings == ["EF.COM has no tag list (5C)"])
    }

    @Test func faceDataGroupWrapsAnImage() throws {
        let jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x20, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9,
        ]
        let group = try EncodedIdentificationFeaturesFace(
            EncodedIdentificationFeaturesFace.encodedFace(image: jpeg, width: 16, height: 32))
        #expect(group.warnings.isEmpty)
        let record = try #require(group.records.first?.dataBlock)
        #expect(record.standard == .iso19794Face && record.version == "010")
        let image = try #require(record.images.first)
        #expect(image.image.bytes == Data(jpeg) && image.image.format == .jpeg)
        #expect(image.face?.width == 16 && image.face?.height == 32 && image.face?.imageDataType == 0)
        #expect(image.image.size == ImageSize(width: 16, height: 32))
        #expect(group.records.first?.header.formatType == 0x0008)
    }

    @Test func datesAsTextOrBCD() {
        #expect(LDSDate([0x19, 0x70, 0x01, 0x01]) == LDSDate(value: "19700101", encoding: .bcd))
        #expect(LDSDate(Array("1970<<<<".utf8)) == LDSDate(value: "1970<<<<", encoding: .text))
        #expect(LDSDate(Array("01.02.1970".utf8)).encoding == .text)
        #expect(LDSDate([0x20, 0x24, 0x12, 0x31, 0x23, 0x59, 0x59]).value == "20241231235959")
        #expect(LDSDate(value: "20241231235959", encoding: .bcd).encoded == [0x20, 0x24, 0x12, 0x31, 0x23, 0x59, 0x59])
        #expect(LDSDate([]) == LDSDate(value: "", encoding: .text))
    }

    @Test func personsToNotify() throws {
        let persons = [
            PersonToNotify(
                dateDataRecorded: LDSDate(value: "20240101", encoding: .text), nameText: "ERIKSSON<<LARS",
                telephoneText: "+00 555 0101", addressText: "17 EXAMPLE STREET<UTOPIA"),
            PersonToNotify(nameText: "ÖSTERGÅRD<<MÄRTA"),
        ]
        let parsed = try PersonsToNotify(PersonsToNotify.encoded(persons: persons))
        #expect(parsed.persons == persons)
        #expect(parsed.warnings.isEmpty)
    }

    @Test func displayedImages() throws {
        let images: [[UInt8]] = [[0xFF, 0xD8, 0xFF, 0xD9], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]]
        let portrait = try DisplayedPortrait(
            DisplayedPortrait.encoded(images: images))
        #expect(portrait.images.map(\.bytes) == images.map { Data($0) })
        #expect(portrait.images.map(\.format) == [.jpeg, .png])
        let signature = try DisplayedSignatureOrUsualMark(
            DisplayedSignatureOrUsualMark.encoded(images: images))
        #expect(signature.images.count == 2 && signature.rawBytes.first == 0x67)
    }
}

extension Array where Element == UInt8 {
    func windowsContaining(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
