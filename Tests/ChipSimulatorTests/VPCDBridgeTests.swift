import Foundation
import Glibc
import TestSupport
import Testing

@testable import ChipSimulator

/// The bridge against a stand-in for vpcd on the loopback interface: the same framing vpcd uses
/// (2-byte big-endian length, 1-byte control messages), checked from the server's side.
@Suite struct VPCDBridgeTests {
    /// A listening TCP socket on 127.0.0.1 with a kernel-chosen port.
    final class FakeVPCD {
        let listener: Int32
        let port: UInt16
        var connection: Int32 = -1

        init() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listener = listener
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(listener, 1) == 0 else { throw ChipSimulatorError("bind/listen failed") }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            port = UInt16(bigEndian: address.sin_port)
        }

        func accept() { connection = Glibc.accept(listener, nil, nil) }

        func send(_ message: [UInt8]) {
            let framed = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
            _ = framed.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, 0) }
        }

        func receive() -> [UInt8] {
            func read(_ count: Int) -> [UInt8] {
                var buffer = [UInt8](repeating: 0, count: count)
                var filled = 0
                while filled < count {
                    let received = buffer.withUnsafeMutableBytes {
                        recv(connection, $0.baseAddress?.advanced(by: filled), count - filled, 0)
                    }
                    if received <= 0 { return [] }
                    filled += received
                }
                return buffer
            }
            let header = read(2)
            guard header.count == 2 else { return [] }
            return read(Int(header[0]) << 8 | Int(header[1]))
        }

        func close() {
            Glibc.close(connection)
            Glibc.close(listener)
        }
    }

    @Test func servesControlMessagesAndAPDUs() throws {
        let server = try FakeVPCD()
        var files = ChipFiles()
        files.cardAccess = [0x31, 0x00]
        let chip = SimulatedChip(files: files)
        let bridge = VPCDBridge(chip: chip, port: server.port)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? bridge.run(connectTimeout: .seconds(30))
            finished.signal()
        }
        thread.start()
        server.accept()
        server.send([0x01])  // power on: no answer
        server.send([0x04])  // ATR
        #expect(server.receive() == chip.answerToReset)
        server.send(hex("00A4020C02011C"))
        #expect(server.receive() == hex("9000"))
        server.send(hex("00B0000002"))
        #expect(server.receive() == hex("31009000"))
        server.send(hex("00B0"))  // no header: the chip answers 6700
        #expect(server.receive() == hex("6700"))
        server.close()
        #expect(finished.wait(timeout: .now() + 30) == .success)
    }

    @Test func givesUpWhenNothingListens() throws {
        let server = try FakeVPCD()
        let port = server.port
        server.close()
        let bridge = VPCDBridge(chip: SimulatedChip(files: ChipFiles()), port: port)
        #expect(throws: ChipSimulatorError.self) { try bridge.run(connectTimeout: .milliseconds(300)) }
    }
}
