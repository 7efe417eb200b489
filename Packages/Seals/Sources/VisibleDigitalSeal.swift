import ASN1

/// A Visible Digital Seal (ICAO Doc 9303-13 §2, BSI TR-03137): header, message zone of
/// features, signature zone. Read strictly: every length is checked against the bytes that remain
/// before anything is kept, and nothing may follow the signature.
public struct VisibleDigitalSeal: Sendable, Hashable {
    /// The largest seal read: a DataMatrix holds at most 1,558 bytes, a few seals are printed as two.
    public static let maximumLength = 8192

    public let header: SealHeader
    /// The message zone's features in the order written.
    public let features: [SealFeature]
    /// The known type the header names; nil for a reference this package does not know.
    public let documentType: SealDocumentType?
    /// A TR-03171 profile named by feature 0 (`MELDEBESCHEINIGUNG`), refining `documentType`.
    public let profile: String?
    /// The signature zone's value: r‖s, each half the length. Nil for an unsigned seal.
    public let signature: [UInt8]?
    /// The bytes the signature covers: header and message zone, every byte before tag `FF`.
    public let signedBytes: [UInt8]

    /// `documentType`'s name (or the profile's), else `UNKNOWN`.
    public var documentTypeName: String { profile ?? documentType?.name ?? "UNKNOWN" }

    /// Parses the bytes of a seal as a barcode reader gives them.
    public init(bytes input: some Collection<UInt8>) throws(SealError) {
        guard input.count <= Self.maximumLength else {
            throw SealError(.tooLarge, "a seal of \(input.count) bytes (at most \(Self.maximumLength))")
        }
        let bytes = Array(input)
        var reader = SealReader(bytes)
        header = try SealHeader(&reader)
        let type = SealDocumentType.named(by: header.documentReference)
        documentType = type
        var features: [SealFeature] = []
        var signature: [UInt8]?
        var signatureStart = bytes.count
        while !reader.isAtEnd {
            let start = reader.offset
            let tag = try reader.byte("feature tag")
            let value = try reader.bytes(reader.derLength("feature \(tag)"), "feature \(tag)")
            if tag == 0xFF {
                guard reader.isAtEnd else { throw SealError(.malformed, "bytes after the signature zone") }
                guard !value.isEmpty, value.count % 2 == 0 else {
                    throw SealError(.malformed, "a signature of \(value.count) bytes is not r‖s")
                }
                (signature, signatureStart) = (value, start)
                break
            }
            features.append(try SealFeature(tag: tag, value: value, definition: type?.feature(tagged: tag)))
        }
        self.features = features
        self.signature = signature
        signedBytes = Array(bytes[..<signatureStart])
        profile = features.first { $0.tag == 0 && type?.reference == 0x01C8 }.flatMap {
            SealDocumentType.administrativeProfiles[$0.bytes]
        }
    }

    /// The first feature named `name` (`MRZ`, `PASSPORT_NUMBER`, …).
    public func feature(named name: String) -> SealFeature? { features.first { $0.name == name } }

    /// The MRZ the seal carries (`MRZ`, `MRZ_MRVA` or `MRZ_MRVB`), nil when it carries none.
    public var machineReadableZoneLines: [String]? { features.lazy.compactMap(\.machineReadableZoneLines).first }
}

/// The header of a VDS (9303-13 §2.2): magic `DC`, version, issuing country, signer and
/// certificate reference, issue and signature dates, document feature definition reference and
/// document type category.
public struct SealHeader: Sendable, Hashable {
    /// 9303-13's version: 3 (version byte `02`, a fixed 5-character certificate reference) or 4
    /// (`03`, the reference's length written in the header).
    public let version: Int
    /// Three letters (a country code shorter than three is padded with spaces, as Germany's `D  `).
    public let issuingCountry: String
    /// Two letters of country and two of the signer's name (`DETS`, `UTTS`).
    public let signerIdentifier: String
    /// The signer certificate's serial number in hexadecimal (`00027`), as written.
    public let certificateReference: String
    public let issuingDate: UTCDateTime
    public let signatureDate: UTCDateTime
    public let featureDefinitionReference: UInt8
    public let documentTypeCategory: UInt8

