import ChipSimulator
import Foundation
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
    static let accessKey = try! AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")

    static func openChip(_ files: ChipFiles, faults: [ChipFault] = []) -> SimulatedChip {
        SimulatedChip(configuration: ChipConfiguration(files: files, enforcesAccessControl: false, faults: faults))
    }

    static func reader(trusting specimen: Specimen?, debug: Bool = false) throws -> EmrtdReader {
        try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: specimen.map { [$0.countrySigningCertificate] } ?? [], debug: debug),
            chipAccess: PlainChipAccess())
    }

    /// Records the listener's calls in order.
    final class EventLog: ReadListener {
        let events = Mutex<[String]>([])
        let onProgress: @Sendable (LDSFileKind) -> Void

        init(onProgress: @escaping @Sendable (LDSFileKind) -> Void = { _ in }) { self.onProgress = onProgress }

        func onAccessEstablishmentStarted() { events.withLock { $0.append("access") } }
        func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int) {
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
        #expect(document.machineReadableZoneInformation?.fields.documentNumber == "L898902C")
        #expect(document.encodedIdentificationFeaturesFace?.images.first?.format == .jpeg)
        #expect(document.additionalPersonalDetails?.placeOfBirth == "ZENITH,UTOPIA")
        #expect(document.additionalDocumentDetails?.issuingAuthority == "UTOPIA PASSPORT OFFICE")
        #expect(document.additionalDocumentDetails?.dateOfIssue == LDSDate(value: "19890624", encoding: .bcd))
        #expect(document.additionalPersonalDetails?.fullDateOfBirth == LDSDate(value: "19690806", encoding: .text))
        #expect(document.ldsVersion == "0108" && document.unicodeVersion == "040000")
        #expect(document.authenticationStatus.chip.status == .notSupported)
        #expect(document.ldsMasterFile.filesRead == [.com, .sod, .dg1, .dg2, .dg11, .dg12, .dg14, .dg15])
        #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2])
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect((document.debugInfo?.apduCount ?? 0) > 0 && document.debugInfo?.events.isEmpty == true)
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
        #expect(document.personsToNotify?.persons.first?.name == "ERIKSSON<<LARS")
        let hashes = Dictionary(
            uniqueKeysWithValues: document.authenticationStatus.data.dataGroupHashes.map {
                ($0.dataGroupNumber, $0.status)
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
        #expect(
            progress.map { $0.split(separator: " ")[0] } == [
                // DG3 (refused) was still estimated at DG16's event: 100 comes after it.
                "sod", "dg14", "dg1", "dg2", "dg5", "dg7", "dg11", "dg12", "dg13", "dg15", "dg16", "dg16",
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
            guard let error = error as? ReadError, error.kind == .transport(.tagLost) else { return false }
            // No file is sized before the data groups are read: DG14 (read first) and DG1 are kept.
            return error.debugInfo?.filesRead?.filesRead == [.com, .sod, .dg1, .dg14]
        }
    }

    @Test func missingMandatoryFiles() throws {
        let specimen = try Specimen.generate()
        var noSOD = specimen.files
        noSOD.sod = nil
        let withoutSOD = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(noSOD), accessKey: Self.accessKey)
        #expect(withoutSOD.authenticationStatus.data.status == .denied)
        #expect(withoutSOD.warnings.contains("EF.SOD is not on the chip (6A82)"))

        var noDG2 = specimen.files
        noDG2[dataGroup: 2] = nil
        let withoutFace = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(noDG2), accessKey: Self.accessKey)
        #expect(withoutFace.authenticationStatus.data.status == .denied)
        #expect(withoutFace.warnings.contains { $0.hasPrefix("dg2 is mandatory but was not read") })

        var noDG1 = specimen.files
        noDG1[dataGroup: 1] = nil
        #expect {
            try Self.reader(trusting: specimen).read(transport: Self.openChip(noDG1), accessKey: Self.accessKey)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .read(.readingDataGroups) else { return false }
            return error.debugInfo?.filesRead?.filesRead == [.com, .sod, .dg2, .dg11, .dg12, .dg14, .dg15]
        }

        var badCOM = specimen.files
        badCOM.com = [0x60, 0x03, 0x5C, 0x02, 0x61]
        let tolerated = try Self.reader(trusting: specimen).read(
            transport: Self.openChip(badCOM), accessKey: Self.accessKey)
        #expect(tolerated.warnings.contains { $0.hasPrefix("EF.COM is malformed") })
        #expect(tolerated.authenticationStatus.data.status == .authenticated)
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
                config: ReaderConfig(useBuiltInAuthorityCertificates: false, authorityCertificates: [Array("no".utf8)]),
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
