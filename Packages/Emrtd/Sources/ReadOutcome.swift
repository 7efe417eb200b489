import ICAO
import JSON
import LDS

/// A read summarised for statistics and support logs: how it ended and how long it took, with no
/// personal data beyond the issuing state and the document code.
public struct ReadOutcome: Sendable, Hashable, JSONRepresentable {
    /// `success`, or the error's type (`accessControl`, `read`, `tagLost`…).
    public var result: String
    /// For `read` errors: `readingDataGroups`, `parseMasterFile` or `unknown`.
    public var errorKind: String?
    /// The error's reason (sentences of this package, never personal data).
    public var errorReason: String?
    public var durationMs: Int
    /// From DG1: the issuing state or organisation ("UTO").
    public var issuingState: String?
    /// From DG1: the document code ("P", "ID", "AC"…).
    public var documentCode: String?
    public var accessControlProtocolUsed: AccessControlProtocol?
    public var dataStatus: String?
    public var chipStatus: String?
    /// Files read, by key (`com`, `sod`, `dg1`…).
    public var filesRead: [String]
    public var deniedFiles: [String]
    public var warningCount: Int
    public var apduCount: Int?
    public var bytesTransferred: Int?

    public var json: JSONValue {
        [
            "result": .string(result),
            "errorKind": .optional(errorKind),
            "errorReason": .optional(errorReason),
            "durationMs": .integer(durationMs),
            "issuingState": .optional(issuingState),
            "documentCode": .optional(documentCode),
            "accessControlProtocolUsed": .optional(accessControlProtocolUsed),
            "dataStatus": .optional(dataStatus),
            "chipStatus": .optional(chipStatus),
            "filesRead": .array(filesRead.map(JSONValue.string)),
            "deniedFiles": .array(deniedFiles.map(JSONValue.string)),
            "warningCount": .integer(warningCount),
            "apduCount": .optional(apduCount),
            "bytesTransferred": .optional(bytesTransferred),
        ]
    }
}

/// The outcome of a read that gave `document` or failed with `error` (one of them), taking
/// `durationMs` overall.
public func readOutcome(document: TravelDocument?, error: ReadError?, durationMs: Int) -> ReadOutcome {
    let debugInfo = document?.debugInfo ?? error?.debugInfo
    let fields = document?.machineReadableZoneInformation?.fields
    var errorKind: String?
    if case .read(let failure) = error?.kind { errorKind = failure.rawValue }
    return ReadOutcome(
        result: error?.typeName ?? (document == nil ? "unknown" : "success"),
        errorKind: errorKind,
        errorReason: error?.reason,
        durationMs: durationMs,
        issuingState: fields?.issuingStateOrOrganization,
        documentCode: fields?.documentCode,
        accessControlProtocolUsed: document?.accessControlProtocolUsed,
        dataStatus: document?.authenticationStatus.data.status.rawValue,
        chipStatus: document?.authenticationStatus.chip.status.rawValue,
        filesRead: (document?.ldsMasterFile ?? debugInfo?.filesRead)?.filesRead.map(\.rawValue) ?? [],
        deniedFiles: document?.deniedFiles.map(\.rawValue) ?? [],
        warningCount: document?.warnings.count ?? 0,
        apduCount: debugInfo?.apduCount,
        bytesTransferred: debugInfo?.bytesTransferred)
}

/// The outcome as JSON text.
public func readOutcomeToJson(_ outcome: ReadOutcome, prettyPrinted: Bool = true) -> String {
    outcome.json.serialized(pretty: prettyPrinted)
}
