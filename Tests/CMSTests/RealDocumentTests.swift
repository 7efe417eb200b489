import Foundation
import Testing

@testable import CMS

/// The 15 real EF.SODs in `../shared/data/gmrtd/sod_samples`, each with its CSCA and the
/// data groups beside it. Expected algorithms come from SOURCES.md's independent
/// characterisation (asn1crypto + `cryptography` + hand-written ECDSA).
@Suite struct RealDocumentTests {
    struct Sample: Sendable, CustomStringConvertible {
        let country: String
        let hash: String
        let signature: String
        var csca: String? = nil
        /// A time inside the DSC's validity (UK2's DSC expired in 2022).
        var checkTime = "2026-06-01"
        var description: String { country }
    }

    static let samples: [Sample] = [
        Sample(country: "AT", hash: "SHA-256", signature: "SHA256withECDSA"),
        Sample(country: "AU", hash: "SHA-256", signature: "SHA256withRSA"),
        Sample(country: "CN", hash: "SHA-256", signature: "SHA256withRSA"),
        Sample(country: "DE", hash: "SHA-384", signature: "SHA384withECDSA"),
        Sample(country: "FI", hash: "SHA-512", signature: "SHA512withECDSA"),
        Sample(country: "FR", hash: "SHA-256", signature: "SHA256withRSA"),
        Sample(
            country: "ID", hash: "SHA-256", signature: "SHA256withRSAandMGF1",
            csca: "gmrtd/master_list/IDN_2010_SERIES_CSCA_CERT_2020-10_CSCA.cer"),
        Sample(country: "MY", hash: "SHA-256", signature: "SHA256withRSAandMGF1"),
        Sample(country: "NZ", hash: "SHA-256", signature: "SHA256withRSA"),
        Sample(country: "PH", hash: "SHA-256", signature: "SHA256withRSAandMGF1"),
        Sample(country: "RU", hash: "SHA-1", signature: "SHA1withECDSA"),
        Sample(country: "SG", hash: "SHA-256", signature: "SHA256withRSAandMGF1"),
        Sample(country: "UK", hash: "SHA-256", signature: "SHA256withECDSA"),
        Sample(country: "UK2", hash: "SHA-256", signature: "SHA256withRSAandMGF1", checkTime: "2020-01-01"),
        Sample(country: "US", hash: "SHA-256", signature: "SHA256withRSA"),
    ]

