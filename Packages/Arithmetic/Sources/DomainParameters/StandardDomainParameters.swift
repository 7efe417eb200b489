/// Domain parameters of a key agreement: an elliptic curve or a DH group.
public enum DomainParameters: Sendable, Hashable {
    case ellipticCurve(EllipticCurve)
    case dhGroup(DHGroup)
}

/// One row of ICAO Doc 9303-11's standardized domain parameters (ids 0–2: the RFC 5114 MODP groups;
/// 8–18: NIST and Brainpool curves; 3–7 and 19–31 are reserved): the values. The vocabulary (9303's
/// names, curve OIDs, sizes, naming explicit parameters) is `ICAO.StandardizedDomainParameters`,
/// which builds on this.
public struct StandardDomainParameters: Sendable {
    public let id: Int
    public let name: String
    public let parameters: DomainParameters

    /// Every standardized parameter set, by increasing id. Precomputed tables are built on first use.
    public static let all: [StandardDomainParameters] = {
        let groups = standardGroupHex.map { row -> StandardDomainParameters in
            let group = DHGroup(
                p: hex(row.p), g: hex(row.g), q: hex(row.q), id: row.id, name: row.name, keepsTable: true)
            return StandardDomainParameters(id: row.id, name: row.name, parameters: .dhGroup(group))
        }
        let curves = standardCurveHex.map { row -> StandardDomainParameters in
            let p = hex(row.p)
            let a = hex(row.a)
            let b = hex(row.b)
            // The table's generators are uncompressed encodings of known-good points.
            let generator =
                (try? EllipticCurve.decodeCoordinates(hexBytes(row.generator), p: p, a: a, b: b)) ?? .infinity
            let context = CurveContext(
                p: p, a: a, b: b, generator: generator, order: hex(row.order), cofactor: BigInt(row.cofactor),
                keepsTables: true)
            let curve = EllipticCurve(context: context, standardParameterID: row.id, name: row.name)
            return StandardDomainParameters(id: row.id, name: row.name, parameters: .ellipticCurve(curve))
        }
        return groups + curves
    }()

    /// The standardized parameters with this id, or nil for reserved and unknown ids.
    public static func parameters(id: Int) -> StandardDomainParameters? { all.first { $0.id == id } }

    /// The standardized curve with this id (8–18).
    public static func curve(id: Int) -> EllipticCurve? {
        if case .ellipticCurve(let curve) = parameters(id: id)?.parameters { return curve }
        return nil
    }

    /// The standardized DH group with this id (0–2).
    public static func group(id: Int) -> DHGroup? {
        if case .dhGroup(let group) = parameters(id: id)?.parameters { return group }
        return nil
    }

    /// The standardized curve with this name ("P-256", "brainpoolP256r1", …).
    public static func curve(named name: String) -> EllipticCurve? {
        for entry in all where entry.name == name {
            if case .ellipticCurve(let curve) = entry.parameters { return curve }
        }
        return nil
    }

    /// The standardized curve with these explicit parameters (identification of a named curve).
    static func curve(
        p: BigInt, a: BigInt, b: BigInt, generator: ECPoint, order: BigInt, cofactor: BigInt
    ) -> EllipticCurve? {
        for entry in all {
            guard case .ellipticCurve(let curve) = entry.parameters else { continue }
            if curve.p == p && curve.a == a && curve.b == b && curve.generator == generator && curve.order == order
                && curve.cofactor == cofactor
            {
                return curve
            }
        }
        return nil
    }

    /// The standardized group with these parameters (q may be absent in the input).
    static func group(p: BigInt, g: BigInt, q: BigInt?) -> DHGroup? {
        for entry in all {
            guard case .dhGroup(let group) = entry.parameters else { continue }
            if group.p == p && group.g == g && (q == nil || group.subgroupOrder == q) { return group }
        }
        return nil
    }

    private static func hex(_ text: String) -> BigInt { BigInt(hex: text) ?? BigInt(0) }

    private static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) {
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
