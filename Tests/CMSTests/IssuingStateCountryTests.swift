import ChipSimulator
import Foundation
import Testing

@testable import CMS

/// The CSCA's country against DG1's issuing state: ISO 3166 pairs and the ICAO exceptions.
@Suite struct IssuingStateCountryTests {
    @Test(arguments: [
        ("DE", "D"), ("DE", "D<<"), ("DE", "DEU"), ("FR", "FRA"), ("GB", "GBR"), ("GB", "GBD"), ("UN", "UNO"),
        ("ZZ", "UNK"), ("EU", "EUE"), ("XK", "RKS"), ("UT", "UTO"), ("de", "deu"),
    ])
    func matching(country: String, state: String) {
        #expect(IssuingStateCountry.matches(cscaCountry: country, issuingState: state) == true)
    }

    @Test func aMismatchAndAnUnknownState() {
        #expect(IssuingStateCountry.matches(cscaCountry: "FR", issuingState: "D") == false)
        #expect(IssuingStateCountry.matches(cscaCountry: "AT", issuingState: "AUS") == false)
        #expect(IssuingStateCountry.matches(cscaCountry: "DE", issuingState: "XYZ") == nil)
    }
}

/// The cross-check on documents: the simulator's specimen (CSCA C=UT, DG1 UTO) and every real
/// EF.SOD of `../shared/data/gmrtd/sod_samples` under its own CSCA, with the issuing state its
/// DG1 would hold, still chain; another state's code is denied.
@Suite struct CountryCrossCheckTests {
    @Test func theSpecimenAuthenticatesAsUtopiaAndIsDeniedAsGermany() throws {
        let time = Date(timeIntervalSince1970: 1_780_000_000)
        let specimen = try Specimen.generate(at: time, credentials: Credentials())
        let store = TrustStore([try Certificate(derEncoded: specimen.countrySigningCertificate)])
        let groups = Dictionary(
            uniqueKeysWithValues: (1...16).compactMap { n in specimen.files[dataGroup: n].map { (n, $0) } })
        // DG1 is written from these lines: the issuing state is the first line's characters 3–5.
        let zone = String(Specimen.machineReadableZoneLines[0].dropFirst(2).prefix(3))
        #expect(zone == "UTO")
        let genuine = PassiveAuthentication.verify(
            securityObject: specimen.files.sod ?? [], dataGroups: groups, trustStore: store, at: time,
            issuingState: zone)
        #expect(genuine.status == .authenticated && genuine.failures.isEmpty)
        let claimed = PassiveAuthentication.verify(
            securityObject: specimen.files.sod ?? [], dataGroups: groups, trustStore: store, at: time,
            issuingState: "D<<")
        #expect(claimed.status == .denied)
        #expect(claimed.failures == [.countryMismatch(cscaCountry: "UT", issuingState: "D<<")])
    }

    /// The three-letter code each sample's DG1 holds (Germany's is `D`).
    static let states = [
        "AT": "AUT", "AU": "AUS", "CN": "CHN", "DE": "D", "FI": "FIN", "FR": "FRA", "MY": "MYS", "NZ": "NZL",
        "PH": "PHL", "RU": "RUS", "SG": "SGP", "UK": "GBR", "US": "USA",
    ]

    @Test(arguments: states.keys.sorted())
    func aRealDocumentStillChainsWithItsIssuingState(country: String) throws {
        guard let folder = TestFiles.shared("gmrtd/sod_samples"), let state = Self.states[country] else { return }
        let store = TrustStore([
            try Certificate(derEncoded: TestFiles.bytes(folder.appendingPathComponent("\(country)_CSCA.der")))
        ])
        let sod = try TestFiles.bytes(folder.appendingPathComponent("\(country)_EF_SOD.bin"))
        let time = TestFiles.date("2026-06-01")
        let verdict = PassiveAuthentication.verify(
            securityObject: sod, dataGroups: [:], trustStore: store, at: time, issuingState: state)
        #expect(verdict.certificateChainValid)
        #expect(!verdict.failures.contains { $0.code == "countryMismatch" }, "\(verdict.failures)")
        // Another state's code for the same document is denied with the reason.
        let other = PassiveAuthentication.verify(
            securityObject: sod, dataGroups: [:], trustStore: store, at: time,
            issuingState: state == "FRA" ? "ITA" : "FRA")
        #expect(other.failures.contains { $0.code == "countryMismatch" })
    }
}
