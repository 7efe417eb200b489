import ASN1

/// BER-TLV and the ASN.1 node parser: the three entry points, then every value accessor on
/// every primitive node. DER input the parser accepted must re-encode to the same bytes.
let asn1Target = FuzzTarget(name: "asn1") { input in
    if let node = try? ASN1Node.parse(input, rules: .der) {
        fuzzCheck(reencoded(node) == Array(node.encodedBytes), "DER node does not re-encode to its bytes")
        readValues(of: node)
    }
    if let (node, remainder) = try? ASN1Node.parsePrefix(input, rules: .ber) {
        fuzzCheck(node.encodedBytes.count + remainder.count == input.count, "prefix and remainder lose bytes")
        readValues(of: node)
    }
    _ = try? ASN1Node.parseAll(input, rules: .ber)
}

/// The DER encoding of `node` rebuilt from its tag and content.
private func reencoded(_ node: ASN1Node) -> [UInt8] {
    guard node.isConstructed else { return DER.tlv(node.tag, node.content) }
    return DER.constructed(node.tag, node.children.map(reencoded))
}

/// Reads each primitive node as the type its universal tag names, as the domain parsers do.
private func readValues(of node: ASN1Node) {
    for child in node.children { readValues(of: child) }
    switch node.tag {
    case .integer, .enumerated:
        _ = try? node.integerBytes()
        _ = try? node.unsignedIntegerBytes()
        _ = try? node.intValue()
    case .boolean: _ = try? node.booleanValue()
    case .null: _ = try? node.nullValue()
    case .octetString: _ = try? node.octetString()
    case .bitString: _ = try? node.bitString()
    case .objectIdentifier:
        if let oid = try? node.objectIdentifier() {
            fuzzCheck(oid.content == Array(node.content), "OID \(oid) does not re-encode to its content")
            _ = oid.name
            fuzzCheck(ASN1ObjectIdentifier(dotted: oid.dotted) == oid, "OID \(oid) does not survive its dotted form")
        }
    case .utcTime, .generalizedTime: _ = try? node.time()
    default: _ = try? node.string()
    }
}
