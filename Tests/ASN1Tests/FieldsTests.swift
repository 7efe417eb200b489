import ASN1
import Testing

/// `ASN1Fields`: OPTIONAL and tagged fields found by their tag, with errors that say which field.
@Suite struct FieldsTests {
    /// `Example ::= SEQUENCE { version INTEGER, [0] IMPLICIT OCTET STRING OPTIONAL,
    ///  name OCTET STRING, [1] EXPLICIT INTEGER OPTIONAL }`
    func example(tagged0: Bool, tagged1: Bool, extra: [UInt8] = []) throws -> ASN1Node {
        var content = DER.integer(1)
        if tagged0 { content += DER.tlv(ASN1Tag(0x80), [0xAA]) }
        content += DER.tlv(.octetString, [0x01, 0x02])
        if tagged1 { content += DER.tlv(ASN1Tag(0xA1), DER.integer(7)) }
        return try ASN1Node.parse(DER.tlv(.sequence, content + extra))
    }

    func read(_ node: ASN1Node) throws -> (Int, [UInt8]?, [UInt8], Int?) {
        var fields = try node.sequenceFields("Example")
        let version = try fields.next(.integer, "version").intValue()
        let first = fields.next(optional: ASN1Tag(0x80)).map { Array($0.content) }
        let name = Array(try fields.next(.octetString, "name").octetString())
        let second = try fields.next(optional: .contextSpecific(1, constructed: true)).map {
            try $0.wrapped("[1]").intValue()
        }
        try fields.finish()
        return (version, first, name, second)
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func optionalFieldsPresentOrAbsent(tagged0: Bool, tagged1: Bool) throws {
        let (version, first, name, second) = try read(try example(tagged0: tagged0, tagged1: tagged1))
        #expect(version == 1)
        #expect(first == (tagged0 ? [0xAA] : nil))
        #expect(name == [0x01, 0x02])
        #expect(second == (tagged1 ? 7 : nil))
    }

    @Test func endOfSequence() throws {
        let node = try ASN1Node.parse(DER.tlv(.sequence, DER.integer(1)))
        var fields = try node.sequenceFields("Example")
        _ = try fields.next(.integer, "version")
        #expect(fields.isAtEnd && fields.peek == nil && fields.next() == nil)
        #expect(fields.next(optional: .octetString) == nil)
        #expect(throws: ASN1Error(.missingElement, "name (element 1) missing in 30")) {
            try fields.next(.octetString, "name")
        }
        #expect(throws: ASN1Error(.missingElement, "parameters (element 1) missing in 30")) {
            try fields.next("parameters")
        }
        try fields.finish()
    }

    @Test func wrongTagSaysWhichFieldAndWhere() throws {
        let node = try ASN1Node.parse(DER.tlv(.sequence, DER.integer(1) + DER.integer(2)))
        var fields = try node.sequenceFields("Example")
        _ = try fields.next(.integer, "version")
        #expect(throws: ASN1Error(.unexpectedTag, "name: expected tag 04, found 02 (element 1 of 30)")) {
            try fields.next(.octetString, "name")
        }
        // A failed read consumes nothing.
        #expect(fields.position == 1)
        #expect(try fields.next(.integer, "second").intValue() == 2)
        #expect(throws: ASN1Error(.unexpectedTag, "Example: expected tag 30, found 31")) {
            try ASN1Node.parse(DER.tlv(.set, [])).sequenceFields("Example")
        }
    }

    @Test func trailingFieldsFinishOrAreIgnored() throws {
        let node = try example(tagged0: false, tagged1: false, extra: DER.integer(9) + DER.integer(10))
        #expect(throws: ASN1Error(.trailingData, "2 unexpected fields from element 2 (02) in 30")) {
            try read(node)
        }
        var fields = try node.sequenceFields("Example")
        _ = try fields.next(.integer, "version")
        _ = try fields.next(.octetString, "name")
        #expect(fields.remaining.count == 2)
        fields.ignoreRemaining()
        try fields.finish()
    }

    @Test func skipToAndPredicate() throws {
        let node = try example(tagged0: true, tagged1: true)
        var fields = node.fields
        #expect(fields.nextIf { $0.tag.tagClass == .contextSpecific } == nil)
        #expect(fields.skip(to: .octetString).map { Array($0.content) } == [0x01, 0x02])
        #expect(fields.skip(to: .boolean) == nil)
        #expect(fields.nextIf { $0.tag.tagClass == .contextSpecific }?.tag == ASN1Tag(0xA1))
        #expect(fields.isAtEnd)
        #expect(throws: ASN1Error(.missingElement, "value (element 0) missing in A0")) {
            try ASN1Node.parse([0xA0, 0x00]).wrapped("value")
        }
        // As an iterator: every field in order.
        #expect(Array(IteratorSequence(node.fields)).map(\.tag) == node.children.map(\.tag))
    }
}
