import CEmrtdABI
import Emrtd
import Foundation
import JSON
import LDS
import MRZ
import Synchronization
import Transport

/// The largest read request: the options and a PEM bundle of extra CSCAs.
let readRequestLimit = 64 << 20

/// `emrtd_cancel_token`: cancels the reads it is given, from any thread, once and for good.
final class CancelToken: Sendable {
    private let cancelled = Atomic<Bool>(false)

    func cancel() { cancelled.store(true, ordering: .sequentiallyConsistent) }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    static func borrow(_ pointer: OpaquePointer?) -> CancelToken? {
        pointer.map { Unmanaged<CancelToken>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }
}

/// The host's C callbacks as the reference's `CardTransport`. A cancelled token fails the next
/// exchange with `TransportError.Cancelled`, before the host is called.
///
/// `@unchecked Sendable`: the reader calls `transceive` from its deadline worker, one exchange
/// at a time, and the lock below keeps the host's callback and the read's end apart, so that
/// nothing calls the host once `close()` returned (a transceive that outlived its timeout is
/// waited for).
final class HostTransport: CardTransport, @unchecked Sendable {
    private let callbacks: emrtd_transport
    private let token: CancelToken?
    /// The response buffer the host writes into, and whether the read is over; under the lock.
    private let state: Mutex<(response: [UInt8], closed: Bool)>

    init(_ callbacks: emrtd_transport, token: CancelToken?) {
        self.callbacks = callbacks
        self.token = token
        state = Mutex((response: [UInt8](repeating: 0, count: Int(EMRTD_RESPONSE_CAPACITY)), closed: false))
    }

    func supportsExtendedLength() -> Bool {
        callbacks.supports_extended_length.map { $0(callbacks.context) != 0 } ?? false
    }

    func transceive(apdu: Data) throws -> Data {
        if token?.isCancelled == true { throw TransportError.Cancelled }
        let (callbacks, command) = (self.callbacks, [UInt8](apdu))
        let outcome: Result<Data, TransportError> = state.withLock { state in
            guard !state.closed else { return .failure(.Cancelled) }
            guard let transceive = callbacks.transceive else {
                return .failure(.Io(detail: "the host transport has no transceive callback"))
            }
            var length = 0
            let capacity = state.response.count
            let code = command.withUnsafeBufferPointer { command in
                state.response.withUnsafeMutableBufferPointer { response in
                    transceive(
                        callbacks.context, command.baseAddress, command.count, response.baseAddress, capacity, &length)
                }
            }
            switch Int(code) {
            case Int(EMRTD_TRANSPORT_OK):
                guard length >= 2, length <= capacity else {
                    return .failure(
                        .Unexpected(detail: "the host transport answered \(length) bytes (2 to \(capacity) expected)"))
                }
                return .success(Data(state.response[0..<length]))
            case Int(EMRTD_TRANSPORT_TAG_LOST): return .failure(.TagLost)
            case Int(EMRTD_TRANSPORT_TIMEOUT): return .failure(.Timeout)
            case Int(EMRTD_TRANSPORT_CANCELLED): return .failure(.Cancelled)
            case Int(EMRTD_TRANSPORT_IO): return .failure(.Io(detail: "the host transport failed"))
            default: return .failure(.Io(detail: "the host transport returned an unknown code \(code)"))
            }
        }
        return try outcome.get()
    }

    /// Ends the read's use of the host: waits for a running callback, refuses later ones.
    func close() {
        state.withLock { $0.closed = true }
    }
}

/// The host's listener callback as the reference's `ReadListener`, events as React Native's
/// `ReadEvent` JSON. `@unchecked Sendable`: the reader calls it on the reading thread only.
final class HostListener: ReadListener, @unchecked Sendable {
    private let callbacks: emrtd_transport

    init(_ callbacks: emrtd_transport) { self.callbacks = callbacks }

    func onAccessEstablishmentStarted() { send(["type": "accessStarted"]) }

    func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32) {
        send(["type": "progress", "id": .string(id.rawValue), "percentage": .integer(Int(totalProgressPercentage))])
    }

    func onDataAuthenticationStarted() { send(["type": "dataAuthenticationStarted"]) }

    private func send(_ event: JSONValue) {
        guard let listener = callbacks.listener else { return }
        var text = event.serialized()
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { listener(callbacks.context, $0.baseAddress, $0.count) }
        }
    }
}

/// A read's options: the React Native `ReadOptions` object (plus `renderImages`).
struct ReadOptions {
    /// Checked by the read, before any APDU.
    let accessKey: AccessKey
    let challenge: [UInt8]?
    let config: ReaderConfig

