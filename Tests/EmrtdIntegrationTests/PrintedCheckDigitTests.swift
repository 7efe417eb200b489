import ChipSimulator
import LDS
import MRZ
import Testing

@testable import Emrtd

/// A document issued with a wrong check digit: its chip is keyed with the MRZ as printed (the
/// simulator takes the password from DG1's zone, printed digits included).
@Suite struct PrintedCheckDigitTests {
    /// The specimen's TD3 with the document number's check digit printed 5 (3 is right).
    static let lines = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<5UTO6908061F9406236ZE184226B<<<<<18"]

    static func specimen() throws -> Specimen {
        // No Chip or Active Authentication keys: the chip is opened, and read, as issued.
        var files = try Specimen.generate(credentials: Credentials()).files
        files[dataGroup: 1] = MRZDataGroup.encoded(mrzLines: lines)
        return try Specimen.signing(files)
    }

    static func chip(_ specimen: Specimen, pace: Bool) throws -> SimulatedChip {
        var configuration = ChipConfiguration(files: specimen.files)
        if pace { try configuration.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")], only: true) }
        return SimulatedChip(configuration: configuration)
    }

    @Test(arguments: [false, true])
    func thePrintedZoneOpensTheChipWithAWarning(pace: Bool) throws {
        let specimen = try Self.specimen()
        let key = try AccessPassword.printed(in: try parseMrz(lines: Self.lines))
        let document = try SecureReadTests.reader(specimen).read(
            transport: try Self.chip(specimen, pace: pace), accessPassword: key)
        #expect(document.accessControlProtocolUsed == (pace ? .pace : .bac))
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(
            document.warnings.contains { $0.hasPrefix("the MRZ's printed check digit of the document number") },
            "\(document.warnings)")
    }

    @Test(arguments: [false, true])
    func fieldsAloneAreRefusedAndTheReasonSaysWhy(pace: Bool) throws {
        let specimen = try Self.specimen()
        let key = AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect {
            try SecureReadTests.reader(specimen).read(transport: try Self.chip(specimen, pace: pace), accessKey: key)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .accessControl else { return false }
            return error.reason.contains("printed zone") && error.reason.contains("check digits computed")
        }
    }

    /// The reference's `accessKeyFromMrz` gives the zone's fields alone (its shape has no room
    /// for printed check digits): the chip refuses it, and the reason names the way that opens it.
    @Test func theReferenceKeyOfTheZoneIsRefusedWithTheWayOut() throws {
        let specimen = try Self.specimen()
        let key = accessKeyFromMrz(mrz: try parseMrz(lines: Self.lines))
        guard case .mrz(let number, let birth, let expiry) = key else {
            Issue.record("not an MRZ key: \(key)")
            return
        }
        #expect([number, birth, expiry] == ["L898902C", "690806", "940623"])
        #expect {
            try SecureReadTests.reader(specimen).read(transport: try Self.chip(specimen, pace: true), accessKey: key)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .accessControl else { return false }
            return error.reason.contains("AccessPassword.printed(in:)")
        }
    }
}
