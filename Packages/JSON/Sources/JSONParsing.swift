extension JSONValue {
    /// Nesting deeper than this is refused (the reader's own documents stay far below it).
    static let maximumParseDepth = 64

    /// Parses JSON text (RFC 8259), e.g. to check what the CLI printed or a VDS-NC. A number is
    /// an `integer` when it has no fraction or exponent and fits `Int`, else a `number` (the
    /// nearest double); one beyond a double's range is refused.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var parser = JSONTextParser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }
}

/// Why a text is not JSON this package reads, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the UTF-8 text where parsing stopped.
    public let offset: Int
    public let reason: String

    public var description: String { "JSON: \(reason) at offset \(offset)" }
}

private struct JSONTextParser {
    let bytes: [UInt8]
    var index = 0

    func failure(_ what: String) -> JSONParseError { JSONParseError(offset: index, reason: what) }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func consume(_ literal: String) -> Bool {
        let literalBytes = Array(literal.utf8)
        guard bytes.count - index >= literalBytes.count,
            bytes[index..<index + literalBytes.count].elementsEqual(literalBytes)
        else { return false }
        index += literalBytes.count
        return true
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maximumParseDepth else { throw failure("nesting too deep") }
        skipWhitespace()
        guard index < bytes.count else { throw failure("value expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [JSONMember] = []
            skipWhitespace()
            if consume("}") { return .object(members) }
            repeat {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                guard consume(":") else { throw failure("':' expected") }
                members.append(JSONMember(key, try value(depth: depth + 1)))
                skipWhitespace()
            } while consume(",")
            guard consume("}") else { throw failure("'}' expected") }
            return .object(members)
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if consume("]") { return .array(elements) }
            repeat {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
            } while consume(",")
            guard consume("]") else { throw failure("']' expected") }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try string())
        default:
            if consume("null") { return .null }
            if consume("true") { return .bool(true) }
            if consume("false") { return .bool(false) }
            return try number()
        }
    }

    /// RFC 8259's number: `-`, an integer part without leading zeros, an optional fraction and
    /// exponent.
    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerDigits = skipDigits()
        guard integerDigits > 0 else { throw failure("number expected") }
        guard integerDigits == 1 || bytes[index - integerDigits] != UInt8(ascii: "0") else {
            throw failure("a number with a leading zero")
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw failure("digits expected after the decimal point") }
            isInteger = false
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard skipDigits() > 0 else { throw failure("digits expected in the exponent") }
            isInteger = false
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw failure("a number beyond a double's range") }
        return .number(value)
    }

    /// Moves past ASCII digits; how many there were.
    mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    /// The escapes other than `\u`, by the byte after the backslash.
    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
        UInt8(ascii: "/"): UInt8(ascii: "/"), UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
        UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    /// A string's UTF-8 is gathered in one byte buffer, unescaped runs copied whole, and decoded
    /// once at the end: linear in the string's length (appending to a `String`'s scalar view
    /// scalar by scalar was quadratic: 1.6 MB took 100 s).
    mutating func string() throws(JSONParseError) -> String {
        guard consume("\"") else { throw failure("string expected") }
        var utf8: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        while true {
            let runStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            utf8.append(contentsOf: bytes[runStart..<index])
            guard index < bytes.count else { throw failure("unterminated string") }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            index += 1
            guard index < bytes.count else { throw failure("unterminated escape") }
            let escape = bytes[index]
            index += 1
            if let byte = Self.simpleEscapes[escape] {
                utf8.append(byte)
                continue
            }
            guard escape == UInt8(ascii: "u"), bytes.count - index >= 4,
                let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw failure("invalid escape") }
            index += 4
            if (0xD800...0xDBFF).contains(code) {
                pendingHighSurrogate = code
                continue
            }
            var combined = code
            if (0xDC00...0xDFFF).contains(code), let high = pendingHighSurrogate {
                combined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
            }
            pendingHighSurrogate = nil
            guard let scalar = Unicode.Scalar(combined) else { throw failure("invalid code point") }
            utf8.append(contentsOf: String(scalar).utf8)
        }
    }
}
