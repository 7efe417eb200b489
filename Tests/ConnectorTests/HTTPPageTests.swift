import Foundation
import Glibc
import Testing

@testable import Connector

/// The pages a WebSocket server hands out over plain HTTP (`emrtd station`'s page): the bytes
/// given, their type and the headers that keep the page to itself; any other path is 404.
@Suite struct HTTPPageTests {
    /// One HTTP/1.1 GET over a plain socket: the status line, the headers (lower-cased names) and
    /// the body, read up to its Content-Length (each wait for bytes at most 5 s).
    private static func get(_ path: String, port: Int) throws -> (
        status: String, headers: [String: String], body: [UInt8]
    ) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        try #require(send(descriptor, request, request.count, 0) == request.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = received.indices.dropLast(3).first(where: {
                Array(received[$0..<($0 + 4)]) == Array("\r\n\r\n".utf8)
            }) {
                let head = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                        in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                let body = Array(received[(end + 4)...])
                if body.count >= length { return (head[0], headers, Array(body.prefix(length))) }
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            try #require(count > 0, "the server closed or went silent before the whole answer")
            received += buffer[..<count]
        }
    }

    @Test func aPageIsServedWithItsTypeAndPolicyAndAnyOtherPathIs404() throws {
        let page = Array("<!DOCTYPE html><p>station</p>".utf8) + [UInt8](repeating: 0x20, count: 70_000)
        let server = try WebSocketEndpoint(
            serverOn: "127.0.0.1", port: 0, path: "/ws", protocolName: "test", tls: nil,
            limits: WebSocketLimits(maximumMessageSize: 1024),
            pages: ["/": HTTPPage(contentType: "text/html; charset=utf-8", body: page)]
        ) { _ in }
        defer { server.stop() }
        let answer = try Self.get("/", port: server.port)
        #expect(answer.status.hasPrefix("HTTP/1.1 200"))
        #expect(answer.body == page)
        #expect(answer.headers["content-type"] == "text/html; charset=utf-8")
        #expect(answer.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true)
        #expect(answer.headers["x-frame-options"] == "DENY" && answer.headers["cache-control"] == "no-store")
        let query = try Self.get("/?next=1", port: server.port)
        #expect(query.body == page)
        let missing = try Self.get("/other", port: server.port)
        #expect(missing.status.hasPrefix("HTTP/1.1 404"))
    }
}
