/// Which encoding rules the parser enforces.
public enum EncodingRules: Sendable {
    /// BER as chips write it: indefinite lengths (constructed only), non-minimal lengths.
    case ber
    /// DER: definite, minimal lengths only.
    case der
}

/// One parsed TLV and, when constructed, its children.
///
/// `encodedBytes` are the exact bytes read (tag, length, value and, for an indefinite
/// length, the end-of-contents octets): hashes and signatures are computed over these,
/// never over a re-encoding.
public struct ASN1Node: Sendable, Hashable {
    public let tag: ASN1Tag
    /// Tag, length, value (and end-of-contents) exactly as read.
    public let encodedBytes: ArraySlice<UInt8>
    /// The value bytes (for an indefinite length: between the header and end-of-contents).
    public let content: ArraySlice<UInt8>
    /// The parsed children of a constructed node; empty for a primitive one.
    public let children: [ASN1Node]
    public let isIndefiniteLength: Bool

    public var isConstructed: Bool { tag.isConstructed }

    /// The first direct child with `tag`.
    public func child(_ tag: ASN1Tag) -> ASN1Node? {
        children.first { $0.tag == tag }
    }

    /// Every direct child with `tag`, in order.
    public func children(_ tag: ASN1Tag) -> [ASN1Node] {
        children.filter { $0.tag == tag }
    }

    /// The first direct child with `tag`, or a `missingElement` error naming `what`.
    public func requiredChild(_ tag: ASN1Tag, _ what: String) throws(ASN1Error) -> ASN1Node {
        guard let child = child(tag) else {
            throw ASN1Error(.missingElement, "\(what) (tag \(tag)) missing in \(self.tag)")
        }
        return child
    }

    /// The child at `index`, or a `missingElement` error naming `what`.
    public func child(at index: Int, _ what: String) throws(ASN1Error) -> ASN1Node {
        guard index >= 0, index < children.count else {
            throw ASN1Error(.missingElement, "\(what) (element \(index)) missing in \(tag)")
        }
        return children[index]
    }

    /// This node when its tag is `tag`, else an `unexpectedTag` error naming `what`.
    @discardableResult
    public func expect(_ tag: ASN1Tag, _ what: String) throws(ASN1Error) -> ASN1Node {
        guard self.tag == tag else {
            throw ASN1Error(.unexpectedTag, "\(what): expected tag \(tag), found \(self.tag)")
        }
        return self
    }
}

extension ASN1Node {
    /// The default nesting limit: deep enough for certificates and CMS, shallow enough
    /// that hostile input cannot exhaust the stack.
    public static let defaultMaxDepth = 32

    /// Parses exactly one node; bytes after it are a `trailingData` error.
    public static func parse(
        _ bytes: some Collection<UInt8>, rules: EncodingRules = .ber, maxDepth: Int = defaultMaxDepth
    ) throws(ASN1Error) -> ASN1Node {
        let (node, rest) = try parsePrefix(bytes, rules: rules, maxDepth: maxDepth)
        guard rest.isEmpty else {
            throw ASN1Error(.trailingData, "\(rest.count) bytes after the \(node.tag) value")
        }
        return node
    }

    /// Parses the first node and returns it with the bytes that follow it (for files that
    /// carry padding after their outer TLV).
    public static func parsePrefix(
        _ bytes: some Collection<UInt8>, rules: EncodingRules = .ber, maxDepth: Int = defaultMaxDepth
    ) throws(ASN1Error) -> (node: ASN1Node, remainder: ArraySlice<UInt8>) {
        let slice = ArraySlice(bytes)
        var parser = Parser(bytes: slice, rules: rules, maxDepth: maxDepth)
        var index = slice.startIndex
        let node = try parser.node(at: &index, depth: 1)
        return (node, slice[index...])
    }

    /// Parses a concatenation of nodes (e.g. a list of data objects) to the end.
    public static func parseAll(
        _ bytes: some Collection<UInt8>, rules: EncodingRules = .ber, maxDepth: Int = defaultMaxDepth
    ) throws(ASN1Error) -> [ASN1Node] {
        let slice = ArraySlice(bytes)
        var parser = Parser(bytes: slice, rules: rules, maxDepth: maxDepth)
        var index = slice.startIndex
        var nodes: [ASN1Node] = []
        while index < slice.endIndex {
            nodes.append(try parser.node(at: &index, depth: 1))
        }
        return nodes
    }
}

/// The BER/DER reader behind `ASN1Node.parse`. Lengths are checked against the input
/// before any slice is taken, so a declared length never causes an allocation.
private struct Parser {
    let bytes: ArraySlice<UInt8>
    let rules: EncodingRules
    let maxDepth: Int

    mutating func node(at index: inout Int, depth: Int) throws(ASN1Error) -> ASN1Node {
        guard depth <= maxDepth else {
            throw ASN1Error(.tooDeep, "nesting deeper than \(maxDepth) at offset \(index - bytes.startIndex)")
        }
        let start = index
        let header = try ASN1Header.read(from: bytes, at: &index, rules: rules)
        let tag = header.tag
        guard let length = header.length else {
            return try indefiniteNode(tag: tag, start: start, index: &index, depth: depth)
        }
        guard length <= bytes.endIndex - index else {
            throw ASN1Error(
                .invalidLength,
                "\(tag) declares \(length) bytes but \(bytes.endIndex - index) remain at offset \(start - bytes.startIndex)"
            )
        }
        let content = bytes[index..<(index + length)]
        index += length
        var children: [ASN1Node] = []
        if tag.isConstructed {
            var childIndex = content.startIndex
            var inner = Parser(bytes: content, rules: rules, maxDepth: maxDepth)
            while childIndex < content.endIndex {
                children.append(try inner.node(at: &childIndex, depth: depth + 1))
            }
        }
        return ASN1Node(
            tag: tag, encodedBytes: bytes[start..<index], content: content, children: children,
            isIndefiniteLength: false)
    }

    private mutating func indefiniteNode(
        tag: ASN1Tag, start: Int, index: inout Int, depth: Int
    ) throws(ASN1Error) -> ASN1Node {
        guard rules == .ber else {
            throw ASN1Error(
                .indefiniteLengthNotAllowed, "indefinite length in DER at offset \(start - bytes.startIndex)")
        }
        guard tag.isConstructed else {
            throw ASN1Error(.indefiniteLengthNotAllowed, "indefinite length on primitive \(tag)")
        }
        let contentStart = index
        var children: [ASN1Node] = []
        while true {
            guard bytes.endIndex - index >= 2 else {
                throw ASN1Error(.truncated, "end-of-contents of \(tag) missing")
            }
            if bytes[index] == 0 && bytes[index + 1] == 0 { break }
            children.append(try node(at: &index, depth: depth + 1))
        }
        let content = bytes[contentStart..<index]
        index += 2
        return ASN1Node(
            tag: tag, encodedBytes: bytes[start..<index], content: content, children: children,
            isIndefiniteLength: true)
    }

}
