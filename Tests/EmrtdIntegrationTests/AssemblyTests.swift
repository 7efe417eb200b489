import CMS
import ChipSimulator
import Foundation
import JSON
import LDS
import Testing

@testable import Emrtd

/// The read's second half on its own: the files a read acquired, assembled again as a dump's,
/// give the same data verdict; the reference's rules for a file set that lacks a mandatory file
/// or holds a malformed one; `FileSetVerification` (`emrtd verify` as a call) on whole and partial
/// file sets.
@Suite struct AssemblyTests {
    static func trusting(_ specimen: Specimen) throws -> TrustStore {
        var store = TrustStore()
        _ = try store.add(pemOrDer: specimen.countrySigningCertificate)
        return store
    }

    /// A read of the specimen, and its trust store.
    static func read() throws -> (TravelDocument, TrustStore) {
        let specimen = try Specimen.generate()
        let document = try OrchestrationTests.reader(trusting: specimen).read(
            transport: OrchestrationTests.openChip(specimen.files), accessKey: OrchestrationTests.accessKey)
        return (document, try trusting(specimen))
    }

    @Test func theReadsFilesAssembledAgainGiveTheSameDataVerdict() throws {
        let (read, trustStore) = try Self.read()
        let again = try assembleTravelDocument(
            files: read.ldsMasterFile, evidence: .dump(), trustStore: trustStore, at: Date(), renderImages: false)
        #expect(again.authenticationStatus.data.json == read.authenticationStatus.data.json)
        // DG1 says UTO, the specimen's CSCA C=UT: the issuing state passed to Passive
        // Authentication matches it (ICAO 9303's specimen state).
        #expect(again.authenticationStatus.data.status == .authenticated, "\(again.authenticationStatus.data.errors)")
        #expect(again.machineReadableZoneInformation.fields.issuingState == "UTO")
        #expect(again.authenticationStatus.data.issuingCountry == "UT")
        #expect(again.authenticationStatus.data.errors.isEmpty)
        let chip = again.authenticationStatus.chip
        // Files without their evidence prove nothing about the chip.
        #expect(chip.status == .notSupported && chip.reason.contains("no evidence.json"), "\(chip.reason)")
        #expect(again.additionalPersonalDetails == read.additionalPersonalDetails)
    }

    @Test func aFileSetWithoutAMandatoryFileOrWithAMalformedOneIsNoDocument() throws {
        let (read, trustStore) = try Self.read()
        func assembled(_ change: (inout LdsMasterFile) -> Void) -> ReadError? {
            var files = read.ldsMasterFile
            change(&files)
            do throws(ReadError) {
                _ = try assembleTravelDocument(
                    files: files, evidence: .dump(), trustStore: trustStore, at: Date(), renderImages: false)
                return nil
            } catch {
                return error
            }
        }
        for kind in [LDSFileKind.com, .sod, .dg1, .dg2] {
            let error = assembled { $0[kind] = nil }
            #expect(error?.kind == .read(.readingDataGroups), "\(kind)")
            #expect(error?.reason.contains("is not among the files") == true, "\(kind)")
        }
        let refused = assembled {
            $0[.dg2] = nil
            $0.deniedFiles = [.dg2]
        }
        #expect(refused?.reason == "dg2 is mandatory and the chip refused it (6982)")
        #expect(assembled { $0[.dg1] = [0x61, 0x03, 0x5F, 0x1F, 0x00] }?.kind == .read(.parseMasterFile))
        #expect(assembled { $0[.com] = [0x60, 0x01] }?.kind == .read(.parseMasterFile))
        // An optional file that does not parse is a warning, not an error; its hash denies.
        var files = read.ldsMasterFile
        files[.dg11] = [0x6B, 0x02, 0x01, 0x02]
        let document = try assembleTravelDocument(
            files: files, evidence: .dump(warnings: ["given"]), trustStore: trustStore, at: Date(), renderImages: false)
        #expect(document.additionalPersonalDetails == nil && document.warnings.first == "given")
        #expect(document.warnings.count > 1 && document.authenticationStatus.data.status == .denied)
    }

    @Test func verifyingAWholeAndAPartialFileSet() throws {
        let (read, trustStore) = try Self.read()
        let whole = try FileSetVerification(files: read.ldsMasterFile, trustStore: trustStore, at: Date())
        #expect(whole.passes && whole.data.status == .authenticated)
        // Authenticated but expired: it passes `verify` without --strict, and is not accepted.
        #expect(!whole.checks.accepted && whole.json["checks"]?["accepted"] == false)
        #expect(whole.json["status"] == "authenticated" && whole.json["checks"] != nil)
        // The specimen expired in 1994: strict mode refuses it, the data verdict stands.
        let strict = try FileSetVerification(
            files: read.ldsMasterFile, trustStore: trustStore, at: Date(), strict: true)
        #expect(!strict.passes && strict.data.status == .authenticated)
        #expect(strict.warnings.contains { $0.contains("expired") })

        // A lone EF.SOD: a verdict, never authenticated (DG1 and DG2 were not checked).
        var lone = LdsMasterFile()
        lone.sod = read.ldsMasterFile.sod
        let partial = try FileSetVerification(files: lone, trustStore: trustStore, at: Date(), warnings: ["note"])
        #expect(!partial.passes && partial.data.status != .authenticated)
        #expect(partial.warnings.first == "note" && partial.json["warnings"] != nil)

        var garbage = LdsMasterFile()
        garbage.sod = [0x77, 0x01, 0x00]
        #expect(throws: ReadError.self) { try FileSetVerification(files: garbage, trustStore: trustStore, at: Date()) }
        #expect(throws: ReadError.self) {
            try FileSetVerification(files: LdsMasterFile(), trustStore: trustStore, at: Date())
        }
    }
}
