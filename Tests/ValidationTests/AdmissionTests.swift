import Connector
import Foundation
import Glibc
import JSON
import Testing

/// Connections that never send `hello` have their own budget (per source address, in all) and
/// 2 s: they never take a session's place, so a valid session runs beside any number of them.
@Suite(.serialized) struct AdmissionTests {
    @Test func twoHundredSilentConnectionsDoNotStopAValidSession() throws {
        guard let fixture = try ServeFixture.make() else { return }
        defer { fixture.stop() }
        // One session's place: before, the first silent connection took it for 10 s.
        guard let server = try fixture.serve(listen: "127.0.0.1:0", ["--max-sessions", "1"]) else { return }
        defer { server.stop() }
        let port = try #require(server.port)

        // From 127.0.0.2, so that the relay (from 127.0.0.1) is another source address.
        let silent = (0..<200).compactMap { _ in SilentConnection(to: port, from: "127.0.0.2") }
        defer { for connection in silent { connection.close() } }
        #expect(silent.count == 200)
        let relay = try fixture.relay("ws://127.0.0.1:\(port)\(ValidationProtocol.path)", validationId: "v-beside")
        #expect(relay.status == 0, "\(relay.combinedOutput)")
        #expect(try JSONValue.parse(relay.output)["code"] == .integer(1000))

        // Each silent connection is refused at once (4007: its address's waiting places are
        // taken) or closed when its 2 s for hello are up (4004); none holds on.
        let codes = silent.map { $0.closeCode() }
        #expect(codes.allSatisfy { $0 == 4004 || $0 == 4007 }, "\(codes)")
        #expect(codes.contains(4004))
        #expect(server.isRunning)
    }
}

/// A WebSocket client on a plain socket from a chosen loopback address: it completes the
/// upgrade, then sends nothing.
private final class SilentConnection {
    private let descriptor: Int32
    /// What arrived after the upgrade's answer.
    private var pending: [UInt8]

    init?(to port: Int, from source: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        // A cap against a hang on every read.
        var wait = timeval(tv_sec: 30, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard Self.connect(descriptor, from: source, to: port) else {
            Glibc.close(descriptor)
            return nil
        }
        let request =
            "GET \(ValidationProtocol.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: \(ValidationProtocol.subprotocol)\r\n\r\n"
        guard
            Array(request.utf8).withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.utf8.count
        else {
            Glibc.close(descriptor)
            return nil
        }
        var received: [UInt8] = []
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while received.firstRange(of: end) == nil {
            guard let chunk = Self.read(descriptor) else {
                Glibc.close(descriptor)
                return nil
            }
            received += chunk
        }
        guard let headerEnd = received.firstRange(of: end),
            String(decoding: received[..<headerEnd.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.1 101")
        else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        pending = Array(received[headerEnd.upperBound...])
    }

    /// The code of the server's close frame (its first frame), 0 when none came.
    func closeCode() -> Int {
        while pending.count < 4 {
            guard let chunk = Self.read(descriptor) else { return 0 }
            pending += chunk
        }
        guard pending[0] & 0x0F == 0x08 else { return 0 }
        return Int(pending[2]) << 8 | Int(pending[3])
    }

    func close() { Glibc.close(descriptor) }

    private static func read(_ descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[..<count]) : nil
    }

    private static func connect(_ descriptor: Int32, from source: String, to port: Int) -> Bool {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        _ = inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0 && connected == 0
    }
}
