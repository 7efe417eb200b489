import JSON
import LDS
import Transport

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Why a read produced no `TravelDocument`: the reference's `ReadError`, case for case and field
/// for field (its Swift error enums keep UpperCamel cases), so `catch ReadError.AccessControl(let
/// reason, _)` works as its examples write it.
///
/// This project's finer detail is kept beside the cases, not instead of them: `kind` names the
/// link failure behind a `NotConnected`, a `Read` of kind `unknown` or a `Cancelled` (the
/// `TransportError` kept in `debugInfo.transportError`), and `ReadError(_:_:)` builds an error
/// from that finer kind.
public enum ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A wrong access key, challenge or trusted certificate; no APDU was sent.
    case InvalidArgument(reason: String)
    /// The chip could not be opened (wrong MRZ or CAN, a CAN without PACE).
    case AccessControl(reason: String, debugInfo: DebugInfo)
    /// Chip Authentication was started and failed: the chip is not what it claims.
    case ChipAuthentication(reason: String, debugInfo: DebugInfo)
    /// The chip left, did not answer in time, or the link failed.
    case NotConnected(reason: String, debugInfo: DebugInfo)
    /// The chip answered, but the files could not be read or make no document.
    case Read(kind: ReadErrorKind, reason: String, debugInfo: DebugInfo)
    /// `EmrtdReader.cancel()` or the transport's `TransportError.Cancelled` stopped the read.
    case Cancelled(debugInfo: DebugInfo)
    /// The card reader is not there (`emrtd read --reader` with no PC/SC service or reader).
    case NfcUnavailable(reason: String)

    /// This project's finer view of the error: the reference's variants, with the link failure
    /// split out by its `TransportError`.
    public enum Kind: Sendable, Hashable {
        case invalidArgument
        case accessControl
        case chipAuthentication
        /// No chip answered, with no link failure named.
        case notConnected
        case read(ReadErrorKind)
        case cancelled
        case nfcUnavailable
        /// The link failed: the chip left, did not answer in time, or the reader broke.
        case transport(TransportError)
    }

    /// Builds the reference's case for `kind`: a link failure is `NotConnected` (`TagLost`,
    /// `Timeout`, `Io`), `Read` of kind `unknown` (`Unexpected`) or `Cancelled`, the
    /// `TransportError` kept in `debugInfo.transportError`.
    public init(_ kind: Kind, _ reason: String, debugInfo: DebugInfo? = nil) {
        var info = debugInfo ?? .empty
        switch kind {
        case .invalidArgument: self = .InvalidArgument(reason: reason)
        case .accessControl: self = .AccessControl(reason: reason, debugInfo: info)
        case .chipAuthentication: self = .ChipAuthentication(reason: reason, debugInfo: info)
        case .notConnected: self = .NotConnected(reason: reason, debugInfo: info)
        case .read(let readKind): self = .Read(kind: readKind, reason: reason, debugInfo: info)
        case .cancelled: self = .Cancelled(debugInfo: info)
        case .nfcUnavailable: self = .NfcUnavailable(reason: reason)
        case .transport(let error):
            info.transportError = error
            switch error {
            case .TagLost, .Timeout, .Io: self = .NotConnected(reason: reason, debugInfo: info)
            case .Unexpected: self = .Read(kind: .unknown, reason: reason, debugInfo: info)
            case .Cancelled: self = .Cancelled(debugInfo: info)
            }
        }
    }

    /// The error for a failing link: `Cancelled` stays a cancellation, the rest are transport
    /// errors.
    public init(transport error: TransportError, during step: String) {
        self.init(.transport(error), "\(step): \(error)")
    }

    public var kind: Kind {
        switch self {
        case .InvalidArgument: .invalidArgument
        case .AccessControl: .accessControl
        case .ChipAuthentication: .chipAuthentication
        case .NotConnected(_, let info): info.transportError.map(Kind.transport) ?? .notConnected
        case .Read(let kind, _, let info):
            kind == .unknown ? info.transportError.map(Kind.transport) ?? .read(kind) : .read(kind)
        case .Cancelled: .cancelled
        case .NfcUnavailable: .nfcUnavailable
        }
    }

    /// One sentence for people, free of personal data; empty for `Cancelled`, which has none.
    public var reason: String {
        switch self {
        case .InvalidArgument(let reason), .AccessControl(let reason, _), .ChipAuthentication(let reason, _),
            .NotConnected(let reason, _), .Read(_, let reason, _), .NfcUnavailable(let reason):
            reason
        case .Cancelled: ""
        }
    }

    /// The steps, APDUs and files read before the failure (files always; the log with
    /// `ReaderConfig.debug`); nil for the variants without one (`InvalidArgument`,
    /// `NfcUnavailable`). Set by the reader as the read fails, keeping the transport error.
    public internal(set) var debugInfo: DebugInfo? {
        get {
            switch self {
            case .AccessControl(_, let info), .ChipAuthentication(_, let info), .NotConnected(_, let info),
                .Read(_, _, let info), .Cancelled(let info):
                info
            case .InvalidArgument, .NfcUnavailable: nil
            }
        }
        set {
            guard var info = newValue else { return }
            info.transportError = debugInfo?.transportError ?? info.transportError
            switch self {
            case .AccessControl(let reason, _): self = .AccessControl(reason: reason, debugInfo: info)
            case .ChipAuthentication(let reason, _): self = .ChipAuthentication(reason: reason, debugInfo: info)
            case .NotConnected(let reason, _): self = .NotConnected(reason: reason, debugInfo: info)
            case .Read(let kind, let reason, _): self = .Read(kind: kind, reason: reason, debugInfo: info)
            case .Cancelled: self = .Cancelled(debugInfo: info)
            case .InvalidArgument, .NfcUnavailable: break
            }
        }
    }

    /// The finer name in the JSON's `type` and in messages: `accessControl`, `read`, `tagLost`…
    public var typeName: String {
        switch kind {
        case .invalidArgument: "invalidArgument"
        case .accessControl: "accessControl"
        case .chipAuthentication: "chipAuthentication"
        case .notConnected: "notConnected"
        case .read: "read"
        case .cancelled: "cancelled"
        case .nfcUnavailable: "nfcUnavailable"
        case .transport(.TagLost): "tagLost"
        case .transport(.Timeout): "timeout"
        case .transport(.Cancelled): "cancelled"
        case .transport(.Io): "io"
        case .transport(.Unexpected): "unexpected"
        }
    }

    public var description: String { readErrorMessage(error: self) }
}

