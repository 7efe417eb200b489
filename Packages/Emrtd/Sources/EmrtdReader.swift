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
    /// The data groups to read (`ReadPlan`'s selection; DG1 and DG2 always); nil for every one.
    public let dataGroups: Set<LDSFileKind>?
    private let running = Mutex<CancellableTransport?>(nil)
    private let busy = Atomic<Bool>(false)

    /// Builds the trust store (`TrustStore.assemble`: the built-in bundle unless switched off,
    /// plus `config.authorityCertificates`; an entry without a certificate is `invalidArgument`).
    /// `chipAccess` opens the chip and reads its files (the `AccessControl` package by default);
    /// `clock` gives the time certificates are checked at, once per read; `dataGroups` narrows
    /// what every read takes (`emrtd serve`'s selection), nil for all the chip has.
    public init(
        config: ReaderConfig = ReaderConfig(), chipAccess: any ChipAccessProcedure = StandardChipAccess(),
        clock: @escaping @Sendable () -> Date = { Date() }, dataGroups: Set<LDSFileKind>? = nil
    ) throws(ReadError) {
        guard config.timeoutMs > 0 else { throw ReadError(.invalidArgument, "timeoutMs must be positive") }
        do throws(CMSError) {
            let assembled = try TrustStore.assemble(
                includingDefaultBundle: config.useBuiltInAuthorityCertificates,
                authorityCertificates: config.authorityCertificates.map { [UInt8]($0) })
            trustStore = assembled.store
            trustStoreWarning = assembled.store.assemblyWarning(defaultBundleProblem: assembled.defaultBundleProblem)
        } catch {
            throw ReadError(.invalidArgument, error.reason)
        }
        self.config = config
        self.chipAccess = chipAccess
        self.clock = clock
        self.dataGroups = dataGroups
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

    /// Reads the document on `transport` (blocking). The access key (`InvalidArgument` naming
    /// the malformed field) and the Active Authentication challenge (8 bytes) are checked before
    /// any APDU. Throws `ReadError`, whose `debugInfo` keeps the files read before the failure.
    public func read(
        transport: any APDUTransport, accessKey: AccessKey, activeAuthenticationChallenge: [UInt8]? = nil,
        listener: (any ReadListener)? = nil
    ) throws(ReadError) -> TravelDocument {
        try read(
            transport: transport, accessPassword: try accessKey.password(),
            activeAuthenticationChallenge: activeAuthenticationChallenge, listener: listener)
    }

    /// The read with a password made beforehand: `AccessPassword.printed(in:)` keeps a zone's
    /// printed check digits, which open a document issued with a wrong one (the CLI's
    /// `--mrz-lines`); an `AccessKey` cannot carry them.
    public func read(
        transport: any APDUTransport, accessPassword accessKey: AccessPassword,
        activeAuthenticationChallenge: [UInt8]? = nil, listener: (any ReadListener)? = nil
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
            selection: dataGroups, terminal: config.terminal)
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

/// The first half of a read, as named steps, and the second half called at its end:
///
/// 1. `openChip`: access control (EF.CardAccess, PACE or BAC), the eMRTD application selected.
/// 2. `readCommonAndSecurityObject`: EF.COM and EF.SOD, which make the `ReadPlan`.
/// 3. `readDataGroups`: the plan's data groups in its order, with the chip protocols where they
///    are due: `runChipProtocolsAfterDataGroup14` (PACE-CAM's check, Chip Authentication) before
///    the first file after DG14, `runActiveAuthentication` before the files a chip may refuse.
/// 4. `finishReading`: what the end of the plan (or a session that ended) leaves due.
/// 5. `assemble`: `assembleTravelDocument` over the file set and the chip's evidence.
///
/// Holds what has been read so far, so that a failure keeps it.
struct ReadProcedure {
    let recorder: DebugRecorder
    let listener: (any ReadListener)?
    let trustStore: TrustStore
    /// When certificates are checked: the reader's clock, read once when the read began.
    let checkTime: Date
    let activeAuthenticationChallenge: [UInt8]?
    let renderImages: Bool
    /// The data groups the caller wants (`ReadPlan`'s selection); nil for every one.
    let selection: Set<LDSFileKind>?
    let terminal: TerminalConfiguration?
    var files = LdsMasterFile()
    /// What acquiring tolerated, in the order it happened.
    var warnings: [String] = []

    init(
        recorder: DebugRecorder, listener: (any ReadListener)?, trustStore: TrustStore, checkTime: Date,
        activeAuthenticationChallenge: [UInt8]?, renderImages: Bool, selection: Set<LDSFileKind>?,
        terminal: TerminalConfiguration?
    ) {
        self.recorder = recorder
        self.listener = listener
        self.trustStore = trustStore
        self.checkTime = checkTime
        self.activeAuthenticationChallenge = activeAuthenticationChallenge
        self.renderImages = renderImages
        self.selection = selection
        self.terminal = terminal
    }

    /// Where the data-group loop stands: which chip protocols are still due, what they need.
    struct DataGroupState {
        /// DG14 parsed, once read (the chip protocols' offers).
        var securityInfos: SecurityOptions?
        var chipProtocolsDue = true
        var activeAuthenticationDue = true
        /// Why the chip ended secure messaging, and the files that were then not read.
        var sessionEnded: String?
        var unread: [LDSFileKind] = []
    }

    mutating func run(link: any APDUTransport, accessKey: AccessPassword, chipAccess: any ChipAccessProcedure)
        throws(ReadError) -> TravelDocument
    {
        let progress = ProgressReporter(listener: listener, recorder: recorder.isEnabled ? recorder : nil)
        var opened = try openChip(link, accessKey: accessKey, chipAccess: chipAccess, progress: progress)
        var chip = ChipAuthenticityProcedure(
            channel: opened.secureChannel, access: opened.access, trustStore: trustStore, checkTime: checkTime,
            recorder: recorder, terminal: terminal)
        let plan = try readCommonAndSecurityObject(with: &opened.fileReader)
        var state = DataGroupState()
        try readDataGroups(plan, with: &opened.fileReader, chip: &chip, state: &state, progress: progress)
        try finishReading(chip: &chip, state: &state, progress: progress)
        return try assemble(access: opened.access, chip: chip)
    }

    /// Step 1: access control opens the chip; EF.CardAccess and EF.CardSecurity join the file set.
    private mutating func openChip(
        _ link: any APDUTransport, accessKey: AccessPassword, chipAccess: any ChipAccessProcedure,
        progress: ProgressReporter
    ) throws(ReadError) -> OpenedChip {
        listener?.onAccessEstablishmentStarted()
        recorder.note("access control started")
        let recorder = self.recorder
        let opened = try chipAccess.open(link, accessKey: accessKey, observer: progress) { recorder.note($0) }
        recorder.note("access control done: \(opened.access.accessControlProtocol.rawValue)")
        files[.cardAccess] = opened.cardAccess
        files[.cardSecurity] = opened.cardSecurity
        warnings += opened.warnings
        return opened
    }

    /// Step 2: EF.COM and EF.SOD, which together say which data groups to read. Both are
    /// mandatory; EF.COM must parse (its tag list plans the read), a malformed EF.SOD is left to
    /// the assembly (a `denied` data verdict).
    private mutating func readCommonAndSecurityObject(with reader: inout FileReader) throws(ReadError)
        -> ReadPlan
    {
        let commonBytes = try readMandatoryFile(.com, with: &reader)
        let common: CommonFile
        do throws(LDSError) {
            common = try CommonFile(commonBytes)
        } catch {
            throw ReadError(.read(.parseMasterFile), "EF.COM is malformed: \(error.reason)")
        }
        let securityObjectBytes = try readMandatoryFile(.sod, with: &reader)
        let securityObject = try? DocumentSecurityObject(bytes: securityObjectBytes)
        let plan = ReadPlan(
            listed: common.dataGroups, hashed: securityObject.map { Array($0.dataGroupHashes.keys) },
            selected: selection)
        recorder.note("read plan: \(plan.dataGroups.map(\.rawValue).joined(separator: " "))")
        return plan
    }

    /// Step 3: the data groups in the plan's order. DG14 comes first, and the chip protocols it
    /// describes run before anything else is read, so that everything after travels under Chip
    /// Authentication's keys (the next answer confirms them); Active Authentication runs before
    /// the files the chip may refuse (unlisted ones, DG3 and DG4), after whose error answer some
    /// chips end secure messaging. Progress needs no read of its own: each file's size is known
    /// once read, the rest are estimated (`ReadProgress`).
    private mutating func readDataGroups(
        _ plan: ReadPlan, with reader: inout FileReader, chip: inout ChipAuthenticityProcedure,
        state: inout DataGroupState, progress: ProgressReporter
    ) throws(ReadError) {
        let order = plan.dataGroups
        progress.begin(done: (files.com?.count ?? 0) + (files.sod?.count ?? 0), remaining: order)
        let dataGroup15Position = order.firstIndex(of: .dg15)
        for (position, kind) in order.enumerated() {
            if state.chipProtocolsDue, !ReadPlan.chipAuthenticationFiles.contains(kind) {
                try runChipProtocolsAfterDataGroup14(&chip, state: &state)
            }
            // (An unlisted DG15 is read first: its key, though unsigned, is the document's.)
            if state.activeAuthenticationDue, plan.mayBeRefused.contains(kind), files.dataGroups[1] != nil,
                dataGroup15Position.map({ $0 < position }) ?? true
            {
                runActiveAuthentication(&chip, state: &state, run: true)
                try chip.terminalAuthentication(dataGroup1: files.dataGroups[1], securityInfos: state.securityInfos)
            }
            progress.reading(kind)
            let outcome = try Self.read(kind, with: &reader)
            try chip.confirm(outcome)
            progress.finished(kind, size: outcome.bytes?.count ?? 0)
            if ReadPlan.mandatoryDataGroups.contains(kind), let missing = Self.missing(kind, outcome) {
                throw ReadError(.read(.readingDataGroups), missing)
            }
            switch outcome {
            case .read(let bytes):
                files[kind] = bytes
            case .absent:
                recorder.note("\(kind.rawValue) is not on the chip")
                chip.keyFileNotDelivered(kind, answer: "6A82, not on the chip")
            case .denied:
                files.deniedFiles.append(kind)
                recorder.note("\(kind.rawValue) denied by the chip")
                chip.keyFileNotDelivered(kind, answer: "6982, refused")
            case .failed(let error) where error.code == .secureMessaging:
                state.sessionEnded = error.reason
                state.unread = Array(order[position...])
                for unread in state.unread {
                    chip.keyFileNotDelivered(unread, answer: "the chip ended secure messaging before it")
                }
                return
            case .failed(let error):
                warnings.append("\(kind.rawValue) could not be read: \(error.reason)")
                chip.keyFileNotDelivered(kind, answer: error.reason)
            }
        }
    }

    /// Step 4: the chip protocols the plan did not reach (it held DG14 alone, or the session
    /// ended), the mandatory data groups checked, then Active Authentication if still due.
    private mutating func finishReading(
        chip: inout ChipAuthenticityProcedure, state: inout DataGroupState, progress: ProgressReporter
    ) throws(ReadError) {
        if state.chipProtocolsDue {
            if state.sessionEnded == nil {
                try runChipProtocolsAfterDataGroup14(&chip, state: &state)
            } else {
                state.securityInfos = dataGroup14()
            }
        }
        if let sessionEnded = state.sessionEnded {
            warnings.append(
                "the chip ended secure messaging (\(sessionEnded)); not read: "
                    + state.unread.map(\.rawValue).joined(separator: ", "))
        }
        progress.complete()
        for kind in ReadPlan.mandatoryDataGroups where files[kind] == nil {
            throw ReadError(
                .read(.readingDataGroups),
                "the chip ended secure messaging before \(kind.rawValue) was read: \(state.sessionEnded ?? "")")
        }
        if state.activeAuthenticationDue {
            runActiveAuthentication(&chip, state: &state, run: state.sessionEnded == nil)
        }
    }

    /// Step 5: the second half, over what was read and what the chip proved.
    private func assemble(access: EstablishedAccess, chip: ChipAuthenticityProcedure) throws(ReadError)
        -> TravelDocument
    {
        listener?.onDataAuthenticationStarted()
        recorder.note("passive authentication started")
        let evidence = ReadEvidence(
            access: access, chipProtocols: chip.judge, warnings: warnings + chip.warnings,
            terminal: chip.terminalAuthenticationStatus, acquisitionEvidence: chip.acquisitionEvidence())
        var document = try assembleTravelDocument(
            files: files, evidence: evidence, trustStore: trustStore, at: checkTime, renderImages: renderImages)
        let (data, chipStatus) = (document.authenticationStatus.data, document.authenticationStatus.chip)
        recorder.note("passive authentication: \(data.status.rawValue)")
        recorder.note("chip verdict: \(chipStatus.status.rawValue) (\(chipStatus.reason))")
        document.debugInfo = recorder.info(filesRead: nil)
        return document
    }

    /// PACE-CAM's check, then Chip Authentication with DG14's offers (`ChipAuthenticityProcedure`).
    private func runChipProtocolsAfterDataGroup14(
        _ chip: inout ChipAuthenticityProcedure, state: inout DataGroupState
    ) throws(ReadError) {
        state.chipProtocolsDue = false
        state.securityInfos = dataGroup14()
        try chip.afterDataGroup14(state.securityInfos, cardSecurity: files[.cardSecurity])
    }

    /// Active Authentication with DG15's key when `run` and the rule calls for it.
    private func runActiveAuthentication(
        _ chip: inout ChipAuthenticityProcedure, state: inout DataGroupState, run: Bool
    ) {
        state.activeAuthenticationDue = false
        guard run else { return }
        var parser = LenientParser(files: files)
        let key = parser.parse(.dg15) { (bytes) throws(LDSError) in try ActiveAuthenticationPublicKey(bytes) }
        chip.activeAuthentication(
            publicKey: key, securityInfos: state.securityInfos, challenge: activeAuthenticationChallenge)
    }

    /// DG14 as the assembly parses it (its warnings are the assembly's to give).
    private func dataGroup14() -> SecurityOptions? {
        var parser = LenientParser(files: files)
        return parser.parse(.dg14) { (bytes) throws(LDSError) in try SecurityOptions(bytes, kind: .dg14) }
    }

    /// Reads EF.COM or EF.SOD, without which there is no document.
    private mutating func readMandatoryFile(_ kind: LDSFileKind, with reader: inout FileReader)
        throws(ReadError) -> [UInt8]
    {
        let outcome = try Self.read(kind, with: &reader)
        if let missing = Self.missing(kind, outcome) { throw ReadError(.read(.readingDataGroups), missing) }
        guard let bytes = outcome.bytes else { return [] }
        files[kind] = bytes
        return bytes
    }

    /// One file's outcome; a link failure ends the read (with the transport's kind).
    private static func read(_ kind: LDSFileKind, with reader: inout FileReader) throws(ReadError)
        -> FileReadOutcome
    {
        let outcome = reader.read(kind)
        if case .failed(let error) = outcome, let transportError = error.channelError?.transportError {
            throw ReadError(transport: transportError, during: "reading \(kind.rawValue)")
        }
        return outcome
    }

    /// Why a mandatory file (EF.COM, EF.SOD, DG1, DG2) is missing, nil when it was read.
    private static func missing(_ kind: LDSFileKind, _ outcome: FileReadOutcome) -> String? {
        let name = kind.fileName
        switch outcome {
        case .read: return nil
        case .absent: return "\(name) is mandatory and is not on the chip (6A82)"
        case .denied: return "\(name) is mandatory and the chip refused it (6982)"
        case .failed(let error) where error.code == .secureMessaging:
            return "the chip ended secure messaging while \(name) was read: \(error.reason)"
        case .failed(let error): return "\(name) is mandatory and could not be read: \(error.reason)"
        }
    }
}
