import CMS
import ChipSimulator
import Foundation
import Seals
import Testing

/// Seals of every document type this package knows, made by the simulator's test PKI and its own
/// seal writer (`SealSpecimen`), read back feature for feature and authenticated; any bit changed
/// is never authenticated.
struct SealSpecimenTests {
    static let twoLines = "MED<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<6525845096USA7008038M2201018<<<<<<06"

    /// A value for `feature` and what the reader must make of it.
    static func sample(_ feature: SealDocumentType.Feature) -> (SealSpecimen.Value, SealFeature.Value) {
        switch feature.coding {
        case .mrz:
            return (.c40(twoLines), .mrz([String(twoLines.prefix(36)), String(twoLines.dropFirst(36))]))
        case .visaMRZ(let lineLength):
            let first = "VCD<<DENT<<ARTHUR<PHILIP" + String(repeating: "<", count: lineLength - 24)
            let second = "1234567XY7GBR5203116M2005250"
            return (.c40(first + second), .mrz([first, second]))
        case .c40: return (.c40("AB12345C"), .text("AB12345C"))
        case .utf8: return (.utf8("Jâcob Müller"), .text("Jâcob Müller"))
        case .byte: return (.bytes([7]), .integer(7))
        case .duration: return (.bytes([30, 2, 1]), .duration(days: 30, months: 2, years: 1))
        case .bytes: return (.bytes([1, 2, 3, 250]), .bytes([1, 2, 3, 250]))
        // 04232026 with the day unknown (mask bits 2 and 3: the DD digits).
        case .maskedDate: return (.bytes([0x30, 0x40, 0x93, 0x5A]), .text("2026-04-xx"))
        case .nested: return (.bytes([]), .features([]))
        }
    }

    @Test(arguments: SealDocumentType.known)
    func everyDocumentType(_ type: SealDocumentType) throws {
        let samples = type.features.map { ($0, Self.sample($0)) }
        let made = try SealSpecimen.make(reference: type.reference, features: samples.map { ($0.0.tag, $0.1.0) })
        let seal = try VisibleDigitalSeal(bytes: made.seal)
        #expect(seal.documentType == type)
        #expect(seal.features.map(\.name) == type.features.map(\.name))
        #expect(seal.features.map(\.value) == samples.map(\.1.1))
        let store = TrustStore([
            try Certificate(derEncoded: made.countrySigningCertificate),
            try Certificate(derEncoded: made.signerCertificate),
        ])
        let verdict = Seal.vds(seal).verify(trustStore: store, at: Date())
        #expect(verdict.status == .authenticated, "\(type.name): \(verdict.errors)")
        for index in stride(from: 0, to: made.seal.count, by: 5) {
            var flipped = made.seal
            flipped[index] ^= 0x10
            guard let changed = try? Seal(barcode: flipped) else { continue }
            #expect(
                changed.verify(trustStore: store, at: Date()).status != .authenticated, "\(type.name) byte \(index)")
        }
    }

    /// The signer alone: its signature verifies, but no trusted CSCA vouches for it.
    @Test func signerWithoutItsCSCA() throws {
        let made = try SealSpecimen.make(reference: 0x5E03, features: [(2, .c40(Self.twoLines))])
        let store = TrustStore([try Certificate(derEncoded: made.signerCertificate)])
        let verdict = try Seal(barcode: made.seal).verify(trustStore: store, at: Date())
        #expect(verdict.status == .authorityCertificatesNotProvided)
        #expect(verdict.signatureValid)
    }

    /// The VDS header's issuing country against the signer certificate's (C=UT) by the table the
    /// document check uses (`IssuingStateCountry`): `UTO` (ICAO's own code) is UT's; `FRA` and
    /// Germany's `D` (padded `D  ` in the header) are not, so those seals are denied with both codes
    /// named, though their signatures verify and their chains hold — with or without the CSCA.
    @Test(arguments: [("UTO", nil), ("FRA", "FRA"), ("D", "D"), ("DEU", "DEU")] as [(String, String?)])
    func issuingCountryAgainstTheSigner(_ country: String, _ mismatch: String?) throws {
        let made = try SealSpecimen.make(
            reference: 0x5E03, features: [(2, .c40(Self.twoLines))],
            issuingCountry: country.padding(
                toLength: 3, withPad: " ", startingAt: 0))
        let signer = try Certificate(derEncoded: made.signerCertificate)
        let chained = TrustStore([try Certificate(derEncoded: made.countrySigningCertificate), signer])
        for store in [chained, TrustStore([signer])] {
            let verdict = try Seal(barcode: made.seal).verify(trustStore: store, at: Date())
            #expect(verdict.signatureValid, "\(verdict.errors)")
            if let mismatch {
                #expect(verdict.status == .denied)
                #expect(verdict.errors.contains(.issuingCountryMismatch(issuingCountry: mismatch, signer: "UT")))
                #expect(verdict.certificateChainValid == (store.certificates.count == 2))
            } else {
                #expect(!verdict.errors.map(\.code).contains("issuingCountryMismatch"))
                #expect(
                    verdict.status
                        == (store.certificates.count == 2 ? .authenticated : .authorityCertificatesNotProvided))
            }
        }
    }
}