/// Which part of the read failed, for `ReadError.Read` (the reference's `ReadErrorKind`).
public enum ReadErrorKind: String, Sendable, Hashable, JSONEnum {
    /// A mandatory file (EF.COM, EF.SOD, DG1, DG2) was absent, refused or unreadable, or the
    /// chip ended the session before they were in.
    case readingDataGroups
    /// EF.COM or DG1 does not parse.
    case parseMasterFile
    /// Anything else, e.g. an unexpected transport error.
    case unknown
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
    case .transport(.TagLost): what = "the chip was lost"
    case .transport(.Timeout): what = "the chip did not answer in time"
    case .transport(.Cancelled): what = "cancelled"
    case .transport(.Io): what = "card link failure"
    case .transport(.Unexpected): what = "unexpected card exchange"
    }
    return error.reason.isEmpty ? what : "\(what): \(error.reason)"
}

/// The error as JSON, the reference's shape: `code` (snake_case: `invalid_argument`,
/// `access_control`, `chip_authentication`, `not_connected`, `read`, `cancelled`,
/// `nfc_unavailable`), `message`, `reason` (null for `cancelled`), `kind` (`read` errors only)
/// and `debugInfo` (null for `invalid_argument` and `nfc_unavailable`). Added: `type`, this
/// project's finer name (`tagLost`, `io`…), and `detail`, a link error's own text.
public func readErrorToJson(error: ReadError, prettyPrinted: Bool = true) -> String {
    readErrorJSON(error).serialized(pretty: prettyPrinted)
}

extension ReadError {
    /// The reference's variant in snake_case.
    public var code: String {
        switch self {
        case .InvalidArgument: "invalid_argument"
        case .AccessControl: "access_control"
        case .ChipAuthentication: "chip_authentication"
        case .NotConnected: "not_connected"
        case .Read: "read"
        case .Cancelled: "cancelled"
        case .NfcUnavailable: "nfc_unavailable"
        }
    }

    /// The reference's `ReadErrorKind` for `Read` errors, nil for the others.
    public var readErrorKind: ReadErrorKind? {
        if case .Read(let kind, _, _) = self { kind } else { nil }
    }
}

func readErrorJSON(_ error: ReadError) -> JSONValue {
    var detail: JSONValue = .null
    switch error.debugInfo?.transportError {
    case .Io(let text), .Unexpected(let text): detail = .string(text)
    default: break
    }
    let reason: JSONValue
    if case .Cancelled = error { reason = .null } else { reason = .string(error.reason) }
    return [
        "code": .string(error.code),
        "message": .string(readErrorMessage(error: error)),
        "reason": reason,
        "kind": .optional(error.readErrorKind),
        "debugInfo": error.debugInfo?.json ?? .null,
        "type": .string(error.typeName),
        "detail": detail,
    ]
}