    /// Feature definition reference and type category together, as document types are named.
    public var documentReference: UInt16 { UInt16(featureDefinitionReference) << 8 | UInt16(documentTypeCategory) }

    init(_ reader: inout SealReader) throws(SealError) {
        guard try reader.byte("magic") == 0xDC else { throw SealError(.malformed, "a VDS starts with DC") }
        let versionByte = try reader.byte("version")
        switch versionByte {
        case 0x02: version = 3
        case 0x03: version = 4
        default: throw SealError(.unsupported, "VDS version byte \(versionByte)")
        }
        issuingCountry = try C40.decode(reader.bytes(2, "issuing country"))
        if version == 3 {
            let signer = try C40.decode(reader.bytes(6, "signer and certificate reference"))
            guard signer.count == 9 else { throw SealError(.malformed, "signer and reference \"\(signer)\"") }
            signerIdentifier = String(signer.prefix(4))
            certificateReference = String(signer.dropFirst(4))
        } else {
            let signer = try C40.decode(reader.bytes(4, "signer"))
            guard signer.count == 6 else { throw SealError(.malformed, "signer and reference length \"\(signer)\"") }
            signerIdentifier = String(signer.prefix(4))
            // BSI TR-03171: the signer DEZV writes the length in decimal; 9303-13 in hexadecimal.
            let radix = signerIdentifier == "DEZV" ? 10 : 16
            guard let length = Int(signer.dropFirst(4), radix: radix), length > 0 else {
                throw SealError(.malformed, "certificate reference length \"\(signer.dropFirst(4))\"")
            }
            let reference = try C40.decode(reader.bytes((length - 1) / 3 * 2 + 2, "certificate reference"))
            guard reference.count == length else {
                throw SealError(.malformed, "a certificate reference of \(reference.count) characters, not \(length)")
            }
            certificateReference = reference
        }
        issuingDate = try Self.date(reader.bytes(3, "issuing date"), "issuing date")
        signatureDate = try Self.date(reader.bytes(3, "signature date"), "signature date")
        featureDefinitionReference = try reader.byte("document feature definition reference")
        documentTypeCategory = try reader.byte("document type category")
    }

    /// The compact date (9303-13 §2.3.1): MMDDYYYY as a decimal number in three bytes.
    static func date(_ bytes: [UInt8], _ what: String) throws(SealError) -> UTCDateTime {
        let value = bytes.reduce(0) { $0 << 8 | Int($1) }
        guard let date = UTCDateTime(year: value % 10000, month: value / 1_000_000, day: value / 10000 % 100) else {
            throw SealError(.malformed, "\(what) \(value) is no date (MMDDYYYY)")
        }
        return date
    }
}

