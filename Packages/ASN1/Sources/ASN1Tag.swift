/// A BER tag: class, constructed bit and number (X.690 §8.1.2).
///
/// Written the way ISO 7816-4 and ICAO 9303 write tags, as the big-endian value of
/// the encoded tag bytes: `ASN1Tag(0x30)`, `ASN1Tag(0x5F1F)`, `ASN1Tag(0x7F61)`.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    public enum TagClass: UInt8, Sendable {
        case universal = 0
        case application = 1
        case contextSpecific = 2
        case `private` = 3
    }

    public let tagClass: TagClass
    public let isConstructed: Bool
    public let number: UInt32
    /// Whether the number follows in extra bytes even though it is below 31: ISO 7816-4
    /// tags such as `5F01` or `5F0E`, which are distinct from the one-byte `41` or `4E`.
    let isHighNumberFormBelow31: Bool

    public init(tagClass: TagClass, number: UInt32, isConstructed: Bool) {
        self.init(tagClass: tagClass, number: number, isConstructed: isConstructed, highNumberForm: number >= 31)
    }

    private init(tagClass: TagClass, number: UInt32, isConstructed: Bool, highNumberForm: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = isConstructed
        self.isHighNumberFormBelow31 = highNumberForm && number < 31
    }

    /// The tag whose encoding, read as a big-endian number, is `encoded`.
    /// Precondition: `encoded` is a well-formed tag (a programming constant, never input).
    public init(_ encoded: UInt64) {
        var bytes: [UInt8] = []
        var rest = encoded
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while rest != 0
        var index = bytes.startIndex
        do {
            self = try ASN1Tag.read(from: bytes[...], at: &index)
        } catch {
            preconditionFailure("malformed tag constant \(String(encoded, radix: 16))")
        }
        precondition(index == bytes.endIndex, "malformed tag constant \(String(encoded, radix: 16))")
    }

    public static func contextSpecific(_ number: UInt32, constructed: Bool) -> ASN1Tag {
        ASN1Tag(tagClass: .contextSpecific, number: number, isConstructed: constructed)
    }

    public static func application(_ number: UInt32, constructed: Bool) -> ASN1Tag {
        ASN1Tag(tagClass: .application, number: number, isConstructed: constructed)
    }

    /// The same class and number with the constructed bit as given (IMPLICIT re-tagging).
    public func with(constructed: Bool) -> ASN1Tag {
        ASN1Tag(
            tagClass: tagClass, number: number, isConstructed: constructed, highNumberForm: isHighNumberFormBelow31
        )
    }

    /// The tag's encoded bytes.
    public var encoded: [UInt8] {
        let first = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        if number < 31 && !isHighNumberFormBelow31 { return [first | UInt8(number)] }
        var tail: [UInt8] = [UInt8(number & 0x7F)]
        var rest = number >> 7
        while rest != 0 {
            tail.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return [first | 0x1F] + tail
    }

    public var description: String {
        Hex.encode(encoded)
    }

    /// Reads one tag at `index`, advancing it.
    static func read(from bytes: ArraySlice<UInt8>, at index: inout Int) throws(ASN1Error) -> ASN1Tag {
        guard index < bytes.endIndex else { throw ASN1Error(.truncated, "tag expected at offset \(index)") }
        let first = bytes[index]
        index += 1
        let tagClass = TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        guard first & 0x1F == 0x1F else {
            return ASN1Tag(tagClass: tagClass, number: UInt32(first & 0x1F), isConstructed: constructed)
        }
        var number: UInt32 = 0
        var count = 0
        while true {
            guard index < bytes.endIndex else { throw ASN1Error(.truncated, "multi-byte tag ends early") }
            let byte = bytes[index]
            index += 1
            if count == 0 && byte == 0x80 {
                throw ASN1Error(.invalidTag, "tag number with a leading zero group at offset \(index - 1)")
            }
            count += 1
            guard count <= 4 else { throw ASN1Error(.invalidTag, "tag number longer than 28 bits") }
            number = number << 7 | UInt32(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return ASN1Tag(tagClass: tagClass, number: number, isConstructed: constructed, highNumberForm: true)
    }
}

extension ASN1Tag {
    public static let boolean = ASN1Tag(0x01)
    public static let integer = ASN1Tag(0x02)
    public static let bitString = ASN1Tag(0x03)
    public static let octetString = ASN1Tag(0x04)
    public static let null = ASN1Tag(0x05)
    public static let objectIdentifier = ASN1Tag(0x06)
    public static let enumerated = ASN1Tag(0x0A)
    public static let utf8String = ASN1Tag(0x0C)
    public static let sequence = ASN1Tag(0x30)
    public static let set = ASN1Tag(0x31)
    public static let numericString = ASN1Tag(0x12)
    public static let printableString = ASN1Tag(0x13)
    public static let teletexString = ASN1Tag(0x14)
    public static let ia5String = ASN1Tag(0x16)
    public static let utcTime = ASN1Tag(0x17)
    public static let generalizedTime = ASN1Tag(0x18)
    public static let visibleString = ASN1Tag(0x1A)
    public static let universalString = ASN1Tag(0x1C)
    public static let bmpString = ASN1Tag(0x1E)
}
