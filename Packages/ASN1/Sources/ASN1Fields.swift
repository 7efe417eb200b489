/// Reads the fields of a SEQUENCE (or any constructed node) in order, the way its ASN.1 definition
/// lists them: required fields by name, OPTIONAL and tagged fields by their tag, so that an absent
/// OPTIONAL never shifts the fields after it (no index arithmetic).
///
/// ```
/// var fields = try node.sequenceFields("SignedData")
/// let version = try fields.next(.integer, "version").intValue()
/// let certificates = fields.next(optional: .contextSpecific(0, constructed: true))
/// try fields.finish()              // nothing may follow, or
/// fields.ignoreRemaining()         // where real documents add fields of their own
/// ```
///
/// Errors say which field, in which structure, at which position: `missingElement` when the
/// structure ends before a required field, `unexpectedTag` when a field has another tag,
/// `trailingData` from `finish()` when fields are left.
public struct ASN1Fields: Sendable, IteratorProtocol {
    /// The node whose children these are (named in error reasons).
    public let container: ASN1Node
    /// The position of the next field among the container's children.
    public private(set) var position: Int

    public init(_ container: ASN1Node) {
        self.container = container
        position = container.children.startIndex
    }

    /// The next field without consuming it; nil at the end.
    public var peek: ASN1Node? {
        position < container.children.endIndex ? container.children[position] : nil
    }

    /// Whether every field has been read.
    public var isAtEnd: Bool { position >= container.children.endIndex }

    /// The fields not read yet.
    public var remaining: ArraySlice<ASN1Node> { container.children[position...] }

    /// The next field whatever its tag, nil at the end (`IteratorProtocol`).
    public mutating func next() -> ASN1Node? {
        guard let field = peek else { return nil }
        position += 1
        return field
    }

    /// The next field, required, whatever its tag (`ANY`, a CHOICE the caller tells apart).
    public mutating func next(_ what: String) throws(ASN1Error) -> ASN1Node {
        guard let field = next() else {
            throw ASN1Error(.missingElement, "\(what) (element \(position)) missing in \(container.tag)")
        }
        return field
    }

    /// The next field, required, with `tag`.
    public mutating func next(_ tag: ASN1Tag, _ what: String) throws(ASN1Error) -> ASN1Node {
        guard let field = peek else {
            throw ASN1Error(.missingElement, "\(what) (element \(position)) missing in \(container.tag)")
        }
        guard field.tag == tag else {
            throw ASN1Error(
                .unexpectedTag,
                "\(what): expected tag \(tag), found \(field.tag) (element \(position) of \(container.tag))")
        }
        position += 1
        return field
    }

    /// The next field when its tag is `tag` (an OPTIONAL or DEFAULT field, a tagged field);
    /// nil, consuming nothing, when the field is absent.
    public mutating func next(optional tag: ASN1Tag) -> ASN1Node? {
        nextIf { $0.tag == tag }
    }

    /// The next field when `matches` accepts it; nil, consuming nothing, otherwise.
    public mutating func nextIf(_ matches: (ASN1Node) -> Bool) -> ASN1Node? {
        guard let field = peek, matches(field) else { return nil }
        position += 1
        return field
    }

    /// Skips fields up to the first with `tag` and returns it, nil (consuming nothing) when none
    /// has it: for a field that follows OPTIONAL fields of no interest.
    public mutating func skip(to tag: ASN1Tag) -> ASN1Node? {
        guard let index = remaining.firstIndex(where: { $0.tag == tag }) else { return nil }
        position = index + 1
        return container.children[index]
    }

    /// Ends a structure that has no more fields: `trailingData` naming the first extra field.
    public func finish() throws(ASN1Error) {
        guard let extra = peek else { return }
        throw ASN1Error(
            .trailingData,
            "\(container.children.count - position) unexpected fields from element \(position) (\(extra.tag)) in \(container.tag)"
        )
    }

    /// Ends a structure where extra fields are tolerated: extension markers (`...`) and the
    /// fields real chips and certificates add beyond the definition.
    public mutating func ignoreRemaining() {
        position = container.children.endIndex
    }
}

extension ASN1Node {
    /// The fields of this node, which must be a SEQUENCE (else `unexpectedTag` naming `what`).
    public func sequenceFields(_ what: String) throws(ASN1Error) -> ASN1Fields {
        ASN1Fields(try expect(.sequence, what))
    }

    /// The fields of this node, which must have `tag` (a SET, an application-tagged template).
    public func fields(_ tag: ASN1Tag, _ what: String) throws(ASN1Error) -> ASN1Fields {
        ASN1Fields(try expect(tag, what))
    }

    /// The fields of this node whatever its tag (an IMPLICIT-tagged SEQUENCE, a wrapper).
    public var fields: ASN1Fields { ASN1Fields(self) }

    /// The value inside an EXPLICIT tag or a wrapper such as `[0] EXPLICIT SignedData`: the first
    /// child (BER wrappers seen on chips may carry more; they are ignored as before).
    public func wrapped(_ what: String) throws(ASN1Error) -> ASN1Node {
        var fields = fields
        return try fields.next(what)
    }
}
