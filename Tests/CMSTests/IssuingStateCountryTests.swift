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