    @Test(arguments: samples)
    func authenticatesAgainstItsCSCA(sample: Sample) throws {
        guard let folder = TestFiles.shared("gmrtd/sod_samples") else { return }
        let cscaPath =
            sample.csca.map { TestFiles.sharedData.appendingPathComponent($0) }
            ?? folder.appendingPathComponent("\(sample.country)_CSCA.der")
        let store = TrustStore([try Certificate(derEncoded: TestFiles.bytes(cscaPath))])
        let groups = try TestFiles.dataGroups(in: folder) { "\(sample.country)_DG\($0).bin" }
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("\(sample.country)_EF_SOD.bin")),
            dataGroups: groups, trustStore: store, at: TestFiles.date(sample.checkTime))

        // No sample comes with DG1 and DG2: everything else verifies, and the verdict is denied
        // for that reason alone.
        #expect(verdict.status == .denied)
        #expect(verdict.failures == [.mandatoryDataGroupNotChecked(1), .mandatoryDataGroupNotChecked(2)])
        let allValid = verdict.sodSignatureValid && verdict.certificateChainValid && verdict.dataGroupHashesValid
        #expect(allValid)
        #expect(verdict.hashAlgorithm == sample.hash)
        #expect(verdict.signatureAlgorithm == sample.signature)
        for result in verdict.dataGroupHashes {
            #expect(result.status == (groups[Int(result.dataGroupNumber)] == nil ? .notRead : .valid))
        }
        #expect(verdict.dataGroupHashes.count(where: { $0.status == .valid }) == groups.count)
        // A DSC carried in the SOD must be the one published beside it.
        let dscPath = folder.appendingPathComponent("\(sample.country)_DSC.der")
        if FileManager.default.fileExists(atPath: dscPath.path) {
            #expect(verdict.documentSignerCertificate?.der == Data(try TestFiles.bytes(dscPath)))
        }
    }

    /// Every sample but Indonesia (whose 2010-series CSCA is not in the PKD) chains to a CSCA
    /// of the German master list, itself checked against the German root.
    @Test(arguments: samples.filter { $0.country != "ID" })
    func authenticatesAgainstTheGermanMasterList(sample: Sample) throws {
        guard let store = try GermanMasterList.trustStore(),
            let folder = TestFiles.shared("gmrtd/sod_samples")
        else { return }
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("\(sample.country)_EF_SOD.bin")),
            dataGroups: try TestFiles.dataGroups(in: folder) { "\(sample.country)_DG\($0).bin" }, trustStore: store,
            at: TestFiles.date(sample.checkTime))
        #expect(verdict.certificateChainValid && verdict.sodSignatureValid, "\(verdict.failures)")
        #expect(verdict.failures.map(\.code) == ["mandatoryDataGroupNotChecked", "mandatoryDataGroupNotChecked"])
        #expect(verdict.countrySigningCertificate != nil)
        #expect(verdict.issuingCountry != nil)
    }

    /// Another country's CSCA is no authority for this document.
    @Test func wrongCountryIsNotAnAuthority() throws {
        guard let folder = TestFiles.shared("gmrtd/sod_samples") else { return }
        let store = TrustStore([
            try Certificate(derEncoded: TestFiles.bytes(folder.appendingPathComponent("FR_CSCA.der")))
        ])
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("AU_EF_SOD.bin")), dataGroups: [:],
            trustStore: store, at: TestFiles.date("2026-06-01"))
        #expect(verdict.status == .denied && !verdict.certificateChainValid && verdict.countrySigningCertificate == nil)
        #expect(
            verdict.failures.map(\.code) == [
                "issuerNotFound", "mandatoryDataGroupNotChecked", "mandatoryDataGroupNotChecked",
            ])
    }

    /// Parser edge cases SOURCES.md names, checked on the structures themselves.
    @Test func edgeCases() throws {
        guard let folder = TestFiles.shared("gmrtd/sod_samples") else { return }
        func sod(_ country: String) throws -> DocumentSecurityObject {
            try DocumentSecurityObject(bytes: TestFiles.bytes(folder.appendingPathComponent("\(country)_EF_SOD.bin")))
        }
        #expect(try sod("CN").signedData.contentType.dotted == "1.2.840.113549.1.7.1")
        let malaysia = try sod("MY")
        let signer = try #require(malaysia.signedData.signerInfos.first)
        guard case .issuerAndSerialNumber(let issuer, _) = signer.identifier else {
            Issue.record("MY SignerInfo should name issuer and serial")
            return
        }
        let dsc = try #require(malaysia.signedData.certificates.first)
        #expect(issuer.encoded != dsc.issuer.encoded)  // written differently…
        #expect(issuer == dsc.issuer)  // …but the same name
        #expect(try sod("FI").dataGroupHashes.keys.sorted() == [1, 2, 3, 7, 14])
    }
}

/// The German master list checked against the German root, loaded once for the tests that need it.
enum GermanMasterList {
    private static let loaded: Result<TrustStore?, any Error> = Result {
        guard let folder = TestFiles.shared("gmrtd/master_list") else { return nil }
        let list = try MasterList(bytes: TestFiles.bytes(folder.appendingPathComponent("DE_ML_2026-05-28-08-28-45.ml")))
        let root = try Certificate(derEncoded: TestFiles.bytes(folder.appendingPathComponent("DE_ROOT_CA_CSCA07.cer")))
        var store = TrustStore()
        let verification = store.add(masterList: list, roots: [root], at: TestFiles.date("2026-05-29"))
        return verification.isTrusted ? store : nil
    }

    /// The verified list's certificates; nil (recorded) when ../shared is missing or it does not verify.
    static func trustStore() throws -> TrustStore? {
        let store = try loaded.get()
        if store == nil, TestFiles.shared("gmrtd/master_list") != nil {
            Issue.record("the German master list does not verify against its root")
        }
        return store
    }
}
