import CMS
import Foundation
import Seals
import Testing

func idb(_ text: String) throws -> Seal { try Seal(barcode: Array(text.filter { !$0.isWhitespace }.utf8)) }

func idbFeature(_ seal: Seal, _ name: String) -> SealFeature.Value? {
    guard case .idb(let barcode) = seal else { return nil }
    return barcode.features.first { $0.name == name }?.value
}

/// The ICAO Datastructure for Barcode: Base32 text, the 12-byte signed header, the message group
/// typed, the signer named by its SHA-1's last five bytes (UTTS5B, whose CA is unpublished).
struct IDBTests {
    @Test func visaNestsTheVDSVisaCodings() throws {
        let seal = try idb(SealVectors.idbVisa)
        guard case .idb(let barcode) = seal else {
            Issue.record("not an IDB")
            return
        }
        #expect(barcode.issuingCountry == "D  ")
        #expect(barcode.signatureAlgorithm == 1)
        #expect(barcode.certificateReference == [0xA5, 0x7A, 0x79, 0x05, 0x77])
        #expect(barcode.signatureDate == "2026-03-24")
        #expect(barcode.features.count == 1)
        guard case .features(let visa)? = idbFeature(seal, "VISA") else {
            Issue.record("no nested visa")
            return
        }
        #expect(visa.count == 4)
        // vdstools and the manifest show the second line's first 28 characters; this one is whole.
        let lines = seal.machineReadableZoneLines ?? []
        #expect(lines.first == "P<D<<GARCIA<<EVELYN<<<<<<<<<<<<<<<<<<<<<<<<<")
        #expect(lines.last?.hasPrefix("B870L41688D<<8108108F3507050") == true && lines.last?.count == 44)
    }

    @Test func supplementarySheetTD1AndNumbers() throws {
        let seal = try idb(SealVectors.idbSupplementarySheet)
        #expect(
            seal.machineReadableZoneLines == [
                "AZD<<5W1ETCGE25<<<<<<<<<<<<<<<", "8703123F2908258CHL<<<<<<<<<<<4", "BORIC<<BRYAN<<<<<<<<<<<<<<<<<<",
            ])
        #expect(idbFeature(seal, "DOCUMENT_REFERENCE") == .text("5W1ETCGE2"))
        #expect(seal.documentNumber == "ABCDEFGHI")
        #expect(idbFeature(seal, "NATIONAL_DOCUMENT_IDENTIFIER") == .integer(18))
    }

    @Test func signatureByCertificateReference() throws {
        let store = TrustStore([try certificate(SealVectors.certificateUTTS5B)])
        let valid = try idb(SealVectors.idbProvisionalResidence).verify(trustStore: store, at: checkTime)
        #expect(valid.signatureValid, "\(valid.errors)")
        // The sample's IDB header says D (Germany), its signer is of UT: denied for the country.
        #expect(valid.status == .denied, "\(valid.errors)")
        #expect(valid.errors.contains(.issuingCountryMismatch(issuingCountry: "D", signer: "UT")))
        #expect(idbFeature(try idb(SealVectors.idbProvisionalResidence), "AZR") == .text("ABC123456DEF"))
        let tampered = try idb(SealVectors.idbProvisionalResidenceTampered).verify(trustStore: store, at: checkTime)
        #expect(tampered.status == .denied)
        let unknown = try idb(SealVectors.idbProvisionalResidence).verify(
            trustStore: TrustStore([try certificate(SealVectors.certificateDETS27)]), at: checkTime)
        #expect(unknown.errors.map(\.code) == ["signerCertificateNotFound"])
    }

    @Test func malformedRefused() {
        for text in ["RDB1", "RDB1Z", "RDB1B1", "RDB1BAAAA", "XDB1BAAAA", "RDB1D" + String(repeating: "A", count: 40)] {
            #expect(throws: SealError.self, "\(text)") { try idb(text) }
        }
    }
}
