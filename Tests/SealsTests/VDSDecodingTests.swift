import ASN1
import Foundation
import Seals
import Testing

/// The bytes of a vector written as wrapped hexadecimal.
func sealBytes(_ hex: String) -> [UInt8] {
    Hex.decode(hex.filter { !$0.isWhitespace }) ?? []
}

func vds(_ hex: String) throws -> VisibleDigitalSeal { try VisibleDigitalSeal(bytes: sealBytes(hex)) }

func text(_ seal: VisibleDigitalSeal, _ name: String) -> String? {
    guard case .text(let value)? = seal.feature(named: name)?.value else { return nil }
    return value
}

func lines(_ seal: VisibleDigitalSeal, _ name: String) -> [String]? {
    guard case .mrz(let value)? = seal.feature(named: name)?.value else { return nil }
    return value
}

/// The VDS worked examples decode to the fields their sources assert (manifest.json's
/// `expected.fields`), and the header to what the independent verifier read.
struct VDSDecodingTests {
    @Test func residencePermitV4Header() throws {
        let seal = try vds(SealVectors.vdsResidencePermitUTTS5B)
        #expect(seal.header.version == 4)
        #expect(seal.header.issuingCountry == "UTO")
        #expect(seal.header.signerIdentifier == "UTTS")
        #expect(seal.header.certificateReference == "5B")
        #expect(seal.header.issuingDate.isoDay == "2020-01-01")
        #expect(seal.header.signatureDate.isoDay == "2023-07-26")
        #expect(seal.documentTypeName == "RESIDENCE_PERMIT")
        #expect(lines(seal, "MRZ") == ["ATD<<RESIDORCE<<ROLAND<<<<<<<<<<<<<<", "6525845096USA7008038M2201018<<<<<<06"])
        #expect(text(seal, "PASSPORT_NUMBER") == "UFO001979")
        #expect(seal.signature?.count == 64)
        #expect(seal.signedBytes.count == 76)
    }

    @Test func visaMRVBAndDuration() throws {
        let seal = try vds(SealVectors.vdsVisaDETS32Bp224)
        #expect(seal.documentTypeName == "VISA")
        #expect(seal.header.signerIdentifier + seal.header.certificateReference.drop { $0 == "0" } == "DETS32")
        #expect(lines(seal, "MRZ_MRVB") == ["VCD<<DENT<<ARTHUR<PHILIP<<<<<<<<<<<<", "1234567XY7GBR5203116M2005250"])
        #expect(text(seal, "PASSPORT_NUMBER") == "47110815P")
        #expect(seal.feature(named: "DURATION_OF_STAY")?.value == .duration(days: 0xA0, months: 0, years: 0))
        #expect(seal.feature(named: "NUMBER_OF_ENTRIES") == nil)
        #expect(seal.signature?.count == 56)
    }

    @Test func arrivalAttestationV3Header() throws {
        let seal = try vds(SealVectors.vdsArrivalAttestationDETS27)
        #expect(seal.header.version == 3)
        #expect(seal.header.issuingCountry == "D  ")
        #expect(seal.header.certificateReference == "00027")
        #expect(seal.header.signatureDate.isoDay == "2020-01-13")
        #expect(seal.documentTypeName == "ARRIVAL_ATTESTATION")
        #expect(lines(seal, "MRZ") == ["MED<<MUSTERMANN<<ERIK<<<<<<<<<<<<<<<", "M0000000<4ALB0308212M1604128<<<<<<<2"])
        #expect(text(seal, "AZR") == "160113000085")
    }

    @Test func socialInsuranceUTF8Names() throws {
        let seal = try vds(SealVectors.vdsSocialInsuranceDETS27)
        #expect(seal.documentTypeName == "SOCIAL_INSURANCE_CARD")
        #expect(text(seal, "SOCIAL_INSURANCE_NUMBER") == "65170839J003")
        #expect(text(seal, "SURNAME") == "Perschweiß")
        #expect(text(seal, "FIRST_NAME") == "Oscar")
        #expect(text(seal, "BIRTH_NAME") == "Jâcobénidicturius")
        #expect(seal.header.issuingDate.isoDay == "2020-01-01")
    }

