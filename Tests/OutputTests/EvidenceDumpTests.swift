import ChipSimulator
import Emrtd
import Files
import Foundation
import LDS
import Testing

@testable import Output

/// `evidence.json`: what a read proved is written into its dump, read back as the same value, and
/// names the access protocol of the document assembled from the dump.
@Suite struct EvidenceDumpTests {
    static let challenge: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]

    /// A chip with these keys (by default PACE-CAM, Chip Authentication and RSA Active
    /// Authentication), read with a caller's challenge by a reader trusting its CSCA.
    static func read(
        chipAuthentication: [String] = ["ECDH-AES-128:13"], activeAuthentication: String? = "rsa:2048:sha256",
        pace: [String] = ["ECDH-CAM-AES-128:13"]
    ) throws -> (TravelDocument, Specimen) {
        var credentials = Credentials()
        credentials.chipAuthenticationKeys = try chipAuthentication.map {
            try ChipAuthenticationKey.generate(named: $0)
        }
        credentials.activeAuthenticationKey = try activeAuthentication.map {
            try ActiveAuthenticationKey.generate(named: $0)
        }
        credentials.paceOffers = try pace.map { try PACEOffer(named: $0) }
        let specimen = try Specimen.generate(credentials: credentials)
        let chip = SimulatedChip(
            configuration: ChipConfiguration(files: specimen.files, credentials: specimen.credentials))
        let reader = try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: [Data(specimen.countrySigningCertificate)], renderImages: false))
        // The specimen's zone (`Specimen.machineReadableZoneLines`).
        let key = AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        return (try reader.read(transport: chip, accessKey: key, activeAuthenticationChallenge: challenge), specimen)
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-evidence-\(UUID().uuidString)").path
    }

    @Test func theReadsEvidenceHoldsEachTranscript() throws {
        let (document, _) = try Self.read()
        let evidence = try #require(document.acquisitionEvidence)
        #expect(evidence.version == AcquisitionEvidence.currentVersion)
        #expect(evidence.access.protocol == "pace")
        #expect(evidence.access.pace?.mapping == "chipAuthenticationMapping")
        #expect(evidence.access.pace?.parameterId == 13 && evidence.access.pace?.password == "mrz")
        let mapping = try #require(evidence.chipAuthenticationMapping)
        #expect(mapping.keySource == "cardSecurity")
        #expect(!mapping.authenticationData.isEmpty && !mapping.chipMappingPublicKey.isEmpty)
        #expect(mapping.checkedAgainst != nil)
        let active = try #require(evidence.activeAuthentication)
        #expect([UInt8](active.challenge) == Self.challenge)
        #expect(active.signature == document.authenticationStatus.chip.activeAuthenticationResponse)
        #expect(active.algorithm?.hasPrefix("RSA ISO/IEC 9796-2") == true, "\(active.algorithm ?? "nil")")
    }

    @Test func aDumpKeepsTheEvidenceAndTheAccessProtocol() throws {
        let (document, specimen) = try Self.read()
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try DumpLayout.write(document, to: directory, replacing: .nothing)
        let evidence = try DumpLayout.readEvidence(directory)
        #expect(evidence == document.acquisitionEvidence)
        let dump = try DumpLayout.read(directory)
        #expect(dump.notes.isEmpty, "\(dump.notes)")
        let trust = try TrustStore.assemble(
            includingDefaultBundle: false, authorityCertificates: [specimen.countrySigningCertificate]
        ).store
        let assembled = try assembleTravelDocument(
            files: dump.files, evidence: .dump(acquisitionEvidence: evidence), trustStore: trust, at: Date(),
            renderImages: false)
        #expect(assembled.accessControlProtocolUsed == .pace)
        #expect(assembled.paceMapping == .chipAuthenticationMapping)
        #expect(assembled.acquisitionEvidence == evidence)
        // Without evidence.json the dump says BAC, as before.
        try FileManager.default.removeItem(atPath: directory + "/" + DumpLayout.evidenceName)
        #expect(try DumpLayout.readEvidence(directory) == nil)
        let bare = try assembleTravelDocument(
            files: dump.files, evidence: .dump(), trustStore: trust, at: Date(), renderImages: false)
        #expect(bare.accessControlProtocolUsed == .bac)
    }

    @Test func aNewerOrForeignEvidenceFileIsRefusedWithAReason() throws {
        let (document, _) = try Self.read()
        var newer = try #require(document.acquisitionEvidence)
        newer.version = AcquisitionEvidence.currentVersion + 1
        #expect {
            try DumpLayout.decodedEvidence(try DumpLayout.encoded(newer))
        } throws: { error in
            (error as? OutputError)?.reason.contains("newer than this reader's") == true
        }
        #expect(throws: OutputError.self) { try DumpLayout.decodedEvidence(Array(#"{"files": []}"#.utf8)) }
        #expect(throws: OutputError.self) { try DumpLayout.decodedEvidence(Array(#"{"version": 1}"#.utf8)) }
    }

    // MARK: The chip judged again offline

    /// `emrtd verify --dir`'s verdict of a read's files and evidence, as a dump gives them back.
    static func offline(
        _ document: TravelDocument, _ specimen: Specimen, evidence: AcquisitionEvidence?, challenge: [UInt8]? = nil,
        trusted: Bool = true, edit: (inout LdsMasterFile) -> Void = { _ in }
    ) throws -> ChipAuthenticationStatus {
        var files = document.ldsMasterFile
        edit(&files)
        let trust = try TrustStore.assemble(
            includingDefaultBundle: false, authorityCertificates: trusted ? [specimen.countrySigningCertificate] : []
        ).store
        let verification = try FileSetVerification(
            files: files, trustStore: trust, at: Date(),
            chipEvidence: OfflineChipEvidence(recorded: evidence, challenge: challenge))
        return try #require(verification.chip)
    }

    /// Active Authentication over BAC, RSA ISO 9796-2 and ECDSA: re-verified over the stored
    /// challenge; another challenge, a changed signature or challenge byte, or a DG15 that does
    /// not match EF.SOD is denied; without trust the protocol is kept and the chip not authenticated.
    @Test(arguments: ["rsa:1024:bc", "rsa:2048:sha256", "ecdsa:13"])
    func activeAuthenticationRoundTrip(_ key: String) throws {
        let (document, specimen) = try Self.read(chipAuthentication: [], activeAuthentication: key, pace: [])
        #expect(document.accessControlProtocolUsed == .bac)
        let evidence = try #require(document.acquisitionEvidence)
        let verdict = try Self.offline(document, specimen, evidence: evidence, challenge: Self.challenge)
        #expect(verdict.status == .authenticated && verdict.protocol == .activeAuthentication, "\(verdict.reason)")
        #expect(verdict.activeAuthentication == .authenticated)
        let other = try Self.offline(document, specimen, evidence: evidence, challenge: [8, 7, 6, 5, 4, 3, 2, 1])
        #expect(other.status == .denied && other.reason.contains("another challenge"), "\(other.reason)")
        for field in ["signature", "challenge"] {
            var changed = evidence
            var proof = try #require(changed.activeAuthentication)
            if field == "signature" {
                proof.signature[proof.signature.count / 2] ^= 0x01
            } else {
                proof.challenge[0] ^= 0x01
            }
            changed.activeAuthentication = proof
            let denied = try Self.offline(document, specimen, evidence: changed)
            #expect(denied.status == .denied && denied.protocol == .activeAuthentication, "\(field): \(denied.reason)")
        }
        let swapped = try Self.offline(document, specimen, evidence: evidence) { files in
            files[.dg15] = files[.dg15].map { Array($0.dropLast()) + [($0.last ?? 0) ^ 0x01] }
        }
        #expect(swapped.status != .authenticated, "\(swapped.reason)")
        let untrusted = try Self.offline(document, specimen, evidence: evidence, trusted: false)
        #expect(untrusted.status == .denied && untrusted.protocol == .activeAuthentication, "\(untrusted.reason)")
        #expect(untrusted.activeAuthentication == .authenticated)
    }

    /// PACE-CAM re-verified against EF.CardSecurity's key; one changed byte of its proof is denied.
    @Test func chipAuthenticationMappingRoundTrip() throws {
        let (document, specimen) = try Self.read(activeAuthentication: nil)
        let evidence = try #require(document.acquisitionEvidence)
        let verdict = try Self.offline(document, specimen, evidence: evidence)
        #expect(
            verdict.status == .authenticated && verdict.protocol == .paceChipAuthenticationMapping, "\(verdict.reason)")
        var changed = evidence
        var proof = try #require(changed.chipAuthenticationMapping)
        proof.authenticationData[0] ^= 0x01
        changed.chipAuthenticationMapping = proof
        let denied = try Self.offline(document, specimen, evidence: changed)
        #expect(denied.status == .denied && denied.protocol == .paceChipAuthenticationMapping, "\(denied.reason)")
        // A challenge given where no Active Authentication was recorded is not answered.
        let challenged = try Self.offline(document, specimen, evidence: evidence, challenge: Self.challenge)
        #expect(challenged.status == .denied, "\(challenged.reason)")
    }

    /// Chip Authentication (ECDH and DH) is reported as performed but not provable offline; a dump
    /// without evidence is not authenticated either, and says why.
    @Test(arguments: ["ECDH-AES-128:13", "DH-AES-128:2"])
    func chipAuthenticationIsNotProvableOffline(_ key: String) throws {
        let (document, specimen) = try Self.read(chipAuthentication: [key], activeAuthentication: nil, pace: [])
        let evidence = try #require(document.acquisitionEvidence)
        let proof = try #require(evidence.chipAuthentication)
        #expect(proof.confirmed && !proof.terminalEphemeralPublicKey.isEmpty)
        let verdict = try Self.offline(document, specimen, evidence: evidence)
        #expect(
            verdict.status == .notSupported && verdict.reason.contains("cannot be proved offline"), "\(verdict.reason)")
        let none = try Self.offline(document, specimen, evidence: nil)
        #expect(none.status == .notSupported && none.reason.contains("no evidence.json"), "\(none.reason)")
    }

    /// A DG14 or DG15 that EF.SOD hashes and the dump lacks is withheld, as online: the chip is
    /// denied naming the file, with or without `evidence.json`, whatever the other key proved.
    @Test(arguments: [14, 15])
    func aKeyFileTheDumpLacksDeniesTheChip(_ number: Int) throws {
        let (document, specimen) = try Self.read(pace: [])
        let evidence = try #require(document.acquisitionEvidence)
        let hashed = document.authenticationStatus.data.dataGroupHashes.map { Int($0.dataGroupNumber) }
        try #require(hashed.contains(number), "EF.SOD lists \(hashed)")
        let whole = try Self.offline(document, specimen, evidence: evidence)
        #expect(whole.status == .authenticated, "\(whole.reason)")
        let kind: LDSFileKind = number == 14 ? .dg14 : .dg15
        for recorded in [evidence, nil] {
            let verdict = try Self.offline(document, specimen, evidence: recorded) { $0[kind] = nil }
            #expect(verdict.status == .denied && verdict.protocol == nil, "\(verdict.reason)")
            #expect(
                verdict.reason.contains("EF.SOD lists DG\(number), but the dump does not hold it"), "\(verdict.reason)")
        }
    }

    /// A dump whose EF.SOD lists neither DG14 nor DG15 is judged as before: nothing is withheld.
    @Test func aDumpWithoutKeyFilesIsNotWithholdingThem() throws {
        let (document, specimen) = try Self.read(chipAuthentication: [], activeAuthentication: nil, pace: [])
        let hashed = document.authenticationStatus.data.dataGroupHashes.map { Int($0.dataGroupNumber) }
        try #require(!hashed.contains(14) && !hashed.contains(15), "EF.SOD lists \(hashed)")
        let verdict = try Self.offline(document, specimen, evidence: document.acquisitionEvidence)
        #expect(verdict.status == .notSupported && verdict.reason.contains("offers neither"), "\(verdict.reason)")
        let none = try Self.offline(document, specimen, evidence: nil)
        #expect(none.status == .notSupported && none.reason.contains("no evidence.json"), "\(none.reason)")
    }
}
