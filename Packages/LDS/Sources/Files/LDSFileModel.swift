import ASN1
import JSON

/// A parsed LDS file: its model keeps the exact bytes it was parsed from and the non-fatal
/// problems met on the way (record lengths off by a few bytes, an image that would not render…).
public protocol LDSFileModel: Sendable, JSONRepresentable {
    /// The file as read from the chip (hash these, never a re-encoding).
    var rawBytes: [UInt8] { get }
    /// Problems that did not stop the parse.
    var warnings: [String] { get }
    /// Every image the file holds, in order (faces, fingers, irises, portraits, signatures,
    /// document pages).
    var images: [DocumentImage] { get }
}

extension LDSFileModel {
    public var images: [DocumentImage] { [] }
}

/// A file kept as bytes only: DG8–DG10 (reserved for national use) and DG6, and any data group
/// read but not interpreted.
public struct RawDataGroup: LDSFileModel, Equatable {
    public let kind: LDSFileKind
    public let rawBytes: [UInt8]
    public let warnings: [String]

    public init(_ bytes: [UInt8], kind: LDSFileKind) throws(LDSError) {
        let (_, warnings) = try OuterTLV.parse(bytes, kind: kind)
        self.kind = kind
        rawBytes = bytes
        self.warnings = warnings
    }

    public var json: JSONValue {
        ["kind": kind.json, "rawBytes": .bytes(rawBytes)]
    }
}

/// Reading a file's outer TLV with the package's caps, for every model.
enum OuterTLV {
    /// Nesting deeper than this is refused in any LDS file (the deepest real one, an ISO 39794-5
    /// DG2, nests 15 levels).
    static let maximumDepth = 24

    /// The outer node (its tag checked against `kind`) and warnings for bytes after it.
    static func parse(_ bytes: [UInt8], kind: LDSFileKind) throws(LDSError) -> (ASN1Node, [String]) {
        guard bytes.count <= kind.maximumSize else {
            throw LDSError(.tooLarge, "\(kind.rawValue) of \(bytes.count) bytes exceeds \(kind.maximumSize)")
        }
        guard let first = bytes.first else { throw LDSError(.malformed, "\(kind.rawValue) is empty") }
        guard first == kind.outerTag else {
            throw LDSError(
                .unexpectedTag,
                "\(kind.rawValue) must start with tag \(Hex.encode([kind.outerTag])), found \(Hex.encode([first]))")
        }
        let (node, rest) = try asn1 { () throws(ASN1Error) in
            try ASN1Node.parsePrefix(bytes, rules: .ber, maxDepth: maximumDepth)
        }
        var warnings: [String] = []
        if !rest.isEmpty {
            warnings.append("\(rest.count) bytes after the \(kind.rawValue) TLV ignored")
        }
        return (node, warnings)
    }
}

extension OuterTLV {
    /// The content of a file whose inside need not be TLV (DG13): only the outer tag and its
    /// definite length are read.
    static func content(_ bytes: [UInt8], kind: LDSFileKind) throws(LDSError) -> ([UInt8], [String]) {
        guard bytes.count <= kind.maximumSize else {
            throw LDSError(.tooLarge, "\(kind.rawValue) of \(bytes.count) bytes exceeds \(kind.maximumSize)")
        }
        var reader = ByteReader(bytes)
        guard let tag = reader.uint(1), tag == Int(kind.outerTag) else {
            throw LDSError(.unexpectedTag, "\(kind.rawValue) must start with tag \(Hex.encode([kind.outerTag]))")
        }
        guard let first = reader.uint(1) else { throw LDSError(.malformed, "\(kind.rawValue) length missing") }
        var length = first
        if first > 0x80 {
            guard first - 0x80 <= 4, let long = reader.uint(first - 0x80) else {
                throw LDSError(.malformed, "\(kind.rawValue) length unreadable")
            }
            length = long
        } else if first == 0x80 {
            throw LDSError(.unsupported, "\(kind.rawValue) with an indefinite length")
        }
        guard let content = reader.read(length) else {
            throw LDSError(.malformed, "\(kind.rawValue) declares \(length) bytes, \(reader.remaining) remain")
        }
        let warnings = reader.remaining > 0 ? ["\(reader.remaining) bytes after the \(kind.rawValue) TLV ignored"] : []
        return (content, warnings)
    }
}

/// Runs ASN1 reading code, turning its errors into `LDSError.malformed`.
func asn1<Result>(_ body: () throws(ASN1Error) -> Result) throws(LDSError) -> Result {
    do {
        return try body()
    } catch {
        throw LDSError(.malformed, error.reason)
    }
}

extension ASN1Node {
    /// The content as text: UTF-8 as ICAO 9303-10 requires, ISO 8859-1 when it is not valid
    /// UTF-8 (older chips), so no byte is lost.
    var text: String { decodeText(content) }

    /// The content bytes as an array.
    var bytes: [UInt8] { Array(content) }
}

func decodeText(_ bytes: some Collection<UInt8>) -> String {
    if let text = String(validating: Array(bytes), as: UTF8.self) { return text }
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
}

/// A tag list as JSON: each tag in hex as ICAO writes it ("5F0E").
func tagListJSON(_ tags: [UInt32]) -> JSONValue {
    .array(tags.map { .string(String($0, radix: 16, uppercase: true)) })
}

/// A list of tags written back to back (a 5C tag list), split into the tags' encoded values.
func splitTagList(_ bytes: some Collection<UInt8>) -> [UInt32] {
    var tags: [UInt32] = []
    var iterator = bytes.makeIterator()
    while let first = iterator.next() {
        var value = UInt32(first)
        if first & 0x1F == 0x1F {
            var count = 0
            while let next = iterator.next() {
                value = value << 8 | UInt32(next)
                count += 1
                if next & 0x80 == 0 || count == 3 { break }
            }
        }
        tags.append(value)
    }
    return tags
}