    @Test func addressStickerAndEmergencyTravelDocument() throws {
        let sticker = try vds(SealVectors.vdsAddressStickerIdDETS32)
        #expect(sticker.documentTypeName == "ADDRESS_STICKER_ID")
        #expect(text(sticker, "DOCUMENT_NUMBER") == "T2000AK47")
        #expect(text(sticker, "AGS") == "05314000")
        #expect(text(sticker, "ADDRESS") == "53175HEINEMANNSTR11")
        let etd = try vds(SealVectors.vdsEmergencyTravelDocumentUTTS5B)
        #expect(etd.documentTypeName == "EMERGENCY_TRAVEL_DOCUMENT")
        #expect(etd.features.count == 1)
        #expect(etd.signedBytes.count == 68)
        #expect(etd.machineReadableZoneLines?.first == "I<GBRSUPAMANN<<MARY<<<<<<<<<<<<<<<<<")
    }

    @Test func fictionCertificateWithFaceImage() throws {
        let seal = try vds(SealVectors.vdsFictionCertUTTS5B)
        #expect(seal.documentTypeName == "FICTION_CERT")
        #expect(seal.features.count == 4)
        #expect(lines(seal, "MRZ") == ["NFD<<MUSTERMANN<<CLEOPATRE<<<<<<<<<<", "L000000007TUR8308126F2701312T2611011"])
        #expect(text(seal, "PASSPORT_NUMBER") == "X98723021")
        #expect(text(seal, "AZR") == "160113000085")
    }

    /// TR-03171's signer DEZV writes its certificate reference's length in decimal.
    @Test func meldebescheinigungProfile() throws {
        let seal = try vds(SealVectors.vdsTr03171MeldebescheinigungDEZV)
        #expect(seal.header.signerIdentifier == "DEZV")
        #expect(seal.header.certificateReference == "00112233445566778899AABBCCDDEEFF00112233")
        #expect(seal.header.documentReference == 0x01C8)
        #expect(seal.documentType?.name == "ADMINISTRATIVE_DOCUMENTS_V8")
        #expect(seal.documentTypeName == "MELDEBESCHEINIGUNG")
        #expect(text(seal, "SURNAME") == "Mustermann")
        #expect(text(seal, "ACADEMIC_DEGREE") == "Dr.")
        #expect(text(seal, "MOVING_DATE") == "20250414")
    }

    /// The edge cases the vectors' strict reading rejects: a certificate reference of length 00
    /// followed by two bytes, a 128-byte value with the length byte 80, DEZV with a hex length.
    @Test(arguments: [
        SealVectors.vdsEdgeAnkunftsnachweisCertrefLen00, SealVectors.vdsEdgeUtoVisaLen0x80,
        SealVectors.vdsEdgeDezvHexCertrefLenTr03171Rule,
    ])
    func edgeCasesRefused(_ hex: String) {
        #expect(throws: SealError.self) { try vds(hex) }
    }

    /// Every prefix of a seal is refused with a typed error, never a trap; the three that end at a
    /// feature's end (the header alone, with the MRZ, with both features) read as unsigned seals.
    @Test func truncationsRefused() {
        let bytes = sealBytes(SealVectors.vdsResidencePermitUTTS5B)
        for length in 0..<bytes.count - 1 {
            do {
                let seal = try VisibleDigitalSeal(bytes: bytes[..<length])
                #expect(seal.signature == nil && [18, 68, 76].contains(length))
            } catch {
                #expect(error.code == .malformed)
            }
        }
    }

    /// A barcode reader's output: bytes, hexadecimal text, base256 as ISO 8859-1 in UTF-8.
    @Test func barcodeForms() throws {
        let bytes = sealBytes(SealVectors.vdsResidencePermitUTTS5B)
        let expected = try VisibleDigitalSeal(bytes: bytes)
        let forms: [[UInt8]] = [
            bytes, Array((Hex.encode(bytes) + "\n").utf8),
            Array(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })).utf8),
        ]
        for form in forms { #expect(try Seal(barcode: form) == .vds(expected)) }
    }

    /// Hexadecimal seal text saved by an editor with a UTF-8 byte order mark is the same seal.
    @Test func aByteOrderMarkBeforeHexTextIsIgnored() throws {
        let hex = SealVectors.vdsResidencePermitUTTS5B.filter { !$0.isWhitespace }
        let plain = try Seal(barcode: Array(hex.utf8))
        #expect(try Seal(barcode: [0xEF, 0xBB, 0xBF] + Array((hex + "\n").utf8)) == plain)
    }
}
