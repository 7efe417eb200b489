import ASN1
import Foundation
import TestSupport
import Testing

@Suite struct ParserTests {
    @Test func multiByteTagsAndLongLengths() throws {
        let value = [UInt8](repeating: 0xAB, count: 300)
        let encoded = DER.tlv(ASN1Tag(0x7F61), DER.tlv(ASN1Tag(0x5F1F), value) + DER.tlv(ASN1Tag(0x02), [0x01]))
        let node = try ASN1Node.parse(encoded, rules: .der)
        #expect(node.tag == ASN1Tag(0x7F61))
        #expect(node.tag.tagClass == .application && node.tag.isConstructed && node.tag.number == 0x61)
        #expect(node.children.count == 2)
        #expect(node.child(ASN1Tag(0x5F1F))?.content.elementsEqual(value) == true)
        #expect(ASN1Tag(0x5F1F).number == 0x1F && ASN1Tag(0x7F49).number == 0x49)
        #expect(Array(node.encodedBytes) == encoded)
        #expect(ASN1Tag(0x7F61).encoded == [0x7F, 0x61])
        #expect(ASN1Tag.contextSpecific(0, constructed: true) == ASN1Tag(0xA0))
        #expect(ASN1Tag(tagClass: .private, number: 200, isConstructed: false).encoded == [0xDF, 0x81, 0x48])
    }

    @Test func indefiniteLengthKeepsExactBytes() throws {
        // SEQUENCE (indefinite) { INTEGER 5, [0] (indefinite) { OCTET STRING 01 02 } }
        let encoded: [UInt8] = [
            0x30, 0x80, 0x02, 0x01, 0x05, 0xA0, 0x80, 0x04, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
        ]
        let node = try ASN1Node.parse(encoded)
        #expect(node.isIndefiniteLength)
        #expect(Array(node.encodedBytes) == encoded)
        #expect(try node.child(at: 0, "n").intValue() == 5)
        let inner = try node.requiredChild(.contextSpecific(0, constructed: true), "inner")
        #expect(Array(inner.encodedBytes) == [0xA0, 0x80, 0x04, 0x02, 0x01, 0x02, 0x00, 0x00])
        #expect(throws: ASN1Error.self) { try ASN1Node.parse(encoded, rules: .der) }
    }

    @Test func constructedOctetStringSegmentsAreJoined() throws {
        let encoded: [UInt8] = [0x24, 0x80, 0x04, 0x01, 0xAA, 0x04, 0x02, 0xBB, 0xCC, 0x00, 0x00]
        #expect(Array(try ASN1Node.parse(encoded).octetString()) == [0xAA, 0xBB, 0xCC])
    }

    @Test(arguments: [
        ([UInt8](), ASN1Error.Code.truncated),
        ([0x30], .truncated),
        ([0x30, 0x05, 0x02, 0x01], .invalidLength),
        ([0x04, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x00], .invalidLength),
        ([0x04, 0x89, 1, 1, 1, 1, 1, 1, 1, 1, 1], .invalidLength),
        ([0x04, 0x80, 0x00, 0x00], .indefiniteLengthNotAllowed),
        ([0x30, 0x80, 0x02, 0x01, 0x05], .truncated),
        ([0x02, 0x01, 0x05, 0x00], .trailingData),
        ([0x5F], .truncated),
        ([0x5F, 0x80, 0x01, 0x00], .invalidTag),
        ([0x5F, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00], .invalidTag),
    ])
    func malformedInputFailsWithItsCode(input: [UInt8], code: ASN1Error.Code) {
        #expect {
            try ASN1Node.parse(input)
        } throws: { error in
            (error as? ASN1Error)?.code == code
        }
    }

    @Test func nonMinimalLengthIsBEROnly() throws {
        let encoded: [UInt8] = [0x04, 0x81, 0x01, 0xAA]
        #expect(Array(try ASN1Node.parse(encoded).octetString()) == [0xAA])
        #expect(throws: ASN1Error.self) { try ASN1Node.parse(encoded, rules: .der) }
    }

    @Test func deepNestingIsRefused() {
        var encoded: [UInt8] = [0x05, 0x00]
        for _ in 0..<40 { encoded = DER.sequence([encoded]) }
        #expect {
            try ASN1Node.parse(encoded)
        } throws: { error in
            (error as? ASN1Error)?.code == .tooDeep
        }
        #expect((try? ASN1Node.parse(encoded, maxDepth: 64)) != nil)
        // Indefinite nesting: a hostile chip cannot recurse without bound either.
        let hostile = Array([[UInt8]](repeating: [0x30, 0x80], count: 20_000).joined())
        #expect(throws: ASN1Error.self) { try ASN1Node.parse(hostile) }
    }

    @Test func parsePrefixAndParseAll() throws {
        let (node, rest) = try ASN1Node.parsePrefix([0x61, 0x03, 0x5F, 0x1F, 0x00, 0x00, 0x00])
        #expect(node.tag == ASN1Tag(0x61) && Array(rest) == [0x00, 0x00])
        let nodes = try ASN1Node.parseAll([0x87, 0x01, 0x01, 0x99, 0x02, 0x90, 0x00, 0x8E, 0x00])
        #expect(nodes.map(\.tag) == [ASN1Tag(0x87), ASN1Tag(0x99), ASN1Tag(0x8E)])
    }

    @Test func randomAndTruncatedInputNeverCrashes() throws {
        var generator = SystemRandomNumberGenerator()
        let sample = DER.sequence([
            DER.integer(-129), DER.objectIdentifier("2.23.136.1.1.1"),
            DER.tlv(ASN1Tag(0xA0), DER.octetString([1, 2, 3])),
        ])
        for length in 0..<sample.count {
            _ = try? ASN1Node.parse(sample.prefix(length))
        }
        for _ in 0..<5_000 {
            var bytes = sample
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let node = try? ASN1Node.parse(bytes) { #expect(Array(node.encodedBytes) == bytes) }
        }
    }

    @Test func everySharedDataFileParsesAsBER() throws {
        guard let data = Prerequisites.shared("data") else { return }
        // Images, PEM and text are not BER; npa_key files are raw private scalars.
        let skipped = ["jpg", "jpeg", "jp2", "png", "pem", "md", "txt", "j2k", "wsq", "py", "go", "json"]
        let rawFiles = ["npa_key"]
        var parsed = 0
        let files = FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            let ext = url.pathExtension.lowercased()
            guard !url.hasDirectoryPath, !skipped.contains(ext), !url.lastPathComponent.hasPrefix("LICENSE"),
                !url.lastPathComponent.hasPrefix("COPYING"), !rawFiles.contains(url.lastPathComponent),
                let bytes = FileManager.default.contents(atPath: url.path), !bytes.isEmpty
            else { continue }
            do {
                let (node, _) = try ASN1Node.parsePrefix(bytes)
                #expect(node.encodedBytes.count <= bytes.count)
                parsed += 1
            } catch {
                Issue.record("\(url.path): \(error)")
            }
        }
        #expect(parsed > 50, "only \(parsed) files parsed")
    }
}
