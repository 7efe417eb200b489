import Foundation
import Testing

@testable import JSON

struct JSONValueTests {
    /// RFC 4648 §10 test vectors.
    @Test func base64IsStandardAndPadded() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (input, output) in vectors {
            #expect(JSONValue.bytes(Array(input.utf8)) == .string(output))
        }
        #expect(JSONValue.bytes([0xFB, 0xFF]) == .string("+/8="))
    }

    /// Every length from 0 to 300 (each remainder, many full groups) against Foundation's encoder.
    @Test func base64MatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(JSONValue.bytes(bytes) == .string(Data(bytes).base64EncodedString()), "length \(length)")
        }
    }

    @Test func serializesWithNullsKeptAndOrderPreserved() {
        let value: JSONValue = [
            "zeta": .null, "alpha": .optional(nil as String?), "text": "a\"b\\c\n\u{01}é",
            "list": [1, true, .array([])], "empty": [:],
        ]
        #expect(
            value.serialized()
                == #"{"zeta":null,"alpha":null,"text":"a\"b\\c\n\u0001é","list":[1,true,[]],"empty":{}}"#)
        #expect(value["alpha"] == .null)
        #expect(value["missing"] == nil)
    }

    /// Every control character, quote and backslash, amid non-ASCII text and long unescaped
    /// runs, and each kind at every position of the eight-byte words the writer skips clean text
    /// by: Foundation's parser reads back exactly the string written.
    @Test func stringsRoundTripThroughFoundation() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let samples = [
            "", controls, "\"\\/", "é😀中文\u{7F}\u{2028}", "MUSTERMANN<<ERIKA" + controls + "Ωmega\"end\\",
            String(repeating: "ABCDabcd0123+/==", count: 2000) + "\n" + String(repeating: "é", count: 100),
        ]
        let positioned = ["\"", "\\", "\u{0}", "\u{1F}", "\n"].flatMap { special in
            (0..<17).map { String(repeating: "x", count: $0) + special + String(repeating: "é", count: 12) }
        }
        for sample in samples + positioned {
            let written = JSONValue.array([.string(sample)]).serialized()
            let read = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String]
            #expect(read == [sample])
            #expect(try JSONValue.parse(written) == .array([.string(sample)]))
        }
        #expect(JSONValue.string("\u{01}\u{1F}\t").serialized() == #""\u0001\u001f\t""#)
    }

    @Test func parsesWhatItWritesAndOtherPackagesJSON() throws {
        let text = #"{ "a" : [ -12, null, false, "\u00e9\ud83d\ude00\/" ], "b": {} }"#
        let value = try JSONValue.parse(text)
        #expect(value["a"] == .array([.integer(-12), .null, .bool(false), .string("é😀/")]))
        #expect(try JSONValue.parse(value.serialized(pretty: true)) == value)
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{\"a\": 1.5}") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[1,]") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: "[", count: 100)) }
    }

    @Test func prettyIndentsByTwoWithoutSpaceBeforeColon() {
        let value: JSONValue = ["a": [1, [:]], "b": []]
        #expect(value.serialized(pretty: true) == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
        #expect(value.serialized(.compact) == value.serialized())
    }
}
