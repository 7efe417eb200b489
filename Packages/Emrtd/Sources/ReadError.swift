import JSON
import LDS
import Transport

/// Why a read produced no `TravelDocument`. One struct with a `kind`, as the reference model's
/// variants: `invalidArgument`, `accessControl`, `chipAuthentication`, `notConnected`,
/// `read(readingDataGroups | parseMasterFile | unknown)`, `cancelled`, `nfcUnavailable`, and the
/// link failures of `TransportError` (`tagLost`, `timeout`, `io`, `unexpected`).
public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A wrong access key, challenge or trusted certificate; no APDU was sent.
        case invalidArgument
        /// The chip could not be opened (wrong MRZ or CAN, no usable protocol).
        case accessControl
        /// Chip Authentication was started and failed: the chip is not what it claims.
        case chipAuthentication
        /// No chip answered.
        case notConnected
        /// Files could not be read or make no document.
        case read(ReadFailure)
        /// `EmrtdReader.cancel()` stopped the read.
        case cancelled
        /// The reader hardware is unavailable (kept for the reference model; a PC/SC transport
        /// reports its failures as `transport(.io)`).
        case nfcUnavailable
        /// The link failed: the chip left, did not answer in time, or the reader broke.
        case transport(TransportError)
    }

    /// Which part of the read failed, for `Kind.read`.
    public enum ReadFailure: String, Sendable, Hashable, JSONEnum {
        /// A mandatory file (EF.COM, EF.SOD, DG1, DG2) could not be read, or the chip ended the
        /// session before they were in.
        case readingDataGroups
        /// The files were read but do not parse into a document.
        case parseMasterFile
        case unknown
    }

    public let kind: Kind
    /// One sentence for people, free of personal data.
    public let reason: String
    /// The steps, APDUs and files read before the failure (files always; the log with
    /// `ReaderConfig.debug`).
    public internal(set) var debugInfo: DebugInfo?

    public init(_ kind: Kind, _ reason: String, debugInfo: DebugInfo? = nil) {
        self.kind = kind
        self.reason = reason
        self.debugInfo = debugInfo
    }

    /// The error for a failing link: `cancelled` stays a cancellation, the rest are transport
    /// errors.
    public init(transport error: TransportError, during step: String) {
        switch error {
        case .cancelled: self.init(.cancelled, "the read was cancelled \(step)")
        default: self.init(.transport(error), "\(step): \(error)")
        }
    }

    /// The kind's name in the JSON and in messages: `accessControl`, `readingDataGroups`, `tagLost`…
    public var typeName: String {
        switch kind {
        case .invalidArgument: "invalidArgument"
        case .accessControl: "accessControl"
        case .chipAuthentication: "chipAuthentication"
        case .notConnected: "notConnected"
        case .read: "read"
        case .cancelled: "cancelled"
        case .nfcUnavailable: "nfcUnavailable"
        case .transport(let error): Self.transportName(error)
        }
    }

    static func transportName(_ error: TransportError) -> String {
        switch error {
        case .tagLost: "tagLost"
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        case .io: "io"
        case .unexpected: "unexpected"
        }
    }

    public var description: String { readErrorMessage(error: self) }
}

/// One line for people: what failed and why, e.g.
/// `access control failed: the chip refused the BAC key (6300); check the MRZ`.
public func readErrorMessage(error: ReadError) -> String {
    let what: String
    switch error.kind {
    case .invalidArgument: what = "invalid argument"
    case .accessControl: what = "access control failed"
    case .chipAuthentication: what = "chip authentication failed"
    case .notConnected: what = "no chip connected"
    case .read(.readingDataGroups): what = "reading the data groups failed"
    case .read(.parseMasterFile): what = "the files read do not make a document"
    case .read(.unknown): what = "the read failed"
    case .cancelled: what = "cancelled"
    case .nfcUnavailable: what = "the card reader is unavailable"
    case .transport(.tagLost): what = "the chip was lost"
    case .transport(.timeout): what = "the chip did not answer in time"
    case .transport(.cancelled): what = "cancelled"
    case .transport(.io): what = "card link failure"
    case .transport(.unexpected): what = "unexpected card exchange"
    }
    return error.reason.isEmpty ? what : "\(what): \(error.reason)"
}

/// The error as JSON, the reference's shape: `code` (snake_case: `invalid_argument`,
/// `access_control`, `chip_authentication`, `not_connected`, `read`, `cancelled`,
/// `nfc_unavailable`), `message`, `reason`, `kind` (`read` errors only) and `debugInfo` (null for
/// the variants without one: `invalid_argument`, `nfc_unavailable`). Added: `type`, this
/// project's finer name (`tagLost`, `io`…), and `detail`, a link error's own text.
public func readErrorToJson(error: ReadError, prettyPrinted: Bool = true) -> String {
    readErrorJSON(error).serialized(pretty: prettyPrinted)
}

extension ReadError {
    /// The reference's variant: a link failure is `NotConnected`, an unexpected exchange `Read`
    /// of kind `unknown`, a cancelled link `Cancelled`.
    public var code: String {
        switch kind {
        case .invalidArgument: "invalid_argument"
        case .accessControl: "access_control"
        case .chipAuthentication: "chip_authentication"
        case .notConnected, .transport(.tagLost), .transport(.timeout), .transport(.io): "not_connected"
        case .read, .transport(.unexpected): "read"
        case .cancelled, .transport(.cancelled): "cancelled"
        case .nfcUnavailable: "nfc_unavailable"
        }
    }

    /// The reference's `ReadErrorKind` for `read` errors, nil for the others.
    public var readErrorKind: ReadFailure? {
        switch kind {
        case .read(let failure): failure
        case .transport(.unexpected): .unknown
        default: nil
        }
    }
}

func readErrorJSON(_ error: ReadError) -> JSONValue {
    var detail: JSONValue = .null
    if case .transport(.io(let text)) = error.kind { detail = .string(text) }
    if case .transport(.unexpected(let text)) = error.kind { detail = .string(text) }
    let carriesDebugInfo = error.code != "invalid_argument" && error.code != "nfc_unavailable"
    let debugInfo = error.debugInfo ?? .empty
    return [
        "code": .string(error.code),
        "message": .string(readErrorMessage(error: error)),
        // The reference's `Cancelled` has no reason.
        "reason": error.code == "cancelled" ? .null : .string(error.reason),
        "kind": .optional(error.readErrorKind),
        "debugInfo": carriesDebugInfo ? debugInfo.json : .null,
        "type": .string(error.typeName),
        "detail": detail,
    ]
}
