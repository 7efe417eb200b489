import Glibc
import Transport

/// Connects a `SimulatedChip` to vsmartcard's `vpcd` pcscd driver, so the chip sits behind a real
/// pcscd exactly like a card on a reader.
///
/// The protocol (vsmartcard's `vpcd`): the chip is the TCP client; every message either way is a
/// 2-byte big-endian length and its bytes. A 1-byte message from vpcd is a control message:
/// 0 power off, 1 power on, 2 reset (no answer), 4 ATR (answered with the ATR). Anything longer
/// is a command APDU, answered with the response APDU.
public struct VPCDBridge: Sendable {
    public let chip: SimulatedChip
    public let host: String
    public let port: UInt16

    /// vpcd's first reader slot ("Virtual PCD 00 00"); the second one listens on 35964.
    public static let defaultPort: UInt16 = 35963

    public init(chip: SimulatedChip, host: String = "127.0.0.1", port: UInt16 = defaultPort) {
        self.chip = chip
        self.host = host
        self.port = port
    }

    /// Connects (retrying for up to `connectTimeout` while pcscd starts) and serves vpcd until it
    /// closes the connection. `onConnected` runs once the connection stands.
    public func run(connectTimeout: Duration = .seconds(10), onConnected: () -> Void = {}) throws(ChipSimulatorError) {
        let socket = try connect(timeout: connectTimeout)
        defer { close(socket) }
        onConnected()
        while let message = try receive(socket) {
            if message.count == 1 {
                switch message[0] {
                case 0, 1, 2:
                    chip.reset()
                case 4:
                    try send(chip.answerToReset, on: socket)
                default:
                    break  // unknown control messages have no answer
                }
                continue
            }
            let answer: [UInt8]
            do throws(TransportError) {
                answer = try chip.transmit(try CommandAPDU(encoded: message)).encoded
            } catch .TagLost {
                return  // the simulated card leaves the reader: pcscd sees it removed
            } catch {
                answer = [0x67, 0x00]  // a command APDU that cannot be parsed has a wrong length
            }
            try send(answer, on: socket)
        }
    }

    private func connect(timeout: Duration) throws(ChipSimulatorError) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw ChipSimulatorError("vpcd host \(host) is not an IPv4 address")
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw ChipSimulatorError("socket(): errno \(errno)") }
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 { return socket }
            let failure = errno
            close(socket)
            guard clock.now < deadline else {
                throw ChipSimulatorError("cannot connect to vpcd at \(host):\(port): errno \(failure)")
            }
            sleepBlocking(.milliseconds(100))
        }
    }

    /// The next message, or nil when vpcd closed the connection.
    private func receive(_ socket: Int32) throws(ChipSimulatorError) -> [UInt8]? {
        guard let header = try read(socket, count: 2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        guard length > 0 else { return [] }
        guard let body = try read(socket, count: length) else {
            throw ChipSimulatorError("vpcd closed the connection inside a message")
        }
        return body
    }

    private func read(_ socket: Int32, count: Int) throws(ChipSimulatorError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let received = buffer.withUnsafeMutableBytes {
                recv(socket, $0.baseAddress?.advanced(by: filled), count - filled, 0)
            }
            if received == 0 {
                guard filled == 0 else { throw ChipSimulatorError("vpcd closed the connection inside a message") }
                return nil
            }
            if received < 0 {
                if errno == EINTR { continue }
                throw ChipSimulatorError("reading from vpcd: errno \(errno)")
            }
            filled += received
        }
        return buffer
    }

    private func send(_ bytes: [UInt8], on socket: Int32) throws(ChipSimulatorError) {
        let message = [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        var sent = 0
        while sent < message.count {
            let written = message.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress?.advanced(by: sent), message.count - sent, 0)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw ChipSimulatorError("writing to vpcd: errno \(errno)")
            }
            sent += written
        }
    }
}
