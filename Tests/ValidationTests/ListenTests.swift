import Foundation
import TestSupport
import Testing

/// `emrtd serve --listen` binds exactly the address given, read back from the process's own
/// listening sockets; an address it cannot bind is exit 1 with one line.
@Suite(.serialized) struct ListenTests {
    @Test func theServerListensOnExactlyTheAddressGiven() throws {
        guard let fixture = try ServeFixture.make() else { return }
        defer { fixture.stop() }
        // IPv6 where the kernel gives loopback an IPv6 address (a container may have none).
        let interfaces = (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? ""
        let ipv6 = interfaces.contains("00000000000000000000000000000001")
        if !ipv6 { print("skipped: [::1] (this machine's loopback has no IPv6 address)") }
        for (listen, host) in [("127.0.0.1:0", "127.0.0.1")] + (ipv6 ? [("[::1]:0", "[::1]")] : []) {
            guard let server = try fixture.serve(listen: listen) else { continue }
            defer { server.stop() }
            #expect(server.listeningAddresses() == ["\(host):\(server.port ?? 0)"], "\(listen)")
        }
    }

    @Test func anAddressThatCannotBeBoundExitsOneWithOneLine() throws {
        guard let fixture = try ServeFixture.make() else { return }
        defer { fixture.stop() }
        guard let holder = try fixture.serve(listen: "127.0.0.1:0") else { return }
        defer { holder.stop() }
        let refused = [
            "256.1.1.1:8080",  // not an address
            "localhost:8080",  // a name, not an address
            "192.0.2.1:8080",  // not this machine's (TEST-NET-1)
            "127.0.0.1:\(holder.port ?? 0)",  // in use
        ]
        for listen in refused {
            let run = try Subprocess.run(fixture.emrtd, fixture.serveArguments(listen: listen))
            #expect(run.status == 1, "\(listen): \(run.combinedOutput)")
            let lines = run.errorOutput.split(separator: "\n")
            #expect(
                lines.count == 1 && lines.first?.hasPrefix("emrtd serve: cannot listen on") == true,
                "\(listen): \(lines)")
        }
        // An IPv6 address without brackets is a wrong command line.
        #expect(try Subprocess.run(fixture.emrtd, fixture.serveArguments(listen: "::1:8080")).status == 2)
    }
}
