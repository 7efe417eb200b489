import AccessControl
import CMS
import Foundation
import JSON
import LDS
import MRZ

/// What acquiring the files learned beside the files themselves: how the chip was opened, what
/// its protocols proved, what was tolerated. A dump has no chip (`dump`).
public struct ReadEvidence: Sendable {
    /// Which protocol opened the chip (for PACE its mapping, parameters and PACE-CAM data).
    public var access: EstablishedAccess
    /// The chip protocols' outcomes, judged once Passive Authentication has spoken (a key from
    /// DG14 or DG15 counts only when that data group is authenticated); nil when no chip answered
    /// (a dump), whose chip verdict is `notSupported`.
    public var chipProtocols: (@Sendable (DataAuthenticationStatus) -> ChipEvidence)?
    /// What acquiring tolerated (BAC instead of PACE, a file that could not be read, a session
    /// that ended early, a chip protocol not run), first among the document's warnings.
    public var warnings: [String]
    /// Whether Terminal Authentication opened DG3 and DG4, and why not.
    public var terminal: TerminalAuthenticationStatus
    /// What the read proved as values (`evidence.json`), handed on to the document.
    public var acquisitionEvidence: AcquisitionEvidence?

    public init(
        access: EstablishedAccess, chipProtocols: (@Sendable (DataAuthenticationStatus) -> ChipEvidence)?,
        warnings: [String] = [], terminal: TerminalAuthenticationStatus = .notConfigured,
        acquisitionEvidence: AcquisitionEvidence? = nil
    ) {
        self.access = access
        self.chipProtocols = chipProtocols
        self.warnings = warnings
        self.terminal = terminal
        self.acquisitionEvidence = acquisitionEvidence
    }

    /// Files from a dump folder: no chip answered. The access protocol is the one the dump's
    /// `evidence.json` names; without it (older dumps, other tools') the document says BAC, the
    /// one every eMRTD has. The chip verdict says it came from a dump.
    public static func dump(warnings: [String] = [], acquisitionEvidence: AcquisitionEvidence? = nil) -> ReadEvidence {
        ReadEvidence(
            access: acquisitionEvidence?.access.established ?? .bac, chipProtocols: nil, warnings: warnings,
            terminal: TerminalAuthenticationStatus(
                .notRun, "the files come from a dump, not a chip: no terminal authenticated to it"),
            acquisitionEvidence: acquisitionEvidence)
    }
}

