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
        #expect(try JSONValue.parse("{\"a\": 1.5}")["a"] == .number(1.5))
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[1,]") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: "[", count: 100)) }
    }

    @Test func prettyIndentsByTwoWithoutSpaceBeforeColon() {
        let value: JSONValue = ["a": [1, [:]], "b": []]
        #expect(value.serialized(pretty: true) == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
        #expect(value.serialized(.compact) == value.serialized())
    }

    /// RFC 8785 Appendix B: IEEE 754 doubles and their ECMAScript text (the finite ones).
    @Test(
        arguments: [
            (0x0000_0000_0000_0000, "0"), (0x8000_0000_0000_0000, "0"), (0x0000_0000_0000_0001, "5e-324"),
            (0x8000_0000_0000_0001, "-5e-324"), (0x7FEF_FFFF_FFFF_FFFF, "1.7976931348623157e+308"),
            (0xFFEF_FFFF_FFFF_FFFF, "-1.7976931348623157e+308"), (0x4340_0000_0000_0000, "9007199254740992"),
            (0xC340_0000_0000_0000, "-9007199254740992"), (0x4430_0000_0000_0000, "295147905179352830000"),
            (0x44B5_2D02_C7E1_4AF5, "9.999999999999997e+22"), (0x44B5_2D02_C7E1_4AF6, "1e+23"),
            (0x44B5_2D02_C7E1_4AF7, "1.0000000000000001e+23"), (0x444B_1AE4_D6E2_EF4E, "999999999999999700000"),
            (0x444B_1AE4_D6E2_EF4F, "999999999999999900000"), (0x444B_1AE4_D6E2_EF50, "1e+21"),
            (0x3EB0_C6F7_A0B5_ED8C, "9.999999999999997e-7"), (0x3EB0_C6F7_A0B5_ED8D, "0.000001"),
            (0x41B3_DE43_5555_5553, "333333333.3333332"), (0x41B3_DE43_5555_5554, "333333333.33333325"),
            (0x41B3_DE43_5555_5555, "333333333.3333333"), (0x41B3_DE43_5555_5556, "333333333.3333334"),
            (0x41B3_DE43_5555_5557, "333333333.33333343"), (0xBECB_F647_612F_3696, "-0.0000033333333333333333"),
            (0x4314_3FF3_C1CB_0959, "1424953923781206.2"),
        ] as [(UInt64, String)])
    func rfc8785NumberVectors(_ bits: UInt64, _ expected: String) throws {
        let value = Double(bitPattern: bits)
        #expect(JSONValue.ecmaScriptText(value) == expected)
        // The text reads back as the same double (-0 as 0).
        let read = try JSONValue.parse(expected)
        switch read {
        case .integer(let integer): #expect(Double(integer) == value)
        case .number(let number): #expect(number.bitPattern == (value == 0 ? 0 : bits))
        default: Issue.record("\(expected) read as \(read)")
        }
    }

    /// RFC 8785 §3.2.4's numbers, spelt otherwise; NaN and infinities (no JSON text holds them) as
    /// `JSON.stringify` writes them.
    @Test func numbersParsedAndWrittenInECMAScriptForm() throws {
        let value = try JSONValue.parse("[1E30, 4.50, 6, 2e-3, 0.000000000000000000000000001, -0.0, 1e-7, 123e-2]")
        #expect(value.serialized() == "[1e+30,4.5,6,0.002,1e-27,0,1e-7,1.23]")
        #expect(JSONValue.number(.nan).serialized() == "null")
        #expect(JSONValue.number(-.infinity).serialized() == "null")
        #expect(try JSONValue.parse("99999999999999999999") == .number(1e20))
    }

    @Test func numbersOutsideRFC8259Refused() {
        for text in ["01", "-", "1.", ".5", "1e", "1e+", "+1", "-01.5", "1e400", "-1e400", "0x10"] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }
    /// Long strings, 8 MB of text and 2 MB of escapes, each in one string, read with every byte
    /// where it belongs. How fast is `emrtd-bench json-parse`'s (a 16 MB string beside
    /// JSONSerialization): no clock is asserted here.
    @Test func longStringsAreReadWhole() throws {
        let plain = String(repeating: "QUJDRA==", count: 1 << 20)
        #expect(try JSONValue.parse(#"{"DG2":""# + plain + #""}"#)["DG2"] == .string(plain))
        let escaped = String(repeating: #"a\"\\\n\u00e9\ud83d\ude00"#, count: 1 << 16)
        let expected = String(repeating: "a\"\\\n\u{E9}\u{1F600}", count: 1 << 16)
        #expect(try JSONValue.parse(#"[""# + escaped + #""]"#) == .array([.string(expected)]))
    }

    /// Escapes and raw UTF-8 side by side, as a string's bytes are gathered and decoded once.
    @Test func escapesAndRawTextMix() throws {
        #expect(try JSONValue.parse(#""KÖLN\u00d6\t\/x""#) == .string("KÖLNÖ\t/x"))
        #expect(try JSONValue.parse(#""\ud83d\ude00é""#) == .string("\u{1F600}é"))
        for bad in [#""\x""#, #""\u12""#, #""\udc00""#, #""abc"#, #""\"#] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSONValue.parse(bad) }
        }
    }
}
