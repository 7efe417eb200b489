import CMS
import ICAO
import JSON
import LDS

/// A read summarised for statistics and support logs, the reference's `ReadOutcome`: how it ended
/// and how long it took, with no personal data beyond the issuing state and the document code.
public struct ReadOutcome: Sendable, Hashable, JSONRepresentable {
    /// `success` or `failure`.
    public var resultStatus: String
    /// On failure: `invalid_argument`, `access_control`, `chip_authentication`, `connection`,
    /// `reading_data_groups`, `parse_master_file`, `unknown`, `cancelled` or `nfc_unavailable`.
    public var resultError: String?
    public var accessControlProtocol: AccessControlProtocol?
    public var paceMapping: PaceMapping?
    public var chipAuthenticationStatus: ChipStatus?
    public var chipAuthenticationProtocol: ChipProtocol?
    public var dataAuthenticationStatus: DataStatus?
    /// From DG1: the issuing state or organisation ("UTO").
    public var mrzIssuingState: String?
    /// From DG1: the document code ("P", "ID", "AC"…).
    public var mrzDocumentCode: String?
    /// Files present on the chip: read or refused (`com`, `sod`, `dg1`…).
    public var dataGroups: [LDSFileKind]
    /// The duration passed in (the reference's `u64`).
    public var durationMs: UInt64
    /// Added: the error's reason (sentences of this package, never personal data).
    public var errorReason: String?
    /// Added: the files the chip refused, the warnings' count, the link's figures.
    public var deniedFiles: [LDSFileKind]
    public var warningCount: Int
    public var apduCount: Int?
    public var bytesTransferred: Int?

    public var json: JSONValue {
        [
            "resultStatus": .string(resultStatus),
            "resultError": .optional(resultError),
            "accessControlProtocol": .optional(accessControlProtocol),
            "paceMapping": .optional(paceMapping),
            "chipAuthenticationStatus": .optional(chipAuthenticationStatus),
            "chipAuthenticationProtocol": .optional(chipAuthenticationProtocol),
            "dataAuthenticationStatus": .optional(dataAuthenticationStatus.map(\.rawValue)),
            "mrzIssuingState": .optional(mrzIssuingState),
            "mrzDocumentCode": .optional(mrzDocumentCode),
            "dataGroups": .array(dataGroups),
            "durationMs": .integer(Int(clamping: durationMs)),
            "errorReason": .optional(errorReason),
            "deniedFiles": .array(deniedFiles),
            "warningCount": .integer(warningCount),
            "apduCount": .optional(apduCount),
            "bytesTransferred": .optional(bytesTransferred),
        ]
    }
}

/// The outcome of a read that gave `document` or failed with `error` (one of them), taking
/// `durationMs` overall.
public func readOutcome(document: TravelDocument?, error: ReadError?, durationMs: UInt64) -> ReadOutcome {
    let debugInfo = document?.debugInfo ?? error?.debugInfo
    let fields = document?.machineReadableZoneInformation.fields
    let denied = document?.deniedFiles ?? []
    let read = (document?.ldsMasterFile ?? debugInfo?.filesRead)?.filesRead ?? []
    let present = LdsMasterFile.applicationFiles.filter { read.contains($0) || denied.contains($0) }
    return ReadOutcome(
        resultStatus: error == nil && document != nil ? "success" : "failure",
        resultError: error.map(outcomeError) ?? (document == nil ? "unknown" : nil),
        accessControlProtocol: document?.accessControlProtocolUsed,
        paceMapping: document?.paceMapping,
        chipAuthenticationStatus: document?.authenticationStatus.chip.status,
        chipAuthenticationProtocol: document?.authenticationStatus.chip.protocol,
        dataAuthenticationStatus: document?.authenticationStatus.data.status,
        mrzIssuingState: fields?.issuingState,
        mrzDocumentCode: fields?.documentCode,
        dataGroups: present,
        durationMs: durationMs,
        errorReason: error?.reason,
        deniedFiles: denied,
        warningCount: document?.warnings.count ?? 0,
        apduCount: debugInfo?.apduCount,
        bytesTransferred: debugInfo?.bytesTransferred)
}

/// The reference's `resultError`: the error code, `connection` for `not_connected`, and `read`
/// split by its kind.
private func outcomeError(_ error: ReadError) -> String {
    switch error.code {
    case "not_connected": return "connection"
    case "read":
        switch error.readErrorKind {
        case .readingDataGroups: return "reading_data_groups"
        case .parseMasterFile: return "parse_master_file"
        case .unknown, nil: return "unknown"
        }
    default: return error.code
    }
}

/// The outcome as JSON text.
public func readOutcomeToJson(outcome: ReadOutcome, prettyPrinted: Bool = true) -> String {
    outcome.json.serialized(pretty: prettyPrinted)
}