/// The second half of every read: a `TravelDocument` from a file set and the chip's evidence, by
/// the reference's rules. The chip read (`EmrtdReader`), `emrtd report DIR` and `emrtd serve`
/// make their documents here, so that the same files give the same verdicts everywhere.
///
/// - EF.COM, EF.SOD, DG1 and DG2 are mandatory: one missing or refused is
///   `ReadError.Read(readingDataGroups)`; EF.COM or DG1 malformed is `parseMasterFile`.
/// - Passive Authentication over the bytes as given, at `checkTime`, with DG1's issuing state
///   (the CSCA's country must match it); a malformed EF.SOD is a `denied` data verdict and a
///   warning.
/// - The chip verdict from `evidence.chipProtocols`; for a dump, judged again offline from its
///   recorded evidence (`OfflineChipVerdict`: without any, not `authenticated`).
/// - Every optional file parsed leniently: one that does not parse is nil and a warning.
public func assembleTravelDocument(
    files: LdsMasterFile, evidence: ReadEvidence, trustStore: TrustStore, at checkTime: Date, renderImages: Bool
) throws(ReadError) -> TravelDocument {
    for kind in [LDSFileKind.com, .sod] + ReadPlan.mandatoryDataGroups where files[kind] == nil {
        let refused = files.deniedFiles.contains(kind) ? "the chip refused it (6982)" : "it is not among the files"
        throw ReadError(.read(.readingDataGroups), "\(kind.fileName) is mandatory and \(refused)")
    }
    let common: CommonFile
    do throws(LDSError) {
        common = try CommonFile(files.com ?? [])
    } catch {
        throw ReadError(.read(.parseMasterFile), "EF.COM is malformed: \(error.reason)")
    }
    let data = DataAuthentication(files, trustStore: trustStore, at: checkTime)
    guard let machineReadableZone = data.machineReadableZone else {
        throw ReadError(.read(.parseMasterFile), "DG1 is malformed: \(data.dataGroup1Problem ?? "")")
    }
    var parser = LenientParser(files: files)
    parser.warnings =
        evidence.warnings + (data.securityObjectProblem.map { ["EF.SOD is malformed: \($0)"] } ?? [])
        + data.deviationWarnings
    let securityOptions = parser.parse(.dg14) { (bytes) throws(LDSError) in try SecurityOptions(bytes, kind: .dg14) }
    let activeAuthenticationKey = parser.parse(.dg15) { (bytes) throws(LDSError) in
        try ActiveAuthenticationPublicKey(bytes)
    }
    // A dump's chip is judged again from its evidence, as `emrtd verify --dir` judges it.
    let chip =
        evidence.chipProtocols.map { ChipVerdict.decide($0(data.verdict)) }
        ?? OfflineChipVerdict.decide(
            evidence: evidence.acquisitionEvidence, files: files, data: data.verdict, trustStore: trustStore,
            at: checkTime)
    var document = TravelDocument(
        ldsMasterFile: files, ldsVersionRaw: common.ldsVersion, unicodeVersionRaw: common.unicodeVersion,
        accessControlProtocolUsed: evidence.access.accessControlProtocol, paceMapping: evidence.access.paceMapping,
        pace: evidence.access.paceResult,
        authenticationStatus: AuthenticationStatus(data: data.verdict, chip: chip, terminal: evidence.terminal),
        machineReadableZoneInformation: MachineReadableZoneInformation(machineReadableZone),
        encodedIdentificationFeaturesFace: parser.parse(.dg2) { (bytes) throws(LDSError) in
            try EncodedIdentificationFeaturesFace(bytes, renderImages: renderImages)
        } ?? .empty,
        encodedIdentificationFeaturesFinger: parser.parse(.dg3) { (bytes) throws(LDSError) in
            try EncodedIdentificationFeatures(bytes, kind: .dg3, renderImages: renderImages)
        },
        encodedIdentificationFeaturesIris: parser.parse(.dg4) { (bytes) throws(LDSError) in
            try EncodedIdentificationFeatures(bytes, kind: .dg4, renderImages: renderImages)
        },
        displayedPortrait: parser.parse(.dg5) { (bytes) throws(LDSError) in
            try DisplayedPortrait(bytes, renderImages: renderImages)
        },
        displayedSignatureOrUsualMark: parser.parse(.dg7) { (bytes) throws(LDSError) in
            try DisplayedSignatureOrUsualMark(bytes, renderImages: renderImages)
        },
        additionalPersonalDetails: parser.parse(.dg11) { (bytes) throws(LDSError) in
            try AdditionalPersonalDetails(bytes, renderImages: renderImages)
        },
        additionalDocumentDetails: parser.parse(.dg12) { (bytes) throws(LDSError) in
            try AdditionalDocumentDetails(bytes, renderImages: renderImages)
        },
        optionalDetails: parser.parse(.dg13) { (bytes) throws(LDSError) in try OptionalDetails(bytes) },
        securityOptions: securityOptions,
        activeAuthenticationPublicKeyInfo: activeAuthenticationKey?.publicKey,
        personsToNotify: parser.parse(.dg16) { (bytes) throws(LDSError) in try PersonsToNotify(bytes) },
        warnings: [], debugInfo: .empty, acquisitionEvidence: evidence.acquisitionEvidence)
    document.warnings = parser.warnings
    return document
}

/// `emrtd verify` as a library call: Passive Authentication of a file set (a dump folder, or a
/// lone EF.SOD: what a caller has is checked, and the data is authenticated only when DG1 and DG2
/// were both checked against EF.SOD), the `DocumentChecks` of its DG1, and whether it passes.
/// Unlike the assembly it needs no EF.COM, DG1 or DG2: a partial file set has a verdict too.
public struct FileSetVerification: Sendable {
    /// Passive Authentication's verdict, with DG1's issuing state when DG1 parses.
    public let data: DataAuthenticationStatus
    /// DG1's validity and expiry, the page against DG1, strict mode (with the chip verdict when
    /// it was judged: a `denied` chip fails strict mode, as online).
    public let checks: DocumentChecks
    /// The chip verdict judged again from the dump's evidence (`OfflineChipVerdict`); nil when
    /// not asked for (a lone EF.SOD).
    public let chip: ChipAuthenticationStatus?
    /// The caller's warnings (trust, files left out), a DG1 that does not parse, then the checks'.
    public let warnings: [String]
    /// `emrtd verify`'s exit 0: the data authenticated and, with `strict`, the document accepted
    /// (`checks.accepted`, the one rule of "accepted").
    public let passes: Bool

