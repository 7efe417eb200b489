import ASN1
import Synchronization

/// A record of the exchanges on a link, for `--debug` output and for counting APDUs and bytes.
///
/// It holds what crossed the wire, never a secret in clear: under secure messaging the wire bytes
/// are encrypted, and commands marked `isSecret` (plain authentication cryptograms) keep only
/// their header and lengths, for the command and for its answer. Put the `LoggingTransport` below
/// the secure-messaging channel, never above it (above it, DG1 would be logged in clear).
public final class APDULog: Sendable {
    /// Bytes that were logged, or only how many there were.
    public enum LoggedBytes: Sendable, Hashable {
        case clear([UInt8])
        case redacted(count: Int)

        public var count: Int {
            switch self {
            case .clear(let bytes): bytes.count
            case .redacted(let count): count
            }
        }
    }

    public enum Outcome: Sendable, Hashable {
        case response(data: LoggedBytes, statusWord: StatusWord)
        case failed(TransportError)
    }

    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// CLA INS P1 P2.
        public let header: [UInt8]
        public let commandData: LoggedBytes
        public let expectedLength: Int?
        /// The command's size on the wire.
        public let commandLength: Int
        public let outcome: Outcome
        public let duration: Duration

        init(
            command: CommandAPDU, encodedLength: Int, outcome: Result<ResponseAPDU, TransportError>, duration: Duration
        ) {
            header = [command.cla, command.ins, command.p1, command.p2]
            commandData = command.isSecret ? .redacted(count: command.data.count) : .clear(command.data)
            expectedLength = command.expectedLength
            commandLength = encodedLength
            switch outcome {
            case .success(let response):
                self.outcome = .response(
                    data: command.isSecret ? .redacted(count: response.data.count) : .clear(response.data),
                    statusWord: response.statusWord)
            case .failure(let error):
                self.outcome = .failed(error)
            }
            self.duration = duration
        }

        /// Bytes of the response on the wire (data and status word); 0 when the exchange failed.
        public var responseLength: Int {
            if case .response(let data, _) = outcome { return data.count + 2 }
            return 0
        }

        /// `> 00 B0 00 00 [..] Le=256` then `< [..] 9000`, redacted parts shown as `<N bytes redacted>`.
        public var description: String {
            var command = "> " + Hex.encode(header, separator: " ")
            if commandData.count > 0 { command += " Lc=\(commandData.count) " + Self.describe(commandData) }
            if let expectedLength { command += " Le=\(expectedLength)" }
            command += "  " + commandName
            let milliseconds =
                Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
            let answer: String
            switch outcome {
            case .response(let data, let statusWord):
                answer = "< " + (data.count > 0 ? Self.describe(data) + " " : "") + statusWord.description
            case .failed(let error):
                answer = "< error: \(error)"
            }
            return command + "\n" + answer + " (\(Int(milliseconds.rounded())) ms)"
        }

        /// The command's name for people reading the log (ISO/IEC 7816-4, ICAO 9303-11): `SELECT
        /// EF.COM`, `READ BINARY`, `GENERAL AUTHENTICATE`…, with `(SM)` when the class byte says
        /// secure messaging (then the file is inside the cryptogram and not named; a plain SELECT
        /// names it, and so does a plain READ BINARY by short file identifier).
        public var commandName: String { Self.commandName(header: header, data: commandData) }

        static func commandName(header: [UInt8], data commandData: LoggedBytes) -> String {
            let secure = header[0] & 0x0C == 0x0C
            var name: String
            switch header[1] {
            case 0xA4: name = "SELECT"
            case 0xB0, 0xB1: name = "READ BINARY"
            case 0x84: name = "GET CHALLENGE"
            case 0x82: name = "EXTERNAL AUTHENTICATE"
            case 0x88: name = "INTERNAL AUTHENTICATE"
            case 0x86, 0x87: name = "GENERAL AUTHENTICATE"
            case 0x22:
                switch header[2...3] {
                case [0xC1, 0xA4]: name = "MSE:Set AT"
                case [0x41, 0xA6]: name = "MSE:Set KAT"
                case [0x41, 0xA4]: name = "MSE:Set AT (chip authentication)"
                default: name = "MANAGE SECURITY ENVIRONMENT"
                }
            case 0xC0: name = "GET RESPONSE"
            default: name = "INS " + Hex.encode([header[1]])
            }
            if header[1] == 0xA4, !secure, case .clear(let data) = commandData, let file = Self.fileNames[data] {
                name += " " + file
            }
            // READ BINARY by short file identifier (P1 bit 8): the file's identifier ends in it.
            if header[1] == 0xB0, !secure, header[2] & 0x80 != 0, let file = Self.fileNames[[0x01, header[2] & 0x1F]] {
                name += " " + file
            }
            return secure ? name + " (SM)" : name
        }

        /// The files a reader selects in the clear, by identifier or application identifier.
        private static let fileNames: [[UInt8]: String] = {
            var names: [[UInt8]: String] = [
                [0x01, 0x1E]: "EF.COM", [0x01, 0x1D]: "EF.SOD/EF.CardSecurity", [0x01, 0x1C]: "EF.CardAccess",
                [0x3F, 0x00]: "MF", [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]: "eMRTD application",
            ]
            for number in 1...16 { names[[0x01, UInt8(number)]] = "EF.DG\(number)" }
            return names
        }()

        static func describe(_ bytes: LoggedBytes) -> String {
            switch bytes {
            case .clear(let bytes): Hex.encode(bytes, separator: " ")
            case .redacted(let count): "<\(count) bytes redacted>"
            }
        }
    }

    private let state = Mutex<[Entry]>([])

    public init() {}

    public func record(_ entry: Entry) { state.withLock { $0.append(entry) } }

    public var entries: [Entry] { state.withLock { $0 } }
    /// The number of exchanges recorded.
    public var count: Int { state.withLock { $0.count } }
    /// Command bytes sent plus response bytes received.
    public var bytesMoved: Int { state.withLock { $0.reduce(0) { $0 + $1.commandLength + $1.responseLength } } }
}

/// A transport that records every exchange of the transport below it in an `APDULog`.
public final class LoggingTransport: APDUTransport {
    public let base: any APDUTransport
    public let log: APDULog

    public init(_ base: any APDUTransport, log: APDULog = APDULog()) {
        self.base = base
        self.log = log
    }

    public var supportsExtendedLength: Bool { base.supportsExtendedLength }

    public func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let encodedLength = (try? command.encoded(extended: false).count) ?? 0
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<ResponseAPDU, TransportError>
        do throws(TransportError) {
            outcome = .success(try base.transmit(command))
        } catch {
            outcome = .failure(error)
        }
        log.record(
            APDULog.Entry(
                command: command, encodedLength: encodedLength, outcome: outcome,
                duration: start.duration(to: clock.now)))
        return try outcome.get()
    }
}