    init(_ text: String, trust: TrustStoreHandle?) throws(ReadError) {
        let what = "the read options"
        let options = try RequestObject(
            RequestObject.parse(text, what: what), what: what,
            allowed: [
                "accessKey", "activeAuthenticationChallenge", "useBuiltInAuthorityCertificates",
                "authorityCertificatesPem", "timeoutMs", "debug", "renderImages",
            ])
        guard let key = options["accessKey"] else { throw ReadError(.invalidArgument, "\(what) have no \"accessKey\"") }
        accessKey = try Self.accessKey(key)
        challenge = try options.bytes("activeAuthenticationChallenge")
        let useBuiltIn = try options.bool("useBuiltInAuthorityCertificates")
        let pem = try options.string("authorityCertificatesPem")
        if trust != nil, useBuiltIn != nil || pem != nil {
            throw ReadError(
                .invalidArgument,
                "give the trusted CSCAs either as a trust store or as useBuiltInAuthorityCertificates and authorityCertificatesPem, not both"
            )
        }
        config = ReaderConfig(
            useBuiltInAuthorityCertificates: trust?.useBuiltIn ?? useBuiltIn ?? true,
            authorityCertificates: (trust?.entries ?? pem.map { [Array($0.utf8)] } ?? []).map { Data($0) },
            timeoutMs: try Self.timeoutMs(options.integer("timeoutMs") ?? 5000),
            debug: try options.bool("debug") ?? false,
            renderImages: try options.bool("renderImages") ?? true)
    }

    /// `timeoutMs` as the reference's `u32`: a positive number of milliseconds that fits one.
    private static func timeoutMs(_ value: Int) throws(ReadError) -> UInt32 {
        guard let milliseconds = UInt32(exactly: value), milliseconds > 0 else {
            throw ReadError(.invalidArgument, "timeoutMs must be positive and at most \(UInt32.max)")
        }
        return milliseconds
    }

    /// `{"mrz": {"documentNumber", "dateOfBirth", "dateOfExpiry"}}` or `{"can": "123456"}`.
    private static func accessKey(_ value: JSONValue) throws(ReadError) -> AccessKey {
        let key = try RequestObject(value, what: "the accessKey", allowed: ["mrz", "can"])
        switch (key["mrz"], try key.string("can")) {
        case (let mrz?, nil):
            let fields = try RequestObject(
                mrz, what: "the accessKey's mrz", allowed: ["documentNumber", "dateOfBirth", "dateOfExpiry"])
            guard let number = try fields.string("documentNumber"), let birth = try fields.string("dateOfBirth"),
                let expiry = try fields.string("dateOfExpiry")
            else {
                throw ReadError(
                    .invalidArgument, "the accessKey's mrz needs documentNumber, dateOfBirth and dateOfExpiry")
            }
            return .mrz(documentNumber: number, dateOfBirth: birth, dateOfExpiry: expiry)
        case (nil, let can?):
            return .can(value: can)
        default:
            throw ReadError(.invalidArgument, "the accessKey needs exactly one of \"mrz\" and \"can\"")
        }
    }
}

/// `emrtd_read`: one whole read through the host's transport.
@_cdecl("emrtd_read")
public func emrtdRead(
    _ transport: UnsafePointer<emrtd_transport>?, _ optionsJSON: UnsafePointer<CChar>?, _ length: Int,
    _ trust: OpaquePointer?, _ cancel: OpaquePointer?, _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ resultLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    ABIResult.run(result, resultLength) { () throws(ReadError) in
        guard let callbacks = transport?.pointee else { throw ReadError(.invalidArgument, "the transport is NULL") }
        guard callbacks.transceive != nil else {
            throw ReadError(.invalidArgument, "the transport has no transceive callback")
        }
        let text = try callerText(optionsJSON, length, limit: readRequestLimit, what: "the read options")
        let options = try ReadOptions(text, trust: TrustStoreHandle.borrow(trust))
        let reader = try EmrtdReader(config: options.config)
        let token = CancelToken.borrow(cancel)
        let host = HostTransport(callbacks, token: token)
        defer { host.close() }
        let document = try reader.read(
            transport: host, accessKey: options.accessKey,
            activeAuthenticationChallenge: options.challenge.map { Data($0) },
            listener: callbacks.listener == nil ? nil : HostListener(callbacks))
        // `checks` (the one "accepted" rule) and every warning, as `emrtd read --json` gives them.
        let checks = DocumentChecks(document: document, printedZone: nil, at: Date())
        return document.json(checks: checks).serialized(pretty: true)
    }
}

/// `emrtd_cancel_token_create`.
@_cdecl("emrtd_cancel_token_create")
public func emrtdCancelTokenCreate() -> OpaquePointer? {
    OpaquePointer(Unmanaged.passRetained(CancelToken()).toOpaque())
}

/// `emrtd_cancel`.
@_cdecl("emrtd_cancel")
public func emrtdCancel(_ token: OpaquePointer?) {
    CancelToken.borrow(token)?.cancel()
}

/// `emrtd_cancel_token_free`.
@_cdecl("emrtd_cancel_token_free")
public func emrtdCancelTokenFree(_ token: OpaquePointer?) {
    guard let token else { return }
    Unmanaged<CancelToken>.fromOpaque(UnsafeRawPointer(token)).release()
}
