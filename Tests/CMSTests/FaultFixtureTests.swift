import Foundation
import Testing

@testable import CMS

/// The PKIs and SODs `Tools/make-pa-fixtures.py` generated with Python `cryptography` and
/// `asn1crypto` (none of this package's code), one defect per case, RSA and explicit-parameter
/// ECDSA alike. Each case's verdict and errors are stated here, from the defect planted.
@Suite struct FaultFixtureTests {
    typealias Status = DataStatus

    struct Expectation: Sendable, CustomStringConvertible {
        let name: String
        let status: Status
        var signature = true
        var chain = true
        var hashes = true
        var errors: [String] = []
        var invalidGroups: [Int] = []
        var description: String { name }
    }

    static let cases: [Expectation] = [
        Expectation(name: "valid", status: .authenticated),
        Expectation(name: "valid-ski-sid", status: .authenticated),
        Expectation(name: "valid-no-signed-attributes", status: .authenticated),
        Expectation(name: "valid-dsc-not-in-sod", status: .authenticated),
        Expectation(name: "valid-via-link", status: .authenticated),
        Expectation(
            name: "changed-dg", status: .denied, hashes: false, errors: ["dataGroupHashMismatch"], invalidGroups: [2]),
        Expectation(name: "bad-signature", status: .denied, signature: false, errors: ["signatureInvalid"]),
        Expectation(name: "untrusted-csca", status: .denied, chain: false, errors: ["issuerSignatureInvalid"]),
        Expectation(
            name: "unknown-csca", status: .authorityCertificatesNotProvided, chain: false, errors: ["issuerNotFound"]),
        Expectation(name: "expired-dsc", status: .denied, chain: false, errors: ["notValidAtCheckTime"]),
        Expectation(name: "dsc-before-csca", status: .denied, chain: false, errors: ["issuedOutsideIssuerValidity"]),
        Expectation(name: "dsc-without-digital-signature", status: .denied, chain: false, errors: ["keyUsageMissing"]),
        Expectation(name: "wrong-sid", status: .denied, signature: false, errors: ["signerIdentifierMismatch"]),
        Expectation(name: "wrong-message-digest", status: .denied, signature: false, errors: ["messageDigestMismatch"]),
        Expectation(name: "wrong-content-type", status: .denied, signature: false, errors: ["contentTypeMismatch"]),
        Expectation(
            name: "dg-without-hash", status: .denied, hashes: false, errors: ["dataGroupNotHashed"],
            invalidGroups: [15]),
    ]

    static let checkTime = TestFiles.date("2026-06-01")

    @Test(arguments: ["rsa", "ecdsa"], cases)
    func verdict(pki: String, expected: Expectation) throws {
        let verdict = try Self.verdict(pki: pki, name: expected.name)

        #expect(verdict.status == expected.status)
        #expect(verdict.sodSignatureValid == expected.signature)
        #expect(verdict.certificateChainValid == expected.chain)
        #expect(verdict.dataGroupHashesValid == expected.hashes)
        #expect(verdict.failures.map(\.code) == expected.errors)
        #expect(
            verdict.dataGroupHashes.filter { $0.status == .invalid }.map { Int($0.dataGroupNumber) }
                == expected.invalidGroups)
        #expect(
            verdict.dataGroupHashes.map(\.dataGroupNumber) == verdict.dataGroupHashes.map(\.dataGroupNumber).sorted())
        #expect(verdict.hashAlgorithm == "SHA-256")
        #expect(verdict.signatureAlgorithm == (pki == "rsa" ? "SHA256withRSA" : "SHA256withECDSA"))
        #expect(verdict.issuingCountry == "UT")
        #expect(verdict.documentSignerCertificate?.commonName == "DS \(pki)")
        if expected.status == .authenticated {
            #expect(verdict.countrySigningCertificate?.commonName == "CSCA \(pki)")
        }
    }

    /// Case `name`'s verdict, its folder's CSCA, link and DSC trusted.
    static func verdict(pki: String, name: String) throws -> DataAuthenticationStatus {
        let folder = TestFiles.fixtures.appendingPathComponent("pa-faults/\(pki)/\(name)")
        var store = TrustStore()
        for name in ["../csca.pem", "link.pem", "dsc.pem"] {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { try store.add(pemOrDer: TestFiles.bytes(url)) }
        }
        let groups = try TestFiles.dataGroups(in: folder) { "DG\($0).bin" }
        return PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("SOD.bin")), dataGroups: groups,
            trustStore: store, at: Self.checkTime)
    }

    /// Both are `denied`, but the reasons differ: an expired Document Signer is named with its
    /// expiry date and the check date, a forged signature with the certificate whose key refutes it.
    @Test(arguments: ["rsa", "ecdsa"])
    func expiredSignerAndForgedSignatureAreToldApart(pki: String) throws {
        let expired = try Self.verdict(pki: pki, name: "expired-dsc")
        let dsc = try #require(expired.documentSignerCertificate)
        let expiredReason = try #require(expired.failures.first).description
        #expect(expiredReason.contains("CN=DS \(pki)") && expiredReason.contains("serial \(dsc.serialNumber)"))
        #expect(expiredReason.contains("expired on \(dsc.notAfter.prefix(10))"), "\(expiredReason)")
        #expect(expiredReason.contains("checked at 2026-06-01"))
        #expect(!expiredReason.contains("signature"))

        let forged = try Self.verdict(pki: pki, name: "bad-signature")
        let forgedReason = try #require(forged.failures.first).description
        #expect(
            forgedReason.contains("does not verify with the key of the certificate CN=DS \(pki)"), "\(forgedReason)")
        #expect(!forgedReason.contains("expired"))
        #expect(expired.status == .denied && forged.status == .denied)
    }

    /// Without any CSCA the verdict names the missing authority, not a failure.
    @Test(arguments: ["rsa", "ecdsa"])
    func emptyTrustStore(pki: String) throws {
        let folder = TestFiles.fixtures.appendingPathComponent("pa-faults/\(pki)/valid")
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("SOD.bin")),
            dataGroups: try TestFiles.dataGroups(in: folder) { "DG\($0).bin" }, trustStore: TrustStore(),
            at: Self.checkTime)
        #expect(verdict.status == .authorityCertificatesNotProvided)
        #expect(verdict.sodSignatureValid && verdict.dataGroupHashesValid && !verdict.certificateChainValid)
        #expect(verdict.countrySigningCertificate == nil)
    }

    /// A lone SOD: every hashed group is `notRead`; the signature and the chain hold, but without
    /// DG1 and DG2 checked the data is not authenticated, and the errors say so.
    @Test func loneSecurityObject() throws {
        let folder = TestFiles.fixtures.appendingPathComponent("pa-faults/rsa/valid")
        let store = TrustStore(
            try CertificateFile(bytes: TestFiles.bytes(folder.appendingPathComponent("../csca.pem"))).certificates)
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("SOD.bin")), dataGroups: [:],
            trustStore: store, at: Self.checkTime)
        #expect(verdict.status == .denied)
        #expect(verdict.sodSignatureValid && verdict.certificateChainValid && verdict.dataGroupHashesValid)
        #expect(verdict.failures == [.mandatoryDataGroupNotChecked(1), .mandatoryDataGroupNotChecked(2)])
        #expect(verdict.dataGroupsChecked == 0)
        #expect(verdict.dataGroupHashes.map(\.status) == [.notRead, .notRead, .notRead])
        #expect(verdict.dataGroupHashes.map(\.dataGroupNumber) == [1, 2, 14])
    }
}
