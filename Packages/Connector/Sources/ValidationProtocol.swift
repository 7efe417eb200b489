import JSON
import MRZ
import Secrets

/// The validation protocol between a relaying client and `emrtd serve`, version 1 (README.md of
/// this package writes it down): JSON objects in text frames, APDUs in binary frames, and a
/// close code for every ending.
public enum ValidationProtocol {
    public static let version = 1
    /// The one path the server upgrades.
    public static let path = "/ws/validate"
    /// The WebSocket subprotocol: a client speaking another version is refused at the upgrade.
    public static let subprotocol = "emrtd-validation.v1"
    /// The largest message either side accepts: an extended-length response (65 536 bytes and
    /// the status word) with room to spare; a JSON message is far smaller.
    public static let maximumMessageSize = 70_000
    /// The one exception: the server's `result` message, the whole document's JSON (a 15–80 KB
    /// face alone is 20–110 KB of base64), may be up to 16 MiB. A client accepts text messages
    /// up to this size; the server sends no larger result (the tenant's result server still
    /// has it). Never the server's limit: a client's messages stay small.
    public static let maximumResultMessageSize = 16 << 20
    /// Caps on the handshake's strings, so that a hostile client cannot make the server
    /// allocate or forward much.
    package static let maximumIdentifierLength = 128
    /// A session token is far shorter (`v1.EXPIRY.MAC`, about 60 characters); the server judges it.
    static let maximumTokenLength = 512
    static let maximumHeaders = 16
    static let maximumHeaderValueLength = 1024
}

/// Which data groups the server reads. EF.COM and EF.SOD always, DG14 and DG15 whenever present
/// (the chip's keys); beyond those:
public enum FilesToRead: String, Sendable, CaseIterable, JSONEnum {
    /// The mandatory data groups only: DG1 (the MRZ) and DG2 (the face), without which a read
    /// fails (`ReadPlan.mandatoryDataGroups`).
    case minimal
    /// DG1 and DG2 (the face).
    case minimalKYC
    /// Every data group the chip lists except DG3 and DG4, which need Extended Access Control
    /// and would only be refused.
    case standard
    /// Every data group the chip lists, DG3 and DG4 tried too.
    case all
}

/// How a session ended, as the WebSocket close code the server sends (RFC 6455 §7.4; 4000–4099
/// are this protocol's).
public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The document was read and its result's POST was confirmed by the tenant's result server.
    public static let confirmed = CloseCode(rawValue: 1000)
    /// The server is shutting down.
    public static let goingAway = CloseCode(rawValue: 1001)
    /// The connection dropped without a close frame (never sent; what a peer sees).
    public static let connectionLost = CloseCode(rawValue: 1006)
    /// More messages than the server had asked for (`WebSocketLimits.maximumBacklog` waiting).
    public static let policyViolation = CloseCode(rawValue: 1008)
    /// A message over `ValidationProtocol.maximumMessageSize`.
    public static let messageTooLarge = CloseCode(rawValue: 1009)
    /// A failure of the server itself.
    public static let internalError = CloseCode(rawValue: 1011)
    /// A message that is not the protocol's, or not the one expected now.
    public static let malformedMessage = CloseCode(rawValue: 4000)
    /// The `clientId` is not in the server's tenants file.
    public static let unknownTenant = CloseCode(rawValue: 4001)
    /// The chip refused the access key (wrong MRZ or CAN), or no access protocol fits.
    public static let accessDenied = CloseCode(rawValue: 4002)
    /// The client reported the chip gone, or its APDU answers stopped making sense.
    public static let chipLost = CloseCode(rawValue: 4003)
    /// The client did not send the next message (handshake or APDU answer) in time.
    public static let timeout = CloseCode(rawValue: 4004)
    /// The document was read but the result server did not confirm the POST.
    public static let postFailed = CloseCode(rawValue: 4005)
    /// The chip opened but its files make no document.
    public static let readFailed = CloseCode(rawValue: 4006)
    /// The server runs as many sessions as it may: try again later.
    public static let busy = CloseCode(rawValue: 4007)
    /// The document was read and its result stored in the server's durable outbox, but no result
    /// server has confirmed it yet: the server keeps delivering it (at least once).
    public static let storedPendingDelivery = CloseCode(rawValue: 4008)

    public var description: String { String(rawValue) }
}

/// The client's handshake: who asks (`clientId`, the tenant), for which scan (`validationId`),
/// with which session token, and the headers to forward to the tenant's result server.
public struct ValidationHello: Sendable, Equatable {
    /// 1–128 visible ASCII characters: it is the result's `Idempotency-Key` header too.
    public var validationId: String
    public var clientId: String
    /// The tenant's session token for this clientId and validationId (`v1.EXPIRY.MAC`, minted by
    /// the tenant's back end); nil for an open tenant.
    public var token: String?
    /// Sent along with the result's POST as HTTP headers.
    public var headers: [String: String]
    /// Whether the client's reader and chip take extended-length APDUs (the server then reads
    /// files in fewer, larger pieces).
    public var supportsExtendedLength: Bool

