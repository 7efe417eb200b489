import ASN1
import JSON

/// DG13, optional details: issuer-defined content, kept raw, with a flat view of its data
/// objects when the content parses as BER-TLV.
public struct OptionalDetails: LDSFileModel, Equatable {
    /// One primitive data object of the content, in document order.
    public struct DataObject: Sendable, Equatable, JSONRepresentable {
        /// The tag's bytes in hex, e.g. "5F0E".
        public let tag: String
        public let value: [UInt8]

        public var json: JSONValue {
            let printable = value.allSatisfy { (0x20...0x7E).contains($0) }
            return [
                "tag": .integer(Int(tag, radix: 16) ?? 0), "value": .bytes(value),
                "text": printable ? .string(decodeText(value)) : .null,
            ]
        }
    }

    public let rawBytes: [UInt8]
    /// The bytes inside the 6D tag.
    public let content: [UInt8]
    /// The top-level data objects, nil when the content is not TLV.
    public let dataObjects: [DataObject]?
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let (content, warnings) = try OuterTLV.content(bytes, kind: .dg13)
        rawBytes = bytes
        self.content = content
        let nodes = try? ASN1Node.parseAll(content, rules: .ber, maxDepth: OuterTLV.maximumDepth)
        dataObjects = nodes.map(Self.flatten)
        self.warnings = warnings + (nodes == nil ? ["DG13 content is not BER-TLV; kept raw"] : [])
    }

    /// The top-level data objects, not descended into (the reference's flat, non-recursive view):
    /// a constructed object's value is its content bytes.
    private static func flatten(_ nodes: [ASN1Node]) -> [DataObject] {
        nodes.map { DataObject(tag: Hex.encode($0.tag.encoded), value: $0.bytes) }
    }

    /// The reference's `OptionalDetails`: `content` and `fields` (tag as a number, value; empty
    /// when the content is not TLV). Added per field: `text` when the value is printable.
    public var json: JSONValue {
        ["content": .bytes(content), "fields": .array(dataObjects ?? [])]
    }
}
