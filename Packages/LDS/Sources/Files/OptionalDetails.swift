import ASN1
import Foundation
import JSON

/// DG13, optional details: issuer-defined content, kept raw, with a flat view of its data
/// objects when the content parses as BER-TLV.
public struct OptionalDetails: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    /// The value of the 6D object (the reference's `content`).
    public let content: Data
    /// A flat, non-recursive TLV view of `content`, in document order; empty when the content is
    /// not TLV (a warning then says so).
    public let fields: [TagValue]
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let (content, warnings) = try OuterTLV.content(bytes, kind: .dg13)
        rawBytes = bytes
        self.content = Data(content)
        let nodes = try? ASN1Node.parseAll(content, rules: .ber, maxDepth: OuterTLV.maximumDepth)
        fields = nodes.map(Self.flatten) ?? []
        self.warnings = warnings + (nodes == nil ? ["DG13 content is not BER-TLV; kept raw"] : [])
    }

    /// The top-level data objects, not descended into (the reference's flat, non-recursive view):
    /// a constructed object's value is its content bytes.
    private static func flatten(_ nodes: [ASN1Node]) -> [TagValue] {
        nodes.map { TagValue(encodedTag: $0.tag.encoded, value: $0.bytes) }
    }

    /// The reference's `OptionalDetails`: `content` and `fields` (tag as a number, value; empty
    /// when the content is not TLV). Added per field: `text` when the value is printable.
    public var json: JSONValue {
        ["content": .bytes(Array(content)), "fields": .array(fields)]
    }
}

/// One data object of DG13's content (the reference's `TagValue`).
public struct TagValue: Sendable, Equatable, JSONRepresentable {
    /// The tag's bytes read as a big-endian number, e.g. 0x5F0E (a tag of more than four bytes,
    /// which no issuer writes, keeps its last four).
    public let tag: UInt32
    public let value: Data
    /// The whole tag as a number, for the JSON (which writes a long tag whole).
    private let tagNumber: UInt64

    public init(tag: UInt32, value: Data) {
        self.tag = tag
        self.value = value
        tagNumber = UInt64(tag)
    }

    init(encodedTag: [UInt8], value: some Collection<UInt8>) {
        let number = encodedTag.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        tag = UInt32(truncatingIfNeeded: number)
        self.value = Data(value)
        tagNumber = number
    }

    public var json: JSONValue {
        let printable = value.allSatisfy { (0x20...0x7E).contains($0) }
        return [
            "tag": .integer(Int(truncatingIfNeeded: tagNumber)), "value": .bytes(Array(value)),
            "text": printable ? .string(decodeText(Array(value))) : .null,
        ]
    }
}
