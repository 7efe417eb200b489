import Foundation
import Testing

@testable import CMS

/// Specimen documents with complete data-group sets whose test CSCAs are not public:
/// signature and hashes verify, the verdict names the missing authority.
@Suite struct SpecimenTests {
    struct Specimen: Sendable, CustomStringConvertible {
        let name: String
        let securityObject: String
        /// DG number → path under ../shared/data.
        let dataGroups: [Int: String]
        let hash: String
        let signature: String
        var description: String { name }
    }

    static let specimens: [Specimen] = [
        Specimen(
            name: "BSI 2008", securityObject: "jmrtd/bsi2008/EF_SOD.bin",
            dataGroups: [
                1: "jmrtd/bsi2008/Datagroup1.bin", 2: "jmrtd/bsi2008/Datagroup2.bin",
                3: "jmrtd/bsi2008/Datagroup3.bin", 14: "jmrtd/bsi2008/Datagroup14.bin",
            ], hash: "SHA-1", signature: "SHA1withECDSA"),
        Specimen(
            name: "Loes 2006", securityObject: "jmrtd/loes2006/ef011D.bin",
            dataGroups: [
                1: "jmrtd/loes2006/ef0101.bin", 2: "jmrtd/loes2006/ef0102.bin", 15: "jmrtd/loes2006/ef010F.bin",
            ],
            hash: "SHA-256", signature: "SHA256withRSA"),
        Specimen(
            name: "ETSI TR 103 200", securityObject: "pymrtd/etsi_tr103200_epassport_prototype/DFLT_EACAA_EF_SOD.bin",
            dataGroups: [
                1: "jmrtd/bsi2008/Datagroup1.bin", 2: "jmrtd/bsi2008/Datagroup2.bin",
                3: "jmrtd/bsi2008/Datagroup3.bin", 4: "jmrtd/bsi2008/Datagroup4.bin",
                14: "pymrtd/etsi_tr103200_epassport_prototype/DFLT_EAC_EF_DG14.bin",
                15: "pymrtd/etsi_tr103200_epassport_prototype/DFLT_EACAA_EF_DG15.bin",
            ], hash: "SHA-256", signature: "SHA256withRSAandMGF1"),
    ]

    @Test(arguments: specimens)
    func authorityNotProvided(specimen: Specimen) throws {
        guard let sod = TestFiles.shared(specimen.securityObject) else { return }
        var groups: [Int: [UInt8]] = [:]
        for (number, path) in specimen.dataGroups {
            guard let url = TestFiles.shared(path) else { return }
            groups[number] = try TestFiles.bytes(url)
        }
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(sod), dataGroups: groups, trustStore: TrustStore(),
            at: TestFiles.date("2026-06-01"))
        let (status, signature, hashes, chain) = (
            verdict.status, verdict.sodSignatureValid, verdict.dataGroupHashesValid, verdict.certificateChainValid
        )
        #expect(status == .authorityCertificatesNotProvided, "\(verdict.failures)")
        #expect(signature && hashes && !chain)
        #expect(
            verdict.dataGroupHashes.filter { $0.status == .valid }.map { Int($0.dataGroupNumber) }
                == groups.keys.sorted())
        #expect(verdict.hashAlgorithm == specimen.hash)
        #expect(verdict.signatureAlgorithm == specimen.signature)
        #expect(verdict.documentSignerCertificate != nil)
    }

    /// BSI 2008's DG15 is on the chip but not in its SOD: reading it fails the verdict.
    @Test func dataGroupReadWithoutHash() throws {
        guard let sod = TestFiles.shared("jmrtd/bsi2008/EF_SOD.bin"),
            let dg15 = TestFiles.shared("jmrtd/bsi2008/Datagroup15.bin")
        else { return }
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(sod), dataGroups: [15: try TestFiles.bytes(dg15)],
            trustStore: TrustStore(), at: TestFiles.date("2026-06-01"))
        #expect(verdict.status == .denied)
        #expect(verdict.dataGroupHashes.first { $0.dataGroupNumber == 15 }?.status == .invalid)
        #expect(verdict.failures.contains(.dataGroupNotHashed(15)))
    }
}
