import Foundation
import MRZ
import Testing

@testable import CMS
@testable import Emrtd

/// `DocumentChecks`: the warnings and the strict-mode requirements a terminal decides on, for
/// every requirement met and each one broken alone.
@Suite struct DocumentChecksTests {
    static let lines = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061F9406236ZE184226B<<<<<14"]
    static let beforeExpiry = Date(timeIntervalSince1970: 700_000_000)  // 1992-03-06
    static let afterExpiry = Date(timeIntervalSince1970: 800_000_000)  // 1995-05-08

    static func data(_ status: DataStatus) -> DataAuthenticationStatus {
        DataAuthenticationStatus(
            status: status, sodSignatureValid: true, certificateChainValid: status == .authenticated,
            dataGroupHashesValid: true,
            dataGroupHashes: [1, 2].map {
                DataGroupHash(dataGroupNumber: $0, status: .valid, expectedHash: [1], computedHash: [1])
            }, hashAlgorithm: "SHA-256", signatureAlgorithm: nil, documentSignerCertificate: nil,
            countrySigningCertificate: nil, issuingCountry: nil, failures: [])
    }

    static func checks(
        data: DataStatus = .authenticated, chip: ChipEvidence = ChipEvidence(),
        printed: [String]? = lines, at time: Date = beforeExpiry
    ) throws -> DocumentChecks {
        DocumentChecks(
            data: Self.data(data), chip: ChipVerdict.decide(chip), chipZone: try parseMrz(lines: lines),
            printedZone: try printed.map { try parseMrz(lines: $0) }, at: time)
    }

    @Test func everythingMetPasses() throws {
        let checks = try Self.checks()
        #expect(checks.accepted && checks.unmetStrictRequirements.isEmpty && checks.warnings.isEmpty)
        #expect(checks.pageComparison?.matches == true && checks.mrzValidity?.expired == false)
        #expect(checks.json["strict"]?["passes"] == true && checks.json["dataGroupsChecked"] == 2)
        // No printed zone: nothing to compare, which strict mode does not require.
        #expect(try Self.checks(printed: nil).accepted)
    }

    @Test func eachRequirementFailsAlone() throws {
        #expect(
            try Self.checks(data: .authorityCertificatesNotProvided).unmetStrictRequirements == [
                "the data is authorityCertificatesNotProvided, not authenticated"
            ])
        #expect(try Self.checks(at: Self.afterExpiry).unmetStrictRequirements == ["the document has expired"])
        #expect(
            try Self.checks(chip: ChipEvidence(activeAuthentication: .denied("bad signature")))
                .unmetStrictRequirements == ["the chip is denied"])
        let other = try Self.checks(printed: [
            "P<UTOERIKSSON<<JOHN<<<<<<<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061M9406236ZE184226B<<<<<14",
        ])
        #expect(other.unmetStrictRequirements == ["the printed MRZ differs from the chip's"])
        #expect(other.warnings == ["the printed MRZ differs from the chip's (DG1) in: secondaryIdentifier, sex"])
    }

    /// A chip that offers no proof is not held against the document.
    @Test func aChipWithoutProofPasses() throws {
        let checks = try Self.checks(chip: ChipEvidence())
        #expect(checks.chip?.status == .notSupported && checks.accepted)
    }

    @Test func withoutDG1NothingCanBeChecked() {
        let checks = DocumentChecks(
            data: Self.data(.authenticated), chip: nil, chipZone: nil,
            printedZone: try? parseMrz(lines: Self.lines), at: Self.beforeExpiry)
        #expect(checks.printedZoneUncompared)
        #expect(
            checks.unmetStrictRequirements == [
                "the printed MRZ could not be compared with DG1", "there is no DG1 to check",
            ])
    }
}