    /// Throws `invalidArgument` when the file set holds no EF.SOD or one that does not parse (the
    /// reason is the parser's): there is nothing to verify against.
    public init(
        files: LdsMasterFile, trustStore: TrustStore, at checkTime: Date, printedZone: MachineReadableZone? = nil,
        strict: Bool = false, warnings: [String] = [], chipEvidence: OfflineChipEvidence? = nil
    ) throws(ReadError) {
        guard files.sod != nil else { throw ReadError(.invalidArgument, "the file set holds no EF.SOD") }
        let authentication = DataAuthentication(files, trustStore: trustStore, at: checkTime)
        if let problem = authentication.securityObjectProblem { throw ReadError(.invalidArgument, problem) }
        data = authentication.verdict
        chip = chipEvidence.map {
            OfflineChipVerdict.decide(
                evidence: $0.recorded, files: files, data: authentication.verdict, trustStore: trustStore,
                at: checkTime, challenge: $0.challenge)
        }
        checks = DocumentChecks(
            data: data, chip: chip, chipZone: authentication.machineReadableZone, printedZone: printedZone,
            at: checkTime)
        self.warnings =
            warnings + (authentication.dataGroup1Problem.map { ["DG1 does not parse: \($0)"] } ?? [])
            + authentication.deviationWarnings + checks.warnings
        passes = data.status == .authenticated && (!strict || checks.accepted)
    }

    /// What `emrtd verify --dir` prints: the Passive Authentication verdict's JSON with `checks`
    /// and `warnings` added, and `chip` (shaped as `authenticationStatus.chip`) when judged.
    public var json: JSONValue {
        guard case .object(let members) = data.json else { return data.json }
        return .object(
            members + (chip.map { [JSONMember("chip", $0.json)] } ?? []) + [
                JSONMember("checks", checks.json), JSONMember("warnings", .array(warnings.map(JSONValue.string))),
            ])
    }
}

/// What the chip verdict of a dump is judged from: its `evidence.json` (nil when it has none) and
/// the challenge the caller chose, if any.
public struct OfflineChipEvidence: Sendable {
    public let recorded: AcquisitionEvidence?
    public let challenge: [UInt8]?

    public init(recorded: AcquisitionEvidence?, challenge: [UInt8]? = nil) {
        self.recorded = recorded
        self.challenge = challenge
    }
}

/// Passive Authentication of a file set, with DG1's issuing state: the one data verdict of the
/// assembly and of `FileSetVerification`.
struct DataAuthentication {
    var verdict: DataAuthenticationStatus
    /// DG1 parsed; nil when absent or malformed.
    var machineReadableZone: MachineReadableZone?
    /// Why DG1 does not parse, when it is there and does not.
    var dataGroup1Problem: String?
    /// Why EF.SOD does not parse, when it is there and does not.
    var securityObjectProblem: String?

    init(_ files: LdsMasterFile, trustStore: TrustStore, at checkTime: Date) {
        if let dataGroup1 = files[.dg1] {
            do throws(LDSError) {
                machineReadableZone = try MRZDataGroup(dataGroup1).machineReadableZone
            } catch {
                dataGroup1Problem = error.reason
            }
        }
        let fields = machineReadableZone?.fields
        let securityObject: DocumentSecurityObject
        do throws(CMSError) {
            securityObject = try DocumentSecurityObject(bytes: files.sod ?? [])
        } catch {
            if files.sod != nil { securityObjectProblem = error.reason }
            verdict = PassiveAuthentication.verify(
                securityObject: files.sod ?? [], dataGroups: files.dataGroups, trustStore: trustStore, at: checkTime,
                issuingState: fields?.issuingState, documentCode: fields?.documentCode,
                documentNumber: fields?.documentNumber)
            verdict.status = .denied
            if files.sod == nil {
                // Without EF.SOD there is nothing to check against: say that, not "malformed".
                verdict.failures = [.malformedSignedData("EF.SOD was not read, so no signature or hash can be checked")]
            }
            return
        }
        verdict = PassiveAuthentication.verify(
            securityObject, dataGroups: files.dataGroups, trustStore: trustStore, at: checkTime,
            issuingState: fields?.issuingState, documentCode: fields?.documentCode,
            documentNumber: fields?.documentNumber)
    }

    /// The known defects the issuing state's deviation lists name for this document: warnings
    /// too, whatever the verdict (a listed defect stays visible).
    var deviationWarnings: [String] {
        verdict.failures.filter { $0.code == "listedDeviation" }.map(\.description)
    }
}

/// Parses the optional files of a set leniently: one that does not parse is nil and a warning.
struct LenientParser {
    let files: LdsMasterFile
    var warnings: [String] = []

    mutating func parse<Model: LDSFileModel>(
        _ kind: LDSFileKind, _ parse: ([UInt8]) throws(LDSError) -> Model
    ) -> Model? {
        guard let bytes = files[kind] else { return nil }
        let result = LDSFileParser.leniently(kind) { () throws(LDSError) in try parse(bytes) }
        warnings += result.warnings
        return result.model
    }
}

extension LDSFileKind {
    /// The name messages give the file: "EF.COM", "EF.SOD", "dg1".
    var fileName: String { self == .com ? "EF.COM" : self == .sod ? "EF.SOD" : rawValue }
}
