/// An OBJECT IDENTIFIER (X.690 §8.19), held as its arcs.
///
/// Named `ASN1ObjectIdentifier` so it does not shadow the standard library's
/// `ObjectIdentifier`.
public struct ASN1ObjectIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public private(set) var arcs: [UInt64]

    /// From dotted form, e.g. "0.4.0.127.0.7.2.2.4.2.4"; nil when malformed.
    public init?(dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        var arcs: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), let arc = UInt64(part) else { return nil }
            arcs.append(arc)
        }
        // The first two arcs share one encoded value, 40·x + y, which must fit.
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40, arcs[1] <= UInt64.max - 80 else {
            return nil
        }
        self.arcs = arcs
    }

    /// For constants in code; a malformed literal is a programming error.
    public init(stringLiteral value: String) {
        guard let oid = ASN1ObjectIdentifier(dotted: value) else { preconditionFailure("malformed OID \(value)") }
        self = oid
    }

    /// From the content octets of an OBJECT IDENTIFIER.
    public init(content: some BidirectionalCollection<UInt8>) throws(ASN1Error) {
        guard let last = content.last else { throw ASN1Error(.invalidValue, "empty OBJECT IDENTIFIER") }
        guard last & 0x80 == 0 else { throw ASN1Error(.truncated, "OBJECT IDENTIFIER ends inside an arc") }
        var values: [UInt64] = []
        var value: UInt64 = 0
        var started = false
        for byte in content {
            if !started && byte == 0x80 {
                throw ASN1Error(.invalidValue, "OBJECT IDENTIFIER arc with a leading zero group")
            }
            guard value >> 57 == 0 else { throw ASN1Error(.invalidValue, "OBJECT IDENTIFIER arc too large") }
            value = value << 7 | UInt64(byte & 0x7F)
            started = byte & 0x80 != 0
            if !started {
                values.append(value)
                value = 0
            }
        }
        let first = values[0]
        let (x, y): (UInt64, UInt64) = first < 40 ? (0, first) : first < 80 ? (1, first - 40) : (2, first - 80)
        arcs = [x, y] + values.dropFirst()
    }

    public var dotted: String { arcs.map(String.init).joined(separator: ".") }
    public var description: String { dotted }

    /// The name in the table of known OIDs (ICAO 9303, BSI TR-03110, PKIX, PKCS), if any.
    public var name: String? { KnownObjectIdentifiers.names[self] }

    /// The content octets.
    public var content: [UInt8] {
        var out: [UInt8] = []
        let firstArc = arcs[0] * 40 + arcs[1]
        for arc in [firstArc] + arcs.dropFirst(2) {
            var group: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest != 0 {
                group.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += group
        }
        return out
    }

    /// Whether `self` lies under `prefix` (or equals it).
    public func hasPrefix(_ prefix: ASN1ObjectIdentifier) -> Bool {
        arcs.count >= prefix.arcs.count && Array(arcs.prefix(prefix.arcs.count)) == prefix.arcs
    }

    /// This identifier with `more` arcs below it: `ASN1ObjectIdentifier.pace.appending(2, 2)`.
    public func appending(_ more: UInt64...) -> ASN1ObjectIdentifier { appending(contentsOf: more) }

    /// This identifier with the arcs of `more` below it.
    public func appending(contentsOf more: [UInt64]) -> ASN1ObjectIdentifier {
        var extended = self
        extended.arcs += more
        return extended
    }
}
