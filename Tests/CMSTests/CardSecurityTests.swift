import Foundation
import Testing

@testable import CMS

/// EF.CardSecurity is a SignedData like EF.SOD: `SignerVerification` checks it the same way.
@Suite struct CardSecurityTests {
    /// Real German and Finnish cards, signed by the same DSCs as their passports' SODs.
    @Test(arguments: [("DE", "brainpoolP384r1"), ("FI", "brainpoolP512r1")])
    func realCards(country: String, curve: String) throws {
        guard let file = TestFiles.shared("gmrtd/cardsecurity/\(country)_EF_CardSecurity.bin"),
            let csca = TestFiles.shared("gmrtd/sod_samples/\(country)_CSCA.der")
        else { return }
        let signedData = try SignedData(contentInfo: TestFiles.bytes(file))
        #expect(signedData.contentType.dotted == "0.4.0.127.0.7.3.2.1")
        let store = TrustStore([try Certificate(derEncoded: TestFiles.bytes(csca))])
        let result = SignerVerification(signedData, trustStore: store, at: TestFiles.date("2026-06-01"))
        #expect(result.signatureValid && result.chainValid, "\(result.problems)")
        #expect(result.documentSigner?.publicKey.sizeInBits == (country == "DE" ? 384 : 512), "\(curve)")
    }

    /// JMRTD's test card: no signed attributes (the signature covers the eContent) and a
    /// named-curve key; its CSCA is not public.
    @Test func withoutSignedAttributes() throws {
        guard let file = TestFiles.shared("jmrtd/efcardsecurity/efcardsecurity.dump") else { return }
        let signedData = try SignedData(contentInfo: TestFiles.bytes(file))
        let signer = try #require(signedData.signerInfos.first)
        #expect(signer.signedAttributes == nil)
        let result = SignerVerification(signedData, trustStore: TrustStore(), at: TestFiles.date("2016-03-20"))
        #expect(result.signatureValid)
        #expect(result.issuerMissing && !result.chainValid)
        guard let curve = result.documentSigner?.publicKey.namedCurve else {
            Issue.record("expected a named-curve EC key")
            return
        }
        #expect(curve.dotted == "1.3.36.3.3.2.8.1.1.7")
    }
}
