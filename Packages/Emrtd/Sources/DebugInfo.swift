import Foundation
import JSON
import LDS
import Synchronization
import Transport

/// What happened during a read, for whoever has to find out why a chip misbehaved: every step
/// and APDU with its time since the read began (APDUs as they crossed the wire, so encrypted
/// under secure messaging, and BAC/PACE cryptograms redacted; under secure messaging each plain
/// command and answer beside its protected form, data that may be secret or personal shown as
/// its length only; no MRZ, CAN or key ever appears), and on errors the files read before the
/// failure.
public struct DebugInfo: Sendable, Hashable, JSONRepresentable {
    /// Empty unless `ReaderConfig.debug` was set.
    public var events: [DebugEvent]
    /// The raw files read, keyed as in `ldsMasterFile` (filled on errors, so nothing read is lost).
    public var filesRead: LdsMasterFile?
    public var apduCount: Int
    /// Command plus response bytes on the wire.
    public var bytesTransferred: Int
    public var durationMs: Int
    /// The link failure that ended the read, on a `ReadError` whose reference variant does not
    /// name it (`NotConnected`, `Read` of kind `unknown`, `Cancelled`): `readErrorToJson`'s `type`
    /// and `detail`. Not part of this object's JSON.
    public var transportError: TransportError? = nil

    /// No log and no figures: the JSON's `debugInfo` of a document or error that carries none.
    public static let empty = DebugInfo(events: [], filesRead: nil, apduCount: 0, bytesTransferred: 0, durationMs: 0)

    public var json: JSONValue {
        [
            "events": .array(events),
            "filesRead": filesRead.map(\.json) ?? .null,
            "apduCount": .integer(apduCount),
            "bytesTransferred": .integer(bytesTransferred),
            "durationMs": .integer(durationMs),
        ]
    }
}

/// One step or APDU of the debug log (the reference's `DebugEvent`).
public struct DebugEvent: Sendable, Hashable, JSONRepresentable {
    /// Milliseconds since the read started.
    public let timestampMillis: UInt64
    public let message: String

    public var json: JSONValue {
        ["timestampMillis": .integer(Int(clamping: timestampMillis)), "message": .string(message)]
    }
}

/// Collects a read's debug log (thread-safe: cancellation may note from another thread).
final class DebugRecorder: Sendable {
    let isEnabled: Bool
    private let start = ContinuousClock.now
    private let entries = Mutex<[DebugEvent]>([])
    let apduLog = APDULog()

    init(isEnabled: Bool) { self.isEnabled = isEnabled }

    var elapsedMilliseconds: UInt64 {
        let elapsed = ContinuousClock.now - start
        return UInt64(
            clamping: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Records a step. The message is built only when logging is on.
    func note(_ message: @autoclosure () -> String) {
        guard isEnabled else { return }
        let entry = DebugEvent(timestampMillis: elapsedMilliseconds, message: message())
        entries.withLock { $0.append(entry) }
    }

    func info(filesRead: LdsMasterFile?) -> DebugInfo {
        DebugInfo(
            events: entries.withLock { $0 }, filesRead: filesRead, apduCount: apduLog.count,
            bytesTransferred: apduLog.bytesMoved, durationMs: Int(clamping: elapsedMilliseconds))
    }
}

/// The secure channel's plain side in the debug log: the plain command before its protected
/// form (which `RecordingTransport` notes when it comes back), the plain answer after it.
extension DebugRecorder: PlainAPDUObserver {
    func willProtect(_ command: CommandAPDU) { note(APDULog.plainDescription(of: command)) }

    func didUnprotect(_ response: ResponseAPDU, of command: CommandAPDU) {
        note(APDULog.plainDescription(of: response))
    }
}

/// Logs every exchange of the transport below it into the read's debug log, with its time.
/// It sits below secure messaging, so it sees only ciphertext.
final class RecordingTransport: APDUTransport {
    private let logging: LoggingTransport
    private let recorder: DebugRecorder

    init(_ base: any APDUTransport, recorder: DebugRecorder) {
        logging = LoggingTransport(base, log: recorder.apduLog)
        self.recorder = recorder
    }

    var supportsExtendedLength: Bool { logging.supportsExtendedLength }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        defer {
            if recorder.isEnabled, let entry = recorder.apduLog.entries.last {
                recorder.note(entry.description)
            }
        }
        return try logging.transmit(command)
    }
}
