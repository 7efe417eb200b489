import CMS
import JSON
import Seals
import Testing

/// VDS-NC's canonical form (RFC 8785) with numbers that are not integers, and its issuing state
/// held against the signer certificate's country.
struct VDSNCCanonicalTests {
    private func nonConstrained(_ text: String) throws -> VisibleDigitalSealNonConstrained {
        guard case .nonConstrained(let seal) = try seal(text) else { throw SealError(.malformed, "not a VDS-NC") }
        return seal
    }

    /// The numbers are signed in ECMAScript's form whatever their spelling in the barcode.
    @Test func numbersSignedInTheirCanonicalForm() throws {
        let seal = try nonConstrained(SealVectors.vdsncNumbersUTO)
        let canonical = String(decoding: seal.signedBytes, as: UTF8.self)
        #expect(
            canonical
                == #"{"hdr":{"is":"UTO","t":"icao.test","v":1},"msg":{"numbers":[1e+30,4.5,6,0.002,1e-27,0,"#
                + #"333333333.33333325,1424953923781206.2,9007199254740992],"pid":{"n":"Smith Bill"}}}"#)
        let store = TrustStore([try certificate(SealVectors.vdsncCSCAUT)])
        let verdict = Seal.nonConstrained(seal).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .authenticated, "\(verdict.errors)")
    }

    /// One number changed by the least step a double has is a different signed text: denied.
    @Test func aNumberOneULPAwayIsDenied() throws {
        let altered = SealVectors.vdsncNumbersUTO.replacingOccurrences(
            of: "333333333.33333325", with: "333333333.3333333")
        #expect(altered != SealVectors.vdsncNumbersUTO)
        let store = TrustStore([try certificate(SealVectors.vdsncCSCAUT)])
        let verdict = try seal(altered).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .denied)
        #expect(verdict.errors.map(\.code) == ["signatureInvalid"])
    }

    @Test func issuingStateOfAnotherCountryIsDenied() throws {
        let store = TrustStore([try certificate(SealVectors.vdsncCSCAUT)])
        let verdict = try seal(SealVectors.vdsncDEUSignedByUT).verify(trustStore: store, at: checkTime)
        #expect(verdict.signatureValid)
        #expect(verdict.certificateChainValid)
        #expect(verdict.status == .denied)
        #expect(verdict.errors == [.issuingCountryMismatch(issuingCountry: "DEU", signer: "UT")])
        #expect(verdict.errors.first?.description.contains("DEU") == true)
        // Without its CSCA the signer's country is still not the seal's: denied, not merely unproven.
        let alone = try seal(SealVectors.vdsncDEUSignedByUT).verify(trustStore: TrustStore(), at: checkTime)
        #expect(alone.status == .denied)
        #expect(alone.errors.map(\.code).contains("issuingCountryMismatch"))
    }

    /// ICAO's codes outside ISO 3166: `D` for Germany (alpha-2 DE), `UTO` for Utopia (UT).
    @Test func icaoExceptionsMatchTheirAlpha2() throws {
        let germany = try seal(SealVectors.vdsncDSignedByDE).verify(
            trustStore: TrustStore([try certificate(SealVectors.vdsncCSCADE)]), at: checkTime)
        #expect(germany.status == .authenticated, "\(germany.errors)")
        let utopia = try seal(SealVectors.vdsncNumbersUTO).verify(
            trustStore: TrustStore([try certificate(SealVectors.vdsncCSCAUT)]), at: checkTime)
        #expect(!utopia.errors.map(\.code).contains("issuingCountryMismatch"))
        #expect(utopia.status == .authenticated)
    }
}
