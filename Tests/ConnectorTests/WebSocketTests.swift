import Foundation
import Testing

@testable import Connector

/// The libwebsockets endpoint, server and client in this process (run under AddressSanitizer in
/// `.ci/run`): limits that close a connection mid-frame, and the listening address.
@Suite struct WebSocketTests {
    /// A server that sends, to every client, a 1 MB text message and then a 100 KB binary one.
    private static func largeSender() throws -> WebSocketEndpoint {
        try WebSocketEndpoint(
            serverOn: "127.0.0.1", port: 0, path: "/large", protocolName: "test", tls: nil,
            limits: WebSocketLimits(maximumMessageSize: 1024)
        ) { connection in
            connection.send(.text(String(repeating: "r", count: 1_000_000)))
            connection.send(.binary([UInt8](repeating: 0xA5, count: 100_000)))
        }
    }

    private static func client(of server: WebSocketEndpoint, limits: WebSocketLimits) throws -> WebSocketEndpoint {
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/large"))
        return try WebSocketEndpoint(clientTo: url, protocolName: "test", caFile: nil, limits: limits)
    }

    /// What used to corrupt the relay's heap: libwebsockets 4.1's client parser, told to close
    /// from its receive callback mid-frame, wrote the rest of the frame past its buffer. The
    /// close now waits for the next writable callback; every client sees 1009, none crashes.
    @Test func aMessageOverTheClientsLimitIsClosedWith1009() throws {
        let server = try Self.largeSender()
        defer { server.stop() }
        for _ in 0..<8 {
            let client = try Self.client(of: server, limits: WebSocketLimits(maximumMessageSize: 70_000))
            defer { client.stop() }
            let event = client.client?.receive(timeout: .seconds(30))
            guard case .closed(let code, _)? = event else {
                Issue.record("no close: \(String(describing: event))")
                return
            }
            #expect(code == 1009)
        }
    }

    /// A text limit above the binary one lets a large text message through whole; the binary
    /// message over its own limit is still refused.
    @Test func aLargerTextLimitDeliversTheWholeMessage() throws {
        let server = try Self.largeSender()
        defer { server.stop() }
        let client = try Self.client(
            of: server, limits: WebSocketLimits(maximumMessageSize: 70_000, maximumTextMessageSize: 2_000_000))
        defer { client.stop() }
        #expect(
            client.client?.receive(timeout: .seconds(30)) == .message(.text(String(repeating: "r", count: 1_000_000))))
        guard case .closed(let code, _)? = client.client?.receive(timeout: .seconds(30)) else {
            Issue.record("no close after the binary message")
            return
        }
        #expect(code == 1009)
    }

    /// Only an IPv4 or IPv6 address is listened on, exactly; one that cannot be bound is an error
    /// at once, not a server that logs and never listens.
    @Test func theListeningAddressIsBoundOrRefused() throws {
        let server = try WebSocketEndpoint(
            serverOn: "127.0.0.1", port: 0, path: "/", protocolName: "test", tls: nil,
            limits: WebSocketLimits(maximumMessageSize: 1024)
        ) { _ in }
        defer { server.stop() }
        #expect(server.port > 0)
        for host in ["256.1.1.1", "localhost", "lo", "", "192.0.2.1", "[::1]"] {
            #expect(throws: ConnectorError.self, "\(host)") {
                try WebSocketEndpoint(
                    serverOn: host, port: 0, path: "/", protocolName: "test", tls: nil,
                    limits: WebSocketLimits(maximumMessageSize: 1024)
                ) { _ in }
            }
        }
        // The port the first server holds.
        #expect(throws: ConnectorError.self) {
            try WebSocketEndpoint(
                serverOn: "127.0.0.1", port: server.port, path: "/", protocolName: "test", tls: nil,
                limits: WebSocketLimits(maximumMessageSize: 1024)
            ) { _ in }
        }
    }
}
