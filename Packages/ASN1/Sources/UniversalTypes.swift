import Foundation

/// Readers for the universal types. Each checks the tag, so a structure that
/// puts the wrong type in a field fails with `unexpectedTag` instead of a misread.
extension ASN1Node {
    /// INTEGER content as two's complement bytes, as encoded (BER: non-minimal tolerated).
    public func integerBytes() throws(ASN1Error) -> ArraySlice<UInt8> {
        try expectPrimitive(.integer, "INTEGER")
        guard !content.isEmpty else { throw ASN1Error(.invalidValue, "empty INTEGER") }
        return content
    }

    /// INTEGER as an unsigned magnitude without leading zero bytes (keys, serials, moduli).
    /// A negative value is an error: use `integerBytes()` for signed views.
    public func unsignedIntegerBytes() throws(ASN1Error) -> ArraySlice<UInt8> {
        let bytes = try integerBytes()
        guard let first = bytes.first, first & 0x80 == 0 else {
            throw ASN1Error(.invalidValue, "negative INTEGER where an unsigned value is required")
        }
        let trimmed = bytes.drop { $0 == 0 }
        return trimmed.isEmpty ? bytes.suffix(1) : trimmed
    }

    /// INTEGER (or ENUMERATED) that fits an `Int`.
    public func intValue() throws(ASN1Error) -> Int {
        guard tag == .integer || tag == .enumerated else {
            throw ASN1Error(.unexpectedTag, "INTEGER expected, found \(tag)")
        }
        guard let first = content.first else { throw ASN1Error(.invalidValue, "empty INTEGER") }
        let significant = content.drop { $0 == (first & 0x80 == 0 ? 0x00 : 0xFF) }
        guard significant.count < 8 || (significant.count == 8 && (significant.first ?? 0) & 0x80 == first & 0x80)
        else { throw ASN1Error(.invalidValue, "INTEGER of \(content.count) bytes does not fit") }
        var value: Int = first & 0x80 == 0 ? 0 : -1
        for byte in content.suffix(8) { value = value << 8 | Int(byte) }
        return value
    }

    public func booleanValue() throws(ASN1Error) -> Bool {
        try expectPrimitive(.boolean, "BOOLEAN")
        guard content.count == 1, let byte = content.first else {
            throw ASN1Error(.invalidValue, "BOOLEAN of \(content.count) bytes")
        }
        return byte != 0
    }

    public func nullValue() throws(ASN1Error) {
        try expectPrimitive(.null, "NULL")
        guard content.isEmpty else { throw ASN1Error(.invalidValue, "NULL with content") }
    }

    /// OCTET STRING content; the segments of a constructed (BER) OCTET STRING are joined.
    public func octetString() throws(ASN1Error) -> ArraySlice<UInt8> {
        guard tag.tagClass == .universal, tag.number == ASN1Tag.octetString.number else {
            throw ASN1Error(.unexpectedTag, "OCTET STRING expected, found \(tag)")
        }
        return try joinedSegments(of: .octetString)
    }

    /// BIT STRING as its bytes and the count of unused bits in the last one.
    public func bitString() throws(ASN1Error) -> (bytes: ArraySlice<UInt8>, unusedBits: Int) {
        try expectPrimitive(.bitString, "BIT STRING")
        guard let unused = content.first, unused < 8, content.count > 1 || unused == 0 else {
            throw ASN1Error(.invalidValue, "BIT STRING with a bad unused-bits count")
        }
        return (content.dropFirst(), Int(unused))
    }

    public func objectIdentifier() throws(ASN1Error) -> ASN1ObjectIdentifier {
        try expectPrimitive(.objectIdentifier, "OBJECT IDENTIFIER")
        return try ASN1ObjectIdentifier(content: content)
    }

