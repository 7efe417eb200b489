import Foundation
import JSON
import MRZ
import Transport

/// How a validation ended, as the client sees it.
public struct ValidationOutcome: Sendable, Equatable {
    /// The server's close code (`connectionLost` when the link dropped without one).
    public let code: CloseCode
    public let reason: String
    /// The result the server posted, for tenants whose clients receive it.
    public let result: JSONValue?
    /// APDUs relayed between the server and the chip.
    public let apdus: Int

    /// The server closed with 1000: the tenant's result server confirmed the result.
    public var postConfirmed: Bool { code == .confirmed }
    /// The server closed with 1000 or 4008: the result is confirmed, or stored in the server's
    /// outbox and being delivered.
    public var resultSafe: Bool { code == .confirmed || code == .storedPendingDelivery }
}

/// The client of a validation server, the API a mobile app or a kiosk calls: it relays the
/// server's APDUs to a chip over any `APDUTransport` and reports progress; the server opens
/// the chip, reads, verifies and posts the result to the tenant, so the client never holds a
/// verdict the tenant has to trust.
public struct Connector: Sendable {
    /// `ws://HOST:PORT/ws/validate` or `wss://…`.
    public var serverURL: URL
    /// The tenant, as the server's tenants file names it.
    public var clientId: String
    /// One per scan: the result server gets it with the result (1–128 visible ASCII characters).
    public var validationId: String
    /// The session token the tenant's back end minted for this clientId and validationId; nil
    /// for an open tenant.
    public var token: String?
    /// Forwarded by the server to the result server as HTTP headers.
    public var headers: [String: String]
    /// A CA (PEM file) to trust for wss:// besides the system's.
    public var caFile: String?

    public init(
        serverURL: URL, clientId: String, validationId: String = UUID().uuidString, token: String? = nil,
        headers: [String: String] = [:], caFile: String? = nil
    ) {
        self.serverURL = serverURL
        self.clientId = clientId
        self.validationId = validationId
        self.token = token
        self.headers = headers
        self.caFile = caFile
    }

    /// Runs one validation (blocking) and returns how the server ended it. `timeout` bounds
    /// each wait for the server; `onProgress` gets the server's steps (`accessControl`, each
    /// file read, `dataAuthentication`) and percentages. Throws only when no connection can be
    /// made at all.
    public func validate(
        transport: any APDUTransport, accessKey: AccessPassword, filesToRead: FilesToRead = .standard,
        timeout: Duration = .seconds(30), onProgress: (@Sendable (String, Int) -> Void)? = nil
    ) throws(ConnectorError) -> ValidationOutcome {
        let endpoint = try WebSocketEndpoint(
            clientTo: serverURL, protocolName: ValidationProtocol.subprotocol, caFile: caFile,
            limits: WebSocketLimits(
                maximumMessageSize: ValidationProtocol.maximumMessageSize,
                maximumTextMessageSize: ValidationProtocol.maximumResultMessageSize))
        defer { endpoint.stop() }
        guard let connection = endpoint.client else {
            throw ConnectorError(.io, "the WebSocket client has no connection")
        }
        let hello = ValidationHello(
            validationId: validationId, clientId: clientId, token: token, headers: headers,
            supportsExtendedLength: transport.supportsExtendedLength)
        connection.send(.text(ClientMessage.hello(hello).text))
        var result: JSONValue?
        var apdus = 0
        var chipGone = false
        while true {
            switch connection.receive(timeout: timeout) {
            case .message(.text(let text)):
                switch try? ServerMessage.parse(text) {
                case .ready?: connection.send(.text(ClientMessage.access(accessKey, filesToRead).text))
                case .progress(let step, let percentage)?: onProgress?(step, percentage)
                case .result(let value)?: result = value
                case nil: break  // a newer server's message: not ours to act on
                }
            case .message(.binary(let bytes)):
                guard !chipGone else { continue }
                do throws(TransportError) {
                    let response = try transport.transmit(try CommandAPDU(encoded: bytes))
                    apdus += 1
                    connection.send(.binary(response.encoded))
                } catch {
                    chipGone = true
                    connection.send(.text(ClientMessage.chipLost(reason: error.description).text))
                }
            case .closed(let code, let reason):
                return ValidationOutcome(code: CloseCode(rawValue: code), reason: reason, result: result, apdus: apdus)
            case .timeout:
                connection.close(code: CloseCode.goingAway.rawValue, reason: "the server went silent")
                return ValidationOutcome(
                    code: .timeout, reason: "the server sent nothing for \(timeout)", result: result, apdus: apdus)
            }
        }
    }
}
