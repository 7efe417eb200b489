import Foundation
import Testing

@testable import CMS

/// The German, Dutch and ICAO master lists: counts from SOURCES.md, signatures and signer
/// chains against the roots beside them.
@Suite struct MasterListTests {
    func load(_ path: String) throws -> MasterList? {
        guard let url = TestFiles.shared(path) else { return nil }
        return try MasterList(bytes: TestFiles.bytes(url))
    }

    func certificate(_ path: String) throws -> Certificate? {
        guard let url = TestFiles.shared(path) else { return nil }
        return try Certificate(derEncoded: TestFiles.bytes(url))
    }

    @Test func german() throws {
        guard let list = try load("gmrtd/master_list/DE_ML_2026-05-28-08-28-45.ml"),
            let root = try certificate("gmrtd/master_list/DE_ROOT_CA_CSCA07.cer")
        else { return }
        #expect(list.certificates.count == 588)
        #expect(list.countries.count == 112)
        let verification = list.verify(roots: [root], at: TestFiles.date("2026-05-29"))
        #expect(verification.signatureValid)
        #expect(verification.signerChainValid == true)
        #expect(verification.signer?.subject.commonName == "CSCA Master List Signer")
        #expect(verification.root == root)
    }

    @Test func dutch() throws {
        guard let list = try load("gmrtd/master_list/NL_ML_2026-07-22.ml"),
            let root = try certificate("gmrtd/master_list/NL_ROOT_CA.cer")
        else { return }
        #expect(list.certificates.count == 411)
        #expect(list.countries.count == 129)
        let verification = list.verify(roots: [root], at: TestFiles.date("2026-07-24"))
        let trusted = verification.isTrusted
        #expect(trusted, "\(verification.problems)")
    }

    /// The ICAO list's root, the United Nations CSCA, is taken from the verified German list.
    @Test func icao() throws {
        guard let list = try load("icao_master_list/ICAO_ml_signed_2025-07-23_allowlist.ml"),
            let german = try GermanMasterList.trustStore()
        else { return }
        #expect(list.certificates.count == 520)
        let roots = german.certificates.filter { $0.subject.commonName == "United Nations CSCA" }
        #expect(!roots.isEmpty)
        let verification = list.verify(roots: roots, at: TestFiles.date("2025-07-24"))
        let trusted = verification.isTrusted
        #expect(trusted, "\(verification.problems)")
        #expect(verification.signer?.subject.commonName == "ICAO Master List Signer")
    }

    @Test func wrongRootIsRefused() throws {
        guard let list = try load("gmrtd/master_list/DE_ML_2026-05-28-08-28-45.ml"),
            let dutchRoot = try certificate("gmrtd/master_list/NL_ROOT_CA.cer")
        else { return }
        var store = TrustStore()
        let verification = store.add(masterList: list, roots: [dutchRoot], at: TestFiles.date("2026-05-29"))
        #expect(verification.signatureValid)
        #expect(verification.signerChainValid == false)
        #expect(store.isEmpty)
    }

    /// Without roots the signature is still checked, the chain is left open.
    @Test func noRoots() throws {
        guard let list = try load("gmrtd/master_list/NL_ML_2026-07-22.ml") else { return }
        let verification = list.verify(roots: [], at: TestFiles.date("2026-07-24"))
        #expect(verification.signatureValid)
        #expect(verification.signerChainValid == nil)
        #expect(!verification.isTrusted)
    }

    /// The PEM bundle (720 certificates) loads into a store without duplicates.
    @Test func pemBundle() throws {
        guard let url = TestFiles.shared("andyq_nfcpassportreader/masterList.pem") else { return }
        var store = TrustStore()
        let added = try store.add(pemOrDer: TestFiles.bytes(url))
        #expect(added == store.certificates.count)
        #expect(added > 700 && added <= 720)
    }
}