    /// Any of the character string types, decoded by its type: UTF-8, BMP (UTF-16BE),
    /// Universal (UTF-32BE), Teletex and the 7-bit types (read as Latin-1, which never fails).
    public func string() throws(ASN1Error) -> String {
        guard tag.tagClass == .universal, !tag.isConstructed else {
            throw ASN1Error(.unexpectedTag, "string expected, found \(tag)")
        }
        let data = Data(content)
        let decoded: String?
        switch tag {
        case .utf8String: decoded = String(data: data, encoding: .utf8)
        case .bmpString: decoded = String(data: data, encoding: .utf16BigEndian)
        case .universalString: decoded = String(data: data, encoding: .utf32BigEndian)
        case .printableString, .ia5String, .numericString, .visibleString, .teletexString:
            decoded = String(data: data, encoding: .isoLatin1)
        default:
            throw ASN1Error(.unexpectedTag, "string expected, found \(tag)")
        }
        guard let decoded else { throw ASN1Error(.invalidValue, "\(tag) string is not valid in its encoding") }
        return decoded
    }

    /// UTCTime (years 1950–2049, RFC 5280) or GeneralizedTime, in UTC. Seconds may be
    /// absent; GeneralizedTime may carry fractions; an offset other than Z is applied.
    public func time() throws(ASN1Error) -> Date {
        guard tag == .utcTime || tag == .generalizedTime else {
            throw ASN1Error(.unexpectedTag, "time expected, found \(tag)")
        }
        guard let text = String(bytes: content, encoding: .ascii) else {
            throw ASN1Error(.invalidValue, "time is not ASCII")
        }
        guard let date = ASN1Time.parse(text, utc: tag == .utcTime) else {
            throw ASN1Error(.invalidValue, "malformed time \"\(text)\"")
        }
        return date
    }

    private func expectPrimitive(_ expected: ASN1Tag, _ what: String) throws(ASN1Error) {
        guard tag == expected else { throw ASN1Error(.unexpectedTag, "\(what) expected, found \(tag)") }
    }

    private func joinedSegments(of type: ASN1Tag) throws(ASN1Error) -> ArraySlice<UInt8> {
        guard tag.isConstructed else { return content }
        var joined: [UInt8] = []
        for child in children {
            guard child.tag.number == type.number, child.tag.tagClass == .universal else {
                throw ASN1Error(.unexpectedTag, "segment of constructed \(type) has tag \(child.tag)")
            }
            joined += try child.joinedSegments(of: type)
        }
        return joined[...]
    }
}

/// Parsing of the two ASN.1 time types' text.
enum ASN1Time {
    static func parse(_ text: String, utc: Bool) -> Date? {
        var rest = Substring(text)
        func digits(_ count: Int) -> Int? {
            guard rest.count >= count else { return nil }
            let part = rest.prefix(count)
            guard part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else { return nil }
            rest = rest.dropFirst(count)
            return value
        }
        guard var year = digits(utc ? 2 : 4), let month = digits(2), let day = digits(2), let hour = digits(2),
            let minute = digits(2)
        else { return nil }
        if utc { year += year < 50 ? 2000 : 1900 }
        var second = 0
        if let first = rest.first, first.isNumber {
            guard let value = digits(2) else { return nil }
            second = value
        }
        var fraction = 0.0
        if !utc, let first = rest.first, first == "." || first == "," {
            rest = rest.dropFirst()
            let fractionDigits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !fractionDigits.isEmpty, let value = Double("0." + fractionDigits) else { return nil }
            fraction = value
            rest = rest.dropFirst(fractionDigits.count)
        }
        var offset = 0
        switch rest.first {
        case "Z":
            rest = rest.dropFirst()
        case "+", "-":
            let sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
            guard let hours = digits(2), let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        case nil where !utc:
            break  // GeneralizedTime without zone: read as UTC (9303 requires Z; be tolerant).
        default:
            return nil
        }
        guard rest.isEmpty, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        guard
            let moment = UTCDateTime(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return moment.date.addingTimeInterval(fraction - Double(offset))
    }
}
