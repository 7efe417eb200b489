import ChipSimulator
import Foundation
import JSON
import LDS
import MRZ
import Synchronization
import Testing
import Transport

@testable import Emrtd

/// The read's steps against the chip simulator in-process, with access control stood in for
/// (see `PlainChipAccess`): files and their order, progress events, both verdicts, every
/// tolerated fault and every error, and the JSON contract.
@Suite struct OrchestrationTests {
    static let accessKey = AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")

    static func openChip(_ files: ChipFiles, faults: [ChipFault] = []) -> SimulatedChip {
        SimulatedChip(configuration: ChipConfiguration(files: files, enforcesAccessControl: false, faults: faults))
    }

    static func reader(trusting specimen: Specimen?, debug: Bool = false) throws -> EmrtdReader {
        try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: specimen.map { [Data($0.countrySigningCertificate)] } ?? [], debug: debug),
            chipAccess: PlainChipAccess())
    }

    /// Records the listener's calls in order.
    final class EventLog: ReadListener {
        let events = Mutex<[String]>([])
        let onProgress: @Sendable (LDSFileKind) -> Void

        init(onProgress: @escaping @Sendable (LDSFileKind) -> Void = { _ in }) { self.onProgress = onProgress }

        func onAccessEstablishmentStarted() { events.withLock { $0.append("access") } }
        func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32) {
            events.withLock { $0.append("\(id.rawValue) \(totalProgressPercentage)") }
            onProgress(id)
        }
        func onDataAuthenticationStarted() { events.withLock { $0.append("authentication") } }
    }

    @Test func specimenReadsAuthenticated() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(specimen.files), accessKey: Self.accessKey)
        let data = document.authenticationStatus.data
        #expect(data.status == .authenticated, "\(data.errors)")
        #expect(data.sodSignatureValid && data.certificateChainValid && data.dataGroupHashesValid)
        #expect(data.dataGroupHashes.map(\.dataGroupNumber) == [1, 2, 11, 12, 14, 15])
        #expect(data.dataGroupHashes.allSatisfy { $0.status == .valid })
        #expect(document.machineReadableZoneInformation.fields.documentNumber == "L898902C")
        #expect(document.encodedIdentificationFeaturesFace.images.first?.format == .jpeg)
        #expect(document.additionalPersonalDetails?.placeOfBirthText == "ZENITH,UTOPIA")
        #expect(document.additionalDocumentDetails?.issuingAuthority == "UTOPIA PASSPORT OFFICE")
        #expect(document.additionalDocumentDetails?.dateOfIssueRecord == LDSDate(value: "19890624", encoding: .bcd))
        #expect(
            document.additionalPersonalDetails?.fullDateOfBirthRecord == LDSDate(value: "19690806", encoding: .text))
        #expect(document.ldsVersion == "1.8" && document.unicodeVersion == "4.0.0")
        #expect(document.ldsVersionRaw == "0108" && document.unicodeVersionRaw == "040000")
        #expect(document.authenticationStatus.chip.status == .notSupported)
        #expect(document.ldsMasterFile.filesRead == [.com, .sod, .dg1, .dg2, .dg11, .dg12, .dg14, .dg15])
        #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2])
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(document.debugInfo.apduCount > 0 && document.debugInfo.events.isEmpty)
    }

    @Test func everyDataGroupOfTheRichSpecimen() throws {
        let specimen = try Specimen.generate(rich: true)
        let document = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(specimen.files), accessKey: Self.accessKey)
        #expect(document.deniedFiles == [.dg3])
        #expect(document.encodedIdentificationFeaturesFinger == nil)
        #expect(document.displayedPortrait?.images.count == 1)
        #expect(document.displayedSignatureOrUsualMark?.images.count == 1)
        #expect(document.optionalDetails != nil)
        #expect(document.personsToNotify?.persons.first?.name == "ERIKSSON LARS")
        #expect(document.personsToNotify?.persons.first?.nameText == "ERIKSSON<<LARS")
        let hashes = Dictionary(
            uniqueKeysWithValues: document.authenticationStatus.data.dataGroupHashes.map {
                (Int($0.dataGroupNumber), $0.status)
            })
        #expect(
            hashes == [
                1: .valid, 2: .valid, 3: .notRead, 5: .valid, 7: .valid, 11: .valid, 12: .valid, 13: .valid, 14: .valid,
                15: .valid, 16: .valid,
            ])
        #expect(document.authenticationStatus.data.status == .authenticated)
    }

    @Test func withoutTheCSCATheVerdictSaysSo() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(trusting: nil).read(
            transport: Self.openChip(specimen.files), accessKey: Self.accessKey)
        #expect(document.authenticationStatus.data.status == .authorityCertificatesNotProvided)
    }

    @Test func progressEventsInOrder() throws {
        let specimen = try Specimen.generate(rich: true)
        let log = EventLog()
        _ = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(specimen.files), accessKey: Self.accessKey, listener: log)
        let events = log.events.withLock { $0 }
        #expect(events.first == "access" && events.last == "authentication")
        let progress = events.dropFirst().dropLast()
        var files: [Substring] = []
        for event in progress where files.last != event.split(separator: " ")[0] {
            files.append(event.split(separator: " ")[0])
        }
        #expect(
            files == [
                // DG3 (refused) was still estimated at DG16's event: 100 comes after it.
                "sod", "dg14", "dg1", "dg2", "dg5", "dg7", "dg11", "dg12", "dg13", "dg15", "dg16",
            ])
        let percentages = progress.compactMap { Int($0.split(separator: " ")[1]) }
        #expect(percentages == percentages.sorted() && percentages.last == 100 && (percentages.first ?? 100) < 100)
    }

    @Test func cancellationStopsBeforeTheNextAPDU() throws {
        let specimen = try Specimen.generate()
        let chip = Self.openChip(specimen.files)
        let reader = try Self.reader(trusting: specimen)
        let log = EventLog { id in if id == .sod { reader.cancel() } }
        #expect {
            try reader.read(transport: chip, accessKey: Self.accessKey, listener: log)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .cancelled else { return false }
            // What was read is kept: EF.COM and EF.SOD, no data group.
            return error.debugInfo?.filesRead?.filesRead == [.com, .sod]
        }
        // The reader is free again and reads to the end.
        #expect(throws: Never.self) { try reader.read(transport: chip, accessKey: Self.accessKey) }
    }

    @Test func lostChipKeepsWhatWasRead() throws {
        let specimen = try Specimen.generate()
        let chip = Self.openChip(specimen.files, faults: [.tagLost(.readOf(0x0102))])
        #expect {
            try Self.reader(trusting: specimen).read(transport: chip, accessKey: Self.accessKey)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .transport(.TagLost) else { return false }
            // No file is sized before the data groups are read: DG14 (read first) and DG1 are kept.
            return error.debugInfo?.filesRead?.filesRead == [.com, .sod, .dg1, .dg14]
        }
    }

    /// The reference's rule: a read without EF.COM, EF.SOD, DG1 or DG2 (absent or refused) fails
    /// with `read(readingDataGroups)`, one whose EF.COM or DG1 does not parse with
    /// `read(parseMasterFile)`; the files read before are in the error's `debugInfo`.
    @Test(arguments: [LDSFileKind.com, .sod, .dg1, .dg2])
    func aMissingMandatoryFileFailsTheRead(_ kind: LDSFileKind) throws {
        let specimen = try Specimen.generate()
        var absent = specimen.files
        absent.application[kind.fileIdentifier] = nil
        // The read order is EF.COM, EF.SOD, DG14, DG1, DG2: it stops at the missing file.
        let before = [LDSFileKind.com, .sod, .dg14, .dg1].prefix { $0 != kind }
        #expect {
            try Self.reader(trusting: specimen).read(transport: Self.openChip(absent), accessKey: Self.accessKey)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .read(.readingDataGroups) else { return false }
            return error.reason.contains("not on the chip (6A82)")
                && error.debugInfo?.filesRead?.filesRead == LDSFileKind.allCases.filter(before.contains)
        }
        let refused = SimulatedChip(
            configuration: ChipConfiguration(
                files: specimen.files, enforcesAccessControl: false, protectedFiles: [kind.fileIdentifier]))
        #expect {
            try Self.reader(trusting: specimen).read(transport: refused, accessKey: Self.accessKey)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .read(.readingDataGroups) else { return false }
            return error.reason.contains("refused it (6982)")
        }
    }

    @Test(arguments: [LDSFileKind.com, .dg1])
    func anUnparseableMasterFileFailsTheRead(_ kind: LDSFileKind) throws {
        let specimen = try Specimen.generate()
        var malformed = specimen.files
        malformed.application[kind.fileIdentifier] =
            kind == .com ? [0x60, 0x03, 0x5C, 0x02, 0x61] : [0x61, 0x03, 0x5F, 0x1F, 0x00]
        #expect {
            try Self.reader(trusting: specimen).read(transport: Self.openChip(malformed), accessKey: Self.accessKey)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .read(.parseMasterFile) else { return false }
            // What was read is kept.
            return error.debugInfo?.filesRead?[kind] == malformed.application[kind.fileIdentifier]
        }
    }

    /// An optional file the chip does not have is `null`; one it refuses (6982) is
    /// `{"id", "bytes": null}` and listed in `deniedFiles`.
    @Test func absentAndDeniedOptionalFiles() throws {
        let specimen = try Specimen.generate(rich: true)
        var files = specimen.files
        files[dataGroup: 16] = nil
        let chip = SimulatedChip(
            configuration: ChipConfiguration(
                files: files, enforcesAccessControl: false,
                protectedFiles: [ChipFiles.dataGroupIdentifier(3), ChipFiles.dataGroupIdentifier(11)]))
        let document = try Self.reader(trusting: specimen).read(transport: chip, accessKey: Self.accessKey)
        #expect(document.deniedFiles == [.dg11, .dg3])
        let application = try #require(
            JSONValue.parse(travelDocumentToJson(document: document))["ldsMasterFile"]?["lds1EmrtdApplication"])
        #expect(application["dg16"] == .null)
        #expect(application["dg4"] == .null)
        #expect(application["dg11"] == ["id": "dg11", "bytes": .null])
        #expect(application["dg3"] == ["id": "dg3", "bytes": .null])
        #expect(application["dg1"]?["bytes"] != .null)
    }

    @Test func aMalformedSODIsADeniedVerdict() throws {
        let specimen = try Specimen.generate()
        var files = specimen.files
        files.sod = [0x77, 0x02, 0x30, 0x00]
        let document = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(files), accessKey: Self.accessKey)
        #expect(document.authenticationStatus.data.status == .denied)
        #expect(document.warnings.contains { $0.hasPrefix("EF.SOD is malformed") })
    }

    @Test func argumentsAreCheckedBeforeAnyAPDU() throws {
        let specimen = try Specimen.generate()
        let chip = Self.openChip(specimen.files)
        #expect {
            try Self.reader(trusting: specimen).read(
                transport: chip, accessKey: Self.accessKey, activeAuthenticationChallenge: [1, 2, 3])
        } throws: { ($0 as? ReadError)?.kind == .invalidArgument }
        #expect(chip.statistics.exchanges == 0)
        #expect {
            try EmrtdReader(
                config: ReaderConfig(useBuiltInAuthorityCertificates: false, authorityCertificates: [Data("no".utf8)]),
                chipAccess: PlainChipAccess())
        } throws: { ($0 as? ReadError)?.kind == .invalidArgument }
    }

    @Test func outcomeHoldsNoPersonalData() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(specimen.files), accessKey: Self.accessKey)
        let outcome = readOutcome(document: document, error: nil, durationMs: 12)
        #expect(outcome.mrzIssuingState == "UTO" && outcome.mrzDocumentCode == "P" && outcome.resultStatus == "success")
        let text = readOutcomeToJson(outcome: outcome)
        for personal in ["ERIKSSON", "ANNA", "L898902C", "690806", "940623", "ZENITH"] {
            #expect(!text.contains(personal))
        }
        let failed = readOutcome(document: nil, error: ReadError(.accessControl, "refused"), durationMs: 3)
        #expect(
            failed.resultStatus == "failure" && failed.resultError == "access_control"
                && failed.errorReason == "refused")
    }
}
