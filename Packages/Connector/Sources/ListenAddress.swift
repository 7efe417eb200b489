import Foundation

/// The address a server listens on: a numeric IPv4 or IPv6 address, never a name, so that what
/// is bound is exactly what was asked for.
enum ListenAddress {
    /// `AF_INET` or `AF_INET6` for `host` (IPv6 without brackets); anything else is refused.
    static func family(of host: String) throws(ConnectorError) -> Int32 {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return AF_INET }
        if inet_pton(AF_INET6, host, &v6) == 1 { return AF_INET6 }
        throw ConnectorError(.invalidArgument, "cannot listen on \(host): not an IPv4 address or [IPv6] address")
    }

    /// `host:port`, with brackets around an IPv6 address.
    static func display(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Binds a socket to `host` and `port` as libwebsockets will (SO_REUSEADDR; IPv6 only on
    /// an IPv6 socket) and closes it, so that an address that is not local or a port in use is
    /// an error with the system's reason before any context exists.
    static func probe(_ host: String, family: Int32, port: Int) throws(ConnectorError) {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            throw ConnectorError(.io, "cannot listen on \(display(host, port)): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET, host, &address.sin_addr)
            bound = bind(descriptor, to: address)
        } else {
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            bound = bind(descriptor, to: address)
        }
        guard bound == 0 else {
            throw ConnectorError(.io, "cannot listen on \(display(host, port)): \(String(cString: strerror(errno)))")
        }
    }

    /// `bind(2)` of `descriptor` to a `sockaddr_in` or `sockaddr_in6`.
    private static func bind<Address>(_ descriptor: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}