    public init(
        validationId: String, clientId: String, token: String? = nil, headers: [String: String] = [:],
        supportsExtendedLength: Bool = false
    ) {
        self.validationId = validationId
        self.clientId = clientId
        self.token = token
        self.headers = headers
        self.supportsExtendedLength = supportsExtendedLength
    }
}

/// A message from the client to the server.
public enum ClientMessage: Sendable {
    case hello(ValidationHello)
    /// The key that opens the chip and what to read.
    case access(AccessPassword, FilesToRead)
    /// The client lost the chip (it left the field); the session ends with `chipLost`.
    case chipLost(reason: String)
}

/// A message from the server to the client (APDUs travel as binary frames, not as these).
public enum ServerMessage: Sendable, Equatable {
    /// The tenant is known: send the access key.
    case ready
    /// A step of the read, for the client's progress display.
    case progress(step: String, percentage: Int)
    /// The result as posted, for tenants whose clients receive it.
    case result(JSONValue)
}

extension ClientMessage {
    /// The JSON text of the message. The access key's password (the MRZ information with its
    /// check digits, or the CAN) is in it: the text goes on the wire and nowhere else.
    public var text: String {
        let value: JSONValue
        switch self {
        case .hello(let hello):
            value = [
                "type": "hello", "version": .integer(ValidationProtocol.version),
                "validationId": .string(hello.validationId), "clientId": .string(hello.clientId),
                "token": .optional(hello.token),
                "headers": .object(
                    hello.headers.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) }),
                "extendedLength": .bool(hello.supportsExtendedLength),
            ]
        case .access(let key, let files):
            let password = key.withPasswordBytes { String(decoding: $0, as: UTF8.self) }
            value = [
                "type": "access", "accessKey": ["kind": .string(key.kind.rawValue), "password": .string(password)],
                "filesToRead": files.json,
            ]
        case .chipLost(let reason):
            value = ["type": "chipLost", "reason": .string(reason)]
        }
        return value.serialized()
    }

    /// Parses a text frame of the client; anything else than the protocol's messages is
    /// `malformedMessage`, in words that never repeat a password.
    public static func parse(_ text: String) throws(ConnectorError) -> ClientMessage {
        let value = try parseObject(text)
        switch value["type"] {
        case .string("hello"):
            guard value["version"] == .integer(ValidationProtocol.version) else {
                throw ConnectorError(.malformedMessage, "hello must carry version \(ValidationProtocol.version)")
            }
            let validationId = try identifier(value, "validationId", visibleASCII: true)
            let clientId = try identifier(value, "clientId")
            let token: String?
            switch value["token"] {
            case nil, .null: token = nil
            case .string(let text) where text.utf8.count <= ValidationProtocol.maximumTokenLength: token = text
            default:
                throw ConnectorError(
                    .malformedMessage,
                    "token must be a string of at most \(ValidationProtocol.maximumTokenLength) bytes")
            }
            var headers: [String: String] = [:]
            switch value["headers"] {
            case nil, .null: break
            case .object(let members):
                guard members.count <= ValidationProtocol.maximumHeaders else {
                    throw ConnectorError(.malformedMessage, "more than \(ValidationProtocol.maximumHeaders) headers")
                }
                for member in members {
                    guard case .string(let headerValue) = member.value, isHeaderName(member.key),
                        isHeaderValue(headerValue)
                    else {
                        throw ConnectorError(.malformedMessage, "a header is not a forwardable HTTP header")
                    }
                    headers[member.key] = headerValue
                }
            default: throw ConnectorError(.malformedMessage, "headers must be an object of strings")
            }
            let extended: Bool
            switch value["extendedLength"] {
            case nil, .null: extended = false
            case .bool(let flag): extended = flag
            default: throw ConnectorError(.malformedMessage, "extendedLength must be true or false")
            }
            return .hello(
                ValidationHello(
                    validationId: validationId, clientId: clientId, token: token, headers: headers,
                    supportsExtendedLength: extended))
        case .string("access"):
            guard case .string(let filesName) = value["filesToRead"], let files = FilesToRead(rawValue: filesName)
            else {
                throw ConnectorError(
                    .malformedMessage,
                    "filesToRead must be one of \(FilesToRead.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let key = value["accessKey"], case .string(let kind) = key["kind"],
                case .string(let password) = key["password"]
            else {
                throw ConnectorError(
                    .malformedMessage, "accessKey must be {\"kind\": \"mrz\"|\"can\", \"password\": …}")
            }
            return .access(try accessKey(kind: kind, password: password), files)
        case .string("chipLost"):
            guard case .string(let reason) = value["reason"] else {
                throw ConnectorError(.malformedMessage, "chipLost must carry a reason")
            }
            return .chipLost(reason: String(reason.prefix(200)))
        default:
            throw ConnectorError(.malformedMessage, "unknown message type (hello, access, chipLost)")
        }
    }

    /// The access key from its password as `AccessPassword` lends it: for an MRZ the document number,
    /// date of birth and date of expiry each followed by its check digit; the check digits sent
    /// must be the ones `AccessPassword` computes.
    private static func accessKey(kind: String, password: String) throws(ConnectorError) -> AccessPassword {
        switch kind {
        case "can":
            return try checked { () throws(MRZError) in try AccessPassword.can(value: password) }
        case "mrz":
            let characters = Array(password)
            guard characters.count >= 24, characters.count <= 40 else {
                throw ConnectorError(.malformedMessage, "an MRZ password is 24 to 40 characters")
            }
            let tail = characters.count - 14
            let key = try checked { () throws(MRZError) in
                try AccessPassword.mrz(
                    documentNumber: String(characters[..<(tail - 1)]),
                    dateOfBirth: String(characters[tail..<(tail + 6)]),
                    dateOfExpiry: String(characters[(tail + 7)..<(tail + 13)]))
            }
            var sent = Array(password.utf8)
            defer { sent.wipe() }
            guard key.withPasswordBytes({ constantTimeEquals($0, sent) }) else {
                throw ConnectorError(.malformedMessage, "the MRZ password's check digits are wrong")
            }
            return key
        default:
            throw ConnectorError(.malformedMessage, "accessKey.kind must be mrz or can")
        }
    }

    private static func checked(_ make: () throws(MRZError) -> AccessPassword) throws(ConnectorError) -> AccessPassword
    {
        do throws(MRZError) {
            return try make()
        } catch {
            throw ConnectorError(.malformedMessage, "invalid access key: \(error.reason)")
        }
    }

    /// A non-empty string of at most 128 characters without control characters; with
    /// `visibleASCII`, of 0x21–0x7E only (a validationId travels as an HTTP header value).
    private static func identifier(_ value: JSONValue, _ name: String, visibleASCII: Bool = false)
        throws(ConnectorError) -> String
    {
        guard case .string(let text) = value[name], !text.isEmpty,
            text.count <= ValidationProtocol.maximumIdentifierLength,
            text.unicodeScalars.allSatisfy({ visibleASCII ? (0x21...0x7E).contains($0.value) : $0.value >= 0x20 })
        else {
            throw ConnectorError(
                .malformedMessage,
                "\(name) must be a non-empty string of at most 128 \(visibleASCII ? "visible ASCII" : "printable") characters"
            )
        }
        return text
    }

    /// An HTTP token (RFC 9110 §5.6.2) that is not one the POST sets itself.
    private static func isHeaderName(_ name: String) -> Bool {
        let reserved = [
            "host", "content-length", "content-type", "transfer-encoding", "connection", "idempotency-key",
        ]
        let token = name.utf8.allSatisfy { byte in
            (0x21...0x7E).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
        }
        return !name.isEmpty && name.count <= 64 && token && !reserved.contains(name.lowercased())
    }

    private static func isHeaderValue(_ value: String) -> Bool {
        value.utf8.count <= ValidationProtocol.maximumHeaderValueLength
            && value.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }
}

extension ServerMessage {
    public var text: String {
        let value: JSONValue =
            switch self {
            case .ready: ["type": "ready", "version": .integer(ValidationProtocol.version)]
            case .progress(let step, let percentage):
                ["type": "progress", "step": .string(step), "percentage": .integer(percentage)]
            case .result(let result): ["type": "result", "result": result]
            }
        return value.serialized()
    }

    public static func parse(_ text: String) throws(ConnectorError) -> ServerMessage {
        let value = try parseObject(text)
        switch value["type"] {
        case .string("ready"): return .ready
        case .string("progress"):
            guard case .string(let step) = value["step"], case .integer(let percentage) = value["percentage"] else {
                throw ConnectorError(.malformedMessage, "progress must carry step and percentage")
            }
            return .progress(step: step, percentage: percentage)
        case .string("result"):
            guard let result = value["result"] else {
                throw ConnectorError(.malformedMessage, "result without result")
            }
            return .result(result)
        default:
            throw ConnectorError(.malformedMessage, "unknown message type (ready, progress, result)")
        }
    }
}

private func parseObject(_ text: String) throws(ConnectorError) -> JSONValue {
    let value: JSONValue
    do throws(JSONParseError) {
        value = try JSONValue.parse(text)
    } catch {
        throw ConnectorError(.malformedMessage, "a text message is not JSON (\(error.reason) at \(error.offset))")
    }
    guard case .object = value else { throw ConnectorError(.malformedMessage, "a text message must be a JSON object") }
    return value
}
