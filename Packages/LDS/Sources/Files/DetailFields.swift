import ASN1
import JSON

/// A date from DG11, DG12 or DG16: ICAO 9303-10 writes `yyyymmdd` (or `yyyymmddhhmmss`) as text,
/// some chips as BCD bytes (`19 70 01 01`). Both are kept: the digits and how they were stored.
public struct LDSDate: Sendable, Equatable, JSONRepresentable {
    public enum Encoding: String, Sendable, JSONEnum {
        case text
        case bcd
    }

    /// The digits, e.g. "19700101" or "20240101123059" (BCD nibbles above 9 appear as hex).
    public let value: String
    public let encoding: Encoding

    init(_ bytes: some Collection<UInt8>) {
        // A BCD date's month byte (01–12) is never printable, a text date is all printable.
        let isText = bytes.allSatisfy { (0x20...0x7E).contains($0) }
        if isText {
            value = String(decoding: Array(bytes), as: UTF8.self)
            encoding = .text
        } else {
            value = Hex.encode(bytes)
            encoding = .bcd
        }
    }

    /// A date to write, as text or BCD (e.g. `LDSDate(value: "19690806", encoding: .bcd)`).
    public init(value: String, encoding: Encoding) {
        self.value = value
        self.encoding = encoding
    }

    /// The bytes a chip stores for this date.
    var encoded: [UInt8] {
        switch encoding {
        case .text: return Array(value.utf8)
        case .bcd:
            let digits = Array(value.utf8).map { UInt8(ascii: "0") <= $0 && $0 <= UInt8(ascii: "9") ? $0 - 48 : 0 }
            return stride(from: 0, to: digits.count, by: 2).map {
                digits[$0] << 4 | ($0 + 1 < digits.count ? digits[$0 + 1] : 0)
            }
        }
    }

    /// The date in ISO 8601, for people and for the JSON beside the digits: `1969-08-06`, or
    /// `1989-06-01T12:00:00` for a time (no zone: the chip states none); nil when a part is
    /// unknown (`00`) or the digits are not a date.
    public var iso8601: String? {
        let digits = value
        guard digits.count == 8 || digits.count == 14, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber)
        else { return nil }
        let parts = stride(from: 4, to: digits.count, by: 2).map { offset in
            Int(String(Array(digits)[offset..<offset + 2])) ?? 0
        }
        let year = String(digits.prefix(4))
        guard (1...12).contains(parts[0]), (1...31).contains(parts[1]) else { return nil }
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        var text = "\(year)-\(two(parts[0]))-\(two(parts[1]))"
        if parts.count == 5 {
            guard parts[2] < 24, parts[3] < 60, parts[4] < 60 else { return nil }
            text += "T\(two(parts[2])):\(two(parts[3])):\(two(parts[4]))"
        }
        return text
    }

    /// The digits as the reference model writes them (YYYYMMDD, YYYYMMDDhhmmss); how the chip
    /// stored them is `encoding`, beside it where the owner adds it.
    public var json: JSONValue { .string(value) }
}

/// The texts of DG11, DG12 and DG16 as the JSON shows them: fillers (`<`) become single spaces,
/// no doubled or edge spaces.
enum DetailText {
    static func clean(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "<" || $0 == " " }).joined(separator: " ")
    }

    /// A field of lines separated by `<` (place of birth, address), empty lines kept.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "<", omittingEmptySubsequences: false).map {
            $0.split(separator: " ").joined(separator: " ")
        }
    }

    /// Lines (or a list) as a JSON array of strings, null when absent.
    static func linesJSON(_ lines: [String]?) -> JSONValue {
        lines.map { .array($0.map(JSONValue.string)) } ?? .null
    }

    /// How a date was stored, when it was (added beside the date: `text` or `bcd`).
    static func encoding(_ date: LDSDate?) -> JSONValue { date.map(\.encoding.json) ?? .null }

    /// The date in ISO 8601 (added beside the reference's digits; null when it has none).
    static func iso8601(_ date: LDSDate?) -> JSONValue { .optional(date?.iso8601) }
}

/// Reading the data objects of DG11, DG12 and DG16 templates: text, dates, images, counts.
struct DetailReader {
    let node: ASN1Node
    /// Whether JPEG 2000 images get their PNG rendering.
    let renderImages: Bool
    var warnings: [String] = []

    init(_ node: ASN1Node, renderImages: Bool) {
        self.node = node
        self.renderImages = renderImages
    }

    /// The tag list (5C), when present.
    var tagList: [UInt32] { node.child(ASN1Tag(0x5C)).map { splitTagList($0.content) } ?? [] }

    func text(_ tag: UInt64) -> String? { node.child(ASN1Tag(tag))?.text }

    func date(_ tag: UInt64) -> LDSDate? { node.child(ASN1Tag(tag)).map { LDSDate($0.content) } }

    func image(_ tag: UInt64) -> DocumentImage? {
        node.child(ASN1Tag(tag)).map { DocumentImage(bytes: $0.bytes, render: renderImages) }
    }

    /// The texts under a `A0` template (02 count, then repeated `tag`) — other names, other
    /// persons; the count is checked against what is there, a mismatch is a warning.
    mutating func names(in template: UInt64, _ tag: UInt64) -> [String] {
        guard let group = node.child(ASN1Tag(template)) else { return [] }
        let names = group.children(ASN1Tag(tag)).map(\.text)
        if let count = group.child(.integer).flatMap({ try? $0.intValue() }), count != names.count {
            warnings.append(
                "template \(String(template, radix: 16, uppercase: true)) announces \(count) entries, holds \(names.count)"
            )
        }
        return names
    }
}

/// Writing the same data objects back (for specimen files and round-trip tests).
struct DetailWriter {
    private(set) var elements: [[UInt8]] = []
    private(set) var tags: [UInt64] = []

    mutating func text(_ tag: UInt64, _ value: String?) {
        guard let value else { return }
        add(tag, DER.tlv(ASN1Tag(tag), Array(value.utf8)))
    }

    mutating func date(_ tag: UInt64, _ value: LDSDate?) {
        guard let value else { return }
        add(tag, DER.tlv(ASN1Tag(tag), value.encoded))
    }

    mutating func image(_ tag: UInt64, _ value: DocumentImage?) {
        guard let value else { return }
        add(tag, DER.tlv(ASN1Tag(tag), value.bytes))
    }

    mutating func names(_ template: UInt64, _ tag: UInt64, _ names: [String]) {
        guard !names.isEmpty else { return }
        let content = [DER.integer(names.count)] + names.map { DER.tlv(ASN1Tag(tag), Array($0.utf8)) }
        add(template, DER.constructed(ASN1Tag(template), content))
    }

    private mutating func add(_ tag: UInt64, _ element: [UInt8]) {
        tags.append(tag)
        elements.append(element)
    }

    /// The file: outer tag, the 5C tag list, then the elements.
    func file(outerTag: UInt64) -> [UInt8] {
        let tagList = tags.flatMap { ASN1Tag($0).encoded }
        return DER.constructed(ASN1Tag(outerTag), [DER.tlv(ASN1Tag(0x5C), tagList)] + elements)
    }
}
