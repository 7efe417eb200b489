import AccessControl
import CMS
import Foundation
import LDS
import MRZ
import Synchronization
import Transport

/// Reads an electronic travel document: opens the chip, reads its files, checks that the data is
/// what the issuing state signed and that the chip is genuine, and returns a `TravelDocument`.
///
/// One read at a time per reader (a second concurrent `read` fails with `invalidArgument`);
/// `cancel()` from any thread stops the running read before its next APDU.
public final class EmrtdReader: Sendable {
    public let config: ReaderConfig
    private let trustStore: TrustStore
    /// What is amiss with the trusted CSCAs (none at all, or the built-in bundle unavailable), told
    /// in every document's warnings (`TrustStore.assemblyWarning`).
    public let trustStoreWarning: String?
    private let chipAccess: any ChipAccessProcedure
    private let clock: @Sendable () -> Date
    private let running = Mutex<CancellableTransport?>(nil)
    private let busy = Atomic<Bool>(false)

    /// Builds the trust store (`TrustStore.assemble`: the built-in bundle unless switched off,
    /// plus `config.authorityCertificates`; an entry without a certificate is `invalidArgument`).
    /// `chipAccess` opens the chip and reads its files (the `AccessControl` package by default);
    /// `clock` gives the time certificates are checked at, once per read.
    public init(
        config: ReaderConfig = ReaderConfig(), chipAccess: any ChipAccessProcedure = StandardChipAccess(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(ReadError) {
        guard config.timeoutMs > 0 else { throw ReadError(.invalidArgument, "timeoutMs must be positive") }
        do throws(CMSError) {
            let assembled = try TrustStore.assemble(
                includingDefaultBundle: config.useBuiltInAuthorityCertificates,
                authorityCertificates: config.authorityCertificates)
            trustStore = assembled.store
            trustStoreWarning = assembled.store.assemblyWarning(defaultBundleProblem: assembled.defaultBundleProblem)
        } catch {
            throw ReadError(.invalidArgument, error.reason)
        }
        self.config = config
        self.chipAccess = chipAccess
        self.clock = clock
    }

    /// Stops the running read before its next APDU; it fails with `cancelled`. No effect when
    /// no read runs.
    public func cancel() {
        running.withLock { $0?.cancel() }
    }

    /// The reference's read: over a host's `CardTransport` (raw bytes in and out), the challenge
    /// as `Data`. Otherwise as the typed read below.
    public func read(
        transport: any CardTransport, accessKey: AccessKey, activeAuthenticationChallenge: Data?,
        listener: (any ReadListener)?
    ) throws(ReadError) -> TravelDocument {
        try read(
            transport: CardTransportLink(transport), accessKey: accessKey,
            activeAuthenticationChallenge: activeAuthenticationChallenge.map { [UInt8]($0) }, listener: listener)
    }

    /// Reads the document on `transport` (blocking). The access key and the Active
    /// Authentication challenge (8 bytes) are checked before any APDU. Throws `ReadError`, whose
    /// `debugInfo` keeps the files read before the failure.
    public func read(
        transport: any APDUTransport, accessKey: AccessKey, activeAuthenticationChallenge: [UInt8]? = nil,
        listener: (any ReadListener)? = nil
    ) throws(ReadError) -> TravelDocument {
        if let challenge = activeAuthenticationChallenge, challenge.count != 8 {
            throw ReadError(
                .invalidArgument, "the Active Authentication challenge must be 8 bytes, got \(challenge.count)")
        }
        guard busy.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else {
            throw ReadError(.invalidArgument, "a read is already running on this reader")
        }
        defer { busy.store(false, ordering: .sequentiallyConsistent) }
        let recorder = DebugRecorder(isEnabled: config.debug)
        let link = CancellableTransport(
            RecordingTransport(
                DeadlineTransport(transport, timeout: .milliseconds(config.timeoutMs)), recorder: recorder))
        running.withLock { $0 = link }
        defer { running.withLock { $0 = nil } }

        var procedure = ReadProcedure(
            recorder: recorder, listener: listener, trustStore: trustStore, checkTime: clock(),
            activeAuthenticationChallenge: activeAuthenticationChallenge, renderImages: config.renderImages,
            terminal: config.terminal)
        if let trustStoreWarning { procedure.warnings.append(trustStoreWarning) }
        do throws(ReadError) {
            return try procedure.run(link: link, accessKey: accessKey, chipAccess: chipAccess)
        } catch {
            var failure = error
            if link.isCancelled, failure.kind != .cancelled {
                failure = ReadError(.cancelled, "the read was cancelled (\(error.reason))")
            }
            recorder.note("read failed: \(readErrorMessage(error: failure))")
            failure.debugInfo = recorder.info(filesRead: procedure.files)
            throw failure
        }
    }
}

/// One read, step by step: open the chip, read EF.COM and EF.SOD, the data groups in the order
/// of the `ReadPlan`, then Passive Authentication and the chip verdict. Holds what has been read
/// so far, so that a failure keeps it.
struct ReadProcedure {
    let recorder: DebugRecorder
    let listener: (any ReadListener)?
    let trustStore: TrustStore
    /// When certificates are checked: the reader's clock, read once when the read began.
    let checkTime: Date
    let activeAuthenticationChallenge: [UInt8]?
    let renderImages: Bool
    let terminal: TerminalConfiguration?
    var files = LdsMasterFile()
    var warnings: [String] = []
    var deniedFiles: [LDSFileKind] = []

    init(
        recorder: DebugRecorder, listener: (any ReadListener)?, trustStore: TrustStore, checkTime: Date,
        activeAuthenticationChallenge: [UInt8]?, renderImages: Bool, terminal: TerminalConfiguration?
    ) {
        self.recorder = recorder
        self.listener = listener
        self.trustStore = trustStore
        self.checkTime = checkTime
        self.activeAuthenticationChallenge = activeAuthenticationChallenge
        self.renderImages = renderImages
        self.terminal = terminal
    }

    mutating func run(link: any APDUTransport, accessKey: AccessKey, chipAccess: any ChipAccessProcedure)
        throws(ReadError) -> TravelDocument
    {
        listener?.onAccessEstablishmentStarted()
        recorder.note("access control started")
        let recorder = self.recorder
        let progress = ProgressReporter(listener: listener, recorder: recorder.isEnabled ? recorder : nil)
        let opened = try chipAccess.open(link, accessKey: accessKey, observer: progress) { recorder.note($0) }
        recorder.note("access control done: \(opened.access.accessControlProtocol.rawValue)")
        files.cardAccess = opened.cardAccess
        files.cardSecurity = opened.cardSecurity
        warnings += opened.warnings
        var chip = ChipAuthenticityProcedure(
            channel: opened.channel, access: opened.access, trustStore: trustStore, checkTime: checkTime,
            recorder: recorder, terminal: terminal)

        // EF.COM and EF.SOD first: together they say which data groups to read. Both are
        // mandatory; EF.COM must parse, a malformed EF.SOD is a `denied` data verdict.
        let commonBytes = try readMandatoryFile(.com, with: opened.files)
        let common: CommonFile
        do throws(LDSError) {
            common = try CommonFile(commonBytes)
        } catch {
            throw ReadError(.read(.parseMasterFile), "EF.COM is malformed: \(error.reason)")
        }
        let securityObjectBytes = try readMandatoryFile(.sod, with: opened.files)
        var securityObject: DocumentSecurityObject?
        do throws(CMSError) {
            securityObject = try DocumentSecurityObject(bytes: securityObjectBytes)
        } catch {
            warnings.append("EF.SOD is malformed: \(error.reason)")
        }
        let plan = ReadPlan(
            listed: common.dataGroups, hashed: securityObject.map { Array($0.dataGroupHashes.keys) })
        let order = plan.dataGroups
        recorder.note("read plan: \(order.map(\.rawValue).joined(separator: " "))")

        // Progress without a read of its own: each file's size is known once read, the rest
        // are estimated (`ReadProgress`); the bytes of the file being read count as they arrive.
        var sessionEnded: String?
        var unread: [LDSFileKind] = []
        progress.begin(done: (files.com?.count ?? 0) + (files.sod?.count ?? 0), remaining: order)
        // DG14 first (the read plan's order): the chip protocols it describes run before anything
        // else is read, so that everything after travels under Chip Authentication's keys, and
        // the next answer, under those keys, confirms it.
        var securityInfos: SecurityInfos?
        var chipProtocolsDue = true
        // Active Authentication runs before the files the chip may refuse (unlisted ones, DG3 and
        // DG4), after whose error answer some chips end secure messaging.
        var activeAuthenticationKey: ActiveAuthenticationPublicKey?
        var activeAuthenticationDue = true
        let dataGroup15Position = order.firstIndex(of: .dg15)
        reading: for (position, kind) in order.enumerated() {
            if chipProtocolsDue, !ReadPlan.chipAuthenticationFiles.contains(kind) {
                chipProtocolsDue = false
                securityInfos = parsed(.dg14) { (bytes) throws(LDSError) in try SecurityInfos(bytes, kind: .dg14) }
                try chip.afterDataGroup14(securityInfos, cardSecurity: files.cardSecurity)
            }
            // (An unlisted DG15 is read first: its key, though unsigned, is the document's.)
            if activeAuthenticationDue, plan.mayBeRefused.contains(kind), files.dataGroups[1] != nil,
                dataGroup15Position.map({ $0 < position }) ?? true
            {
                activeAuthenticationDue = false
                activeAuthenticationKey = activeAuthentication(&chip, securityInfos: securityInfos, run: true)
                try chip.terminalAuthentication(dataGroup1: files.dataGroups[1], securityInfos: securityInfos)
            }
            progress.reading(kind)
            let result = try opened.files.read(kind)
            try chip.confirm(result)
            progress.finished(kind, size: { if case .success(let bytes) = result { bytes.count } else { 0 } }())
            if ReadPlan.mandatoryDataGroups.contains(kind), let missing = Self.missing(kind, result) {
                throw ReadError(.read(.readingDataGroups), missing)
            }
            switch result {
            case .success(let bytes):
                files[kind] = bytes
            case .notFound:
                recorder.note("\(kind.rawValue) is not on the chip")
            case .denied:
                deny(kind)
            case .failed(let reason):
                warnings.append("\(kind.rawValue) could not be read: \(reason)")
            case .sessionEnded(let reason):
                sessionEnded = reason
                unread = Array(order.drop(while: { $0 != kind }))
                break reading
            }
        }
        if chipProtocolsDue {
            // The plan held DG14 alone (or the session ended while it was read).
            securityInfos = parsed(.dg14) { (bytes) throws(LDSError) in try SecurityInfos(bytes, kind: .dg14) }
            if sessionEnded == nil { try chip.afterDataGroup14(securityInfos, cardSecurity: files.cardSecurity) }
        }
        if let sessionEnded {
            warnings.append(
                "the chip ended secure messaging (\(sessionEnded)); not read: \(unread.map(\.rawValue).joined(separator: ", "))"
            )
        }
        progress.complete()
        for kind in ReadPlan.mandatoryDataGroups where files[kind] == nil {
            throw ReadError(
                .read(.readingDataGroups),
                "the chip ended secure messaging before \(kind.rawValue) was read: \(sessionEnded ?? "")")
        }
        let machineReadableZone: MachineReadableZone
        do throws(LDSError) {
            machineReadableZone = try MRZDataGroup(files.dataGroups[1] ?? []).machineReadableZone
        } catch {
            throw ReadError(.read(.parseMasterFile), "DG1 is malformed: \(error.reason)")
        }

        if activeAuthenticationDue {
            activeAuthenticationKey = activeAuthentication(
                &chip, securityInfos: securityInfos, run: sessionEnded == nil)
        }

        listener?.onDataAuthenticationStarted()
        recorder.note("passive authentication started")
        let data = passiveAuthentication(securityObject: securityObject)
        recorder.note("passive authentication: \(data.status.rawValue)")
        warnings += chip.warnings
        let chipStatus = ChipVerdict.decide(chip.evidence(data: data))
        recorder.note("chip verdict: \(chipStatus.status.rawValue) (\(chipStatus.reason))")
        return document(
            opened: opened, common: common, machineReadableZone: machineReadableZone, data: data, chip: chipStatus,
            terminal: chip.terminalAuthenticationStatus, securityInfos: securityInfos,
            activeAuthenticationKey: activeAuthenticationKey)
    }

    /// DG15's key, and Active Authentication with it when `run` and the rule calls for it.
    private mutating func activeAuthentication(
        _ chip: inout ChipAuthenticityProcedure, securityInfos: SecurityInfos?, run: Bool
    ) -> ActiveAuthenticationPublicKey? {
        let key = parsed(.dg15) { (bytes) throws(LDSError) in try ActiveAuthenticationPublicKey(bytes) }
        if run {
            chip.activeAuthentication(
                publicKey: key, securityInfos: securityInfos, challenge: activeAuthenticationChallenge)
        }
        return key
    }

    /// Reads EF.COM or EF.SOD, without which there is no document.
    private mutating func readMandatoryFile(_ kind: LDSFileKind, with reader: any ElementaryFileReader)
        throws(ReadError) -> [UInt8]
    {
        let result = try reader.read(kind)
        if let missing = Self.missing(kind, result) { throw ReadError(.read(.readingDataGroups), missing) }
        guard case .success(let bytes) = result else { return [] }
        files[kind] = bytes
        return bytes
    }

    /// Why a mandatory file (EF.COM, EF.SOD, DG1, DG2) is missing, nil when it was read.
    private static func missing(_ kind: LDSFileKind, _ result: FileReadResult<[UInt8]>) -> String? {
        let name = kind == .com ? "EF.COM" : kind == .sod ? "EF.SOD" : kind.rawValue
        switch result {
        case .success: return nil
        case .notFound: return "\(name) is mandatory and is not on the chip (6A82)"
        case .denied: return "\(name) is mandatory and the chip refused it (6982)"
        case .failed(let reason): return "\(name) is mandatory and could not be read: \(reason)"
        case .sessionEnded(let reason): return "the chip ended secure messaging while \(name) was read: \(reason)"
        }
    }

    /// The model of a file read, nil when it was not read or does not parse (a warning).
    private mutating func parsed<Model: LDSFileModel>(
        _ kind: LDSFileKind, _ parse: ([UInt8]) throws(LDSError) -> Model
    ) -> Model? {
        guard let bytes = files[kind] else { return nil }
        let result = LDSFileParser.leniently(kind) { () throws(LDSError) in try parse(bytes) }
        warnings += result.warnings
        return result.model
    }

    private mutating func deny(_ kind: LDSFileKind) {
        deniedFiles.append(kind)
        recorder.note("\(kind.rawValue) denied by the chip")
    }

    /// Passive Authentication over what was read; without EF.SOD the verdict is `denied`.
    private func passiveAuthentication(securityObject: DocumentSecurityObject?) -> DataAuthenticationStatus {
        guard let securityObject else {
            var verdict = PassiveAuthentication.verify(
                securityObject: files.sod ?? [], dataGroups: files.dataGroups, trustStore: trustStore, at: checkTime)
            verdict.status = .denied
            if files.sod == nil {
                // Without EF.SOD there is nothing to check against: say that, not "malformed".
                verdict.errors = [.malformedSignedData("EF.SOD was not read, so no signature or hash can be checked")]
            }
            return verdict
        }
        return PassiveAuthentication.verify(
            securityObject, dataGroups: files.dataGroups, trustStore: trustStore, at: checkTime)
    }

    /// Parses every file read into the document; a file that does not parse is a warning.
    private mutating func document(
        opened: OpenedChip, common: CommonFile, machineReadableZone: MachineReadableZone,
        data: DataAuthenticationStatus, chip: ChipAuthenticationStatus, terminal: TerminalAuthenticationStatus,
        securityInfos: SecurityInfos?,
        activeAuthenticationKey: ActiveAuthenticationPublicKey?
    ) -> TravelDocument {
        let renderImages = self.renderImages
        var document = TravelDocument(
            ldsMasterFile: files, ldsVersion: common.ldsVersion, unicodeVersion: common.unicodeVersion,
            accessControlProtocolUsed: opened.access.accessControlProtocol, paceMapping: opened.access.paceMapping,
            pace: opened.access.paceResult,
            authenticationStatus: AuthenticationStatus(data: data, chip: chip, terminal: terminal),
            machineReadableZoneInformation: machineReadableZone,
            encodedIdentificationFeaturesFace: parsed(.dg2) { (bytes) throws(LDSError) in
                try BiometricDataGroup(bytes, kind: .dg2, renderImages: renderImages)
            },
            encodedIdentificationFeaturesFinger: parsed(.dg3) { (bytes) throws(LDSError) in
                try BiometricDataGroup(bytes, kind: .dg3, renderImages: renderImages)
            },
            encodedIdentificationFeaturesIris: parsed(.dg4) { (bytes) throws(LDSError) in
                try BiometricDataGroup(bytes, kind: .dg4, renderImages: renderImages)
            },
            displayedPortrait: parsed(.dg5) { (bytes) throws(LDSError) in
                try DisplayedImageDataGroup(bytes, kind: .dg5, renderImages: renderImages)
            },
            displayedSignatureOrUsualMark: parsed(.dg7) { (bytes) throws(LDSError) in
                try DisplayedImageDataGroup(bytes, kind: .dg7, renderImages: renderImages)
            },
            additionalPersonalDetails: parsed(.dg11) { (bytes) throws(LDSError) in
                try AdditionalPersonalDetails(bytes, renderImages: renderImages)
            },
            additionalDocumentDetails: parsed(.dg12) { (bytes) throws(LDSError) in
                try AdditionalDocumentDetails(bytes, renderImages: renderImages)
            },
            optionalDetails: parsed(.dg13) { (bytes) throws(LDSError) in try OptionalDetails(bytes) },
            securityOptions: securityInfos,
            activeAuthenticationPublicKeyInfo: activeAuthenticationKey,
            personsToNotify: parsed(.dg16) { (bytes) throws(LDSError) in try PersonsToNotify(bytes) },
            deniedFiles: deniedFiles, warnings: [], debugInfo: nil)
        document.warnings = warnings
        document.debugInfo = recorder.info(filesRead: nil)
        return document
    }
}