/// One feature of the message zone, typed by its document type's definition.
public struct SealFeature: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case mrz([String])
        case text(String)
        case integer(Int)
        case duration(days: Int, months: Int, years: Int)
        case bytes([UInt8])
        /// A nested message zone (an IDB's visa or emergency travel document).
        case features([SealFeature])
    }

    public let tag: UInt8
    /// The definition's name; nil for a tag the document type does not define (or an unknown type).
    public let name: String?
    public let value: Value
    /// The value as written.
    public let bytes: [UInt8]

    init(tag: UInt8, value bytes: [UInt8], definition: SealDocumentType.Feature?) throws(SealError) {
        self.tag = tag
        self.bytes = bytes
        name = definition?.name
        let what = definition?.name ?? "feature \(tag)"
        switch definition?.coding {
        case .mrz?:
            let text = Array(try Self.zone(bytes, what))
            let lineLength = text.count == 90 ? 30 : max(1, text.count / 2)
            value = .mrz(
                stride(from: 0, to: text.count, by: lineLength).map {
                    String(text[$0..<min($0 + lineLength, text.count)])
                })
        case .visaMRZ(let lineLength)?:
            let text = Array(try Self.zone(bytes, what))
            guard text.count > lineLength else { throw SealError(.malformed, "\(what) of \(text.count) characters") }
            value = .mrz([String(text[..<lineLength]), String(text[lineLength...])])
        case .c40?:
            value = .text(try C40.decode(bytes))
        case .utf8?:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw SealError(.malformed, "\(what) is not UTF-8")
            }
            value = .text(text)
        case .byte?:
            guard bytes.count == 1 else { throw SealError(.malformed, "\(what) of \(bytes.count) bytes, not 1") }
            value = .integer(Int(bytes[0]))
        case .duration? where bytes.count == 3:
            value = .duration(days: Int(bytes[0]), months: Int(bytes[1]), years: Int(bytes[2]))
        case .maskedDate?:
            guard bytes.count == 4 else { throw SealError(.malformed, "\(what) of \(bytes.count) bytes, not 4") }
            let digits = Array(String(bytes[1...].reduce(0) { $0 << 8 | Int($1) }).leftPadded(to: 8))
            guard digits.count == 8 else { throw SealError(.malformed, "\(what) is no MMDDYYYY date") }
            let shown = digits.enumerated().map { bytes[0] >> (7 - $0.offset) & 1 == 1 ? "x" : $0.element }
            value = .text(String(shown[4...]) + "-" + String(shown[0..<2]) + "-" + String(shown[2..<4]))
        case .nested(let reference)?:
            var reader = SealReader(bytes)
            value = .features(try SealFeature.zone(&reader, type: SealDocumentType.named(by: reference)))
        case .bytes?, .duration?, nil:
            value = .bytes(bytes)
        }
    }

    /// An MRZ in C40, with the spaces that stand for `<` put back.
    private static func zone(_ bytes: [UInt8], _ what: String) throws(SealError) -> String {
        let text = try C40.decode(bytes).replacingSpaces()
        guard !text.isEmpty else { throw SealError(.malformed, "\(what) is empty") }
        return text
    }
}

extension SealFeature {
    /// Every feature up to the end of `reader` (a message zone without a signature zone).
    static func zone(_ reader: inout SealReader, type: SealDocumentType?) throws(SealError) -> [SealFeature] {
        var features: [SealFeature] = []
        while !reader.isAtEnd {
            let tag = try reader.byte("feature tag")
            let value = try reader.bytes(reader.derLength("feature \(tag)"), "feature \(tag)")
            features.append(try SealFeature(tag: tag, value: value, definition: type?.feature(tagged: tag)))
        }
        return features
    }

    /// The MRZ in this feature or the zone it holds.
    var machineReadableZoneLines: [String]? {
        switch value {
        case .mrz(let lines): lines
        case .features(let features): features.lazy.compactMap(\.machineReadableZoneLines).first
        default: nil
        }
    }
}

extension String {
    fileprivate func replacingSpaces() -> String { String(map { $0 == " " ? "<" : $0 }) }
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: Swift.max(0, length - count)) + self
    }
}

/// A cursor over a seal's bytes that refuses to read past their end.
struct SealReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte(_ what: String) throws(SealError) -> UInt8 {
        guard offset < bytes.count else { throw SealError(.malformed, "the seal ends before its \(what)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int, _ what: String) throws(SealError) -> [UInt8] {
        guard count <= bytes.count - offset else {
            throw SealError(.malformed, "the \(what) needs \(count) bytes, \(bytes.count - offset) remain")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A DER length: one byte below 80, else 81–83 and that many bytes, minimal (9303-13 §2.4).
    mutating func derLength(_ what: String) throws(SealError) -> Int {
        guard offset < bytes.count else { throw SealError(.malformed, "the seal ends before its \(what) length") }
        let first = bytes[offset]
        var index = offset
        let length: Int?
        do {
            length = try ASN1Header.readLength(from: bytes[...], at: &index, rules: .der)
        } catch {
            throw SealError(.malformed, "\(what) length: \(error.reason)")
        }
        guard let length, index - offset <= 4 else { throw SealError(.malformed, "\(what): length byte \(first)") }
        offset = index
        return length
    }
}
