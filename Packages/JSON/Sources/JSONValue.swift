/// A JSON document as a value, with object members kept in the order they were written.
///
/// The one JSON type of the reader: MRZ, LDS and CMS build their models' JSON forms with it and
/// `Emrtd` composes those trees into the `TravelDocument`'s, with no text in between. Shape
/// rules: keys in lowerCamel case, bytes as padded standard base64, absent optionals as `null`
/// with the key present, enums as their lowerCamel case names. Building the tree instead of
/// using `Codable` keeps those rules in one place.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    /// A number that is not an integer, or one beyond `Int`, as read (a VDS-NC's data may hold
    /// one); written in ECMAScript's form (`ecmaScriptText(_:)`).
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// Bytes as padded standard base64, the form the JSON contract uses for binary data.
    public static func bytes(_ bytes: [UInt8]) -> JSONValue {
        .string(Base64.encode(bytes))
    }

    /// `null` for nil, else the wrapped value's JSON.
    public static func optional<Value: JSONRepresentable>(_ value: Value?) -> JSONValue {
        value.map { $0.json } ?? .null
    }

    /// `null` for nil, else a string.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// `null` for nil, else an integer.
    public static func optional(_ value: Int?) -> JSONValue {
        value.map(JSONValue.integer) ?? .null
    }

    /// `null` for nil, else base64 bytes.
    public static func optional(_ value: [UInt8]?) -> JSONValue {
        value.map(JSONValue.bytes) ?? .null
    }

    /// An array of the elements' JSON forms.
    public static func array<Element: JSONRepresentable>(_ elements: [Element]) -> JSONValue {
        .array(elements.map { $0.json })
    }

    /// The value of `key` when this is an object holding it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of the document; `pretty` indents by two spaces per level.
    public func serialized(pretty: Bool = false) -> String {
        serialized(pretty ? .pretty : .compact)
    }

    /// How `serialized(_:)` lays the text out.
    public enum Layout: Sendable {
        /// One line, no spaces.
        case compact
        /// Two spaces per level, `"key": value`: what every command prints.
        case pretty
    }

    /// The text of the document in `layout`.
    public func serialized(_ layout: Layout) -> String {
        var output = ""
        write(to: &output, layout: layout, indent: 0)
        return output
    }

    private func write(to output: inout String, layout: Layout, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += Self.ecmaScriptText(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            writeContainer(
                elements, open: "[", close: "]", to: &output, layout: layout, indent: indent
            ) { element, output, indent in
                element.write(to: &output, layout: layout, indent: indent)
            }
        case .object(let members):
            writeContainer(
                members, open: "{", close: "}", to: &output, layout: layout, indent: indent
            ) { member, output, indent in
                Self.writeString(member.key, to: &output)
                output += layout == .compact ? ":" : ": "
                member.value.write(to: &output, layout: layout, indent: indent)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String, layout: Layout, indent: Int,
        writeElement: (Element, inout String, Int) -> Void
    ) {
        output += open
        let pretty = layout != .compact
        guard !elements.isEmpty else {
            output += close
            return
        }
        let inner = indent + 2
        for (index, element) in elements.enumerated() {
            if index > 0 { output += "," }
            if pretty { output += "\n" + String(repeating: " ", count: inner) }
            writeElement(element, &output, inner)
        }
        if pretty { output += "\n" + String(repeating: " ", count: indent) }
        output += close
    }

    /// Writes `value` quoted, copying the runs between the characters JSON must escape whole: a
    /// face in base64 is 20–80 KB of text with nothing to escape. The escaped characters are all
    /// ASCII, which never occurs inside a multi-byte UTF-8 sequence, so every run ends on a
    /// character boundary.
    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        let utf8 = value.utf8
        var runStart = utf8.startIndex
        var index = utf8.index(runStart, offsetBy: cleanPrefixCount(of: value))
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output += value[runStart..<index]
                output += escaped(byte)
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += value[runStart...]
        output += "\""
    }

    /// How many leading bytes of `value` need no escaping, found eight at a time: the byte loop
    /// then only walks the last few bytes of a clean string. Zero when the string's UTF-8 is not
    /// contiguous (a bridged string), which leaves all the work to the byte loop.
    private static func cleanPrefixCount(of value: String) -> Int {
        value.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count,
                !mayNeedEscaping(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            {
                offset += 8
            }
            return offset
        } ?? 0
    }

    /// Whether any byte of `word` is a control character, a quote or a backslash (the bit tricks
    /// "has a byte below n" and "has a zero byte", exact for the question "any byte?").
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ limit: UInt64, _ word: UInt64) -> Bool {
            (word &- ones &* limit) & ~word & highBits != 0
        }
        return hasByteBelow(0x20, word) || hasByteBelow(1, word ^ (ones &* 0x22))
            || hasByteBelow(1, word ^ (ones &* 0x5C))
    }

    /// The JSON escape of a quote, a backslash or a control character.
    private static func escaped(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public let key: String
    public let value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object literal; the members keep the order they are written in.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember($0.0, $0.1) })
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue {
    /// ECMAScript's Number::toString (ECMA-262 §6.1.6.1.20), the form RFC 8785 signs numbers in:
    /// the fewest significant digits that read back as the same double (Swift's `description`
    /// finds them, the closest when several do), then plain digits for decimal exponents up to 21
    /// and down to -6, `d.ddde±n` beyond. `-0` is `0`; a non-finite value, which no JSON text
    /// holds, is `null` as `JSON.stringify` writes it.
    public static func ecmaScriptText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        guard value != 0 else { return "0" }
        // `description` is "d.ddd", "d.ddde±x" or "0.000ddd": its digits and decimal exponent.
        let text = value.magnitude.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        var digits = Array(mantissa.joined())
        var point = mantissa[0].count + (parts.count == 2 ? Int(parts[1]) ?? 0 : 0)
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let significand = String(digits)
        let count = digits.count
        let sign = value < 0 ? "-" : ""
        if count <= point && point <= 21 {
            return sign + significand + String(repeating: "0", count: point - count)
        }
        if 0 < point && point <= 21 {
            return sign + significand.prefix(point) + "." + significand.dropFirst(point)
        }
        if -6 < point && point <= 0 {
            return sign + "0." + String(repeating: "0", count: -point) + significand
        }
        let exponent = point - 1
        let fraction = count > 1 ? "." + significand.dropFirst() : ""
        return sign + significand.prefix(1) + fraction + "e" + (exponent < 0 ? "-" : "+") + String(exponent.magnitude)
    }
}

/// A model with a JSON form (see `JSONValue` for the shape rules).
public protocol JSONRepresentable {
    var json: JSONValue { get }
}

/// An enum whose JSON form is its case name: give it a `String` raw value equal to the
/// lowerCamel case name.
public protocol JSONEnum: JSONRepresentable, RawRepresentable where RawValue == String {}

extension JSONEnum {
    public var json: JSONValue { .string(rawValue) }
}

/// Standard padded base64 (RFC 4648 §4).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        let length = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: length) { output in
            bytes.withUnsafeBufferPointer { input in
                alphabet.withUnsafeBufferPointer { alphabet in
                    /// The four characters of a 24-bit group, `=` after the first `significant`.
                    func write(_ group: UInt32, at offset: Int, significant: Int = 4) {
                        for position in 0..<4 {
                            output[offset + position] =
                                position < significant
                                ? alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)] : UInt8(ascii: "=")
                        }
                    }
                    var read = 0
                    var written = 0
                    while input.count - read >= 3 {
                        write(
                            UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2]),
                            at: written)
                        read += 3
                        written += 4
                    }
                    // The last one or two bytes: two or three characters, then padding.
                    switch input.count - read {
                    case 1: write(UInt32(input[read]) << 16, at: written, significant: 2)
                    case 2: write(UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8, at: written, significant: 3)
                    default: break
                    }
                }
            }
            return length
        }
    }
}
