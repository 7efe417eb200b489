import ASN1
import JSON

/// DG16, persons to notify (ICAO 9303-10 §4.7.16).
///
/// ```
/// 70 { 02 count, A1 { 5F50 date data recorded, 5F51 name, 5F52 telephone, 5F53 address }, A2 {…}, … }
/// ```
public struct PersonsToNotify: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    public let persons: [PersonToNotify]
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        var (node, warnings) = try OuterTLV.parse(bytes, kind: .dg16)
        rawBytes = bytes
        persons = node.children.filter { $0.tag.tagClass == .contextSpecific && $0.isConstructed }.map { template in
            let reader = DetailReader(template, renderImages: false)  // DG16 holds no images
            return PersonToNotify(
                dateDataRecorded: reader.date(0x5F50), name: reader.text(0x5F51), telephone: reader.text(0x5F52),
                address: reader.text(0x5F53))
        }
        if let count = node.child(.integer).flatMap({ try? $0.intValue() }), count != persons.count {
            warnings.append("DG16 announces \(count) persons, holds \(persons.count)")
        }
        self.warnings = warnings
    }

    /// The DG16 file for these persons (DER): count, then one A1, A2, … template each.
    public static func encoded(persons: [PersonToNotify]) -> [UInt8] {
        let templates = persons.enumerated().map { index, person in
            var writer = DetailWriter()
            writer.date(0x5F50, person.dateDataRecorded)
            writer.text(0x5F51, person.name)
            writer.text(0x5F52, person.telephone)
            writer.text(0x5F53, person.address)
            return DER.constructed(ASN1Tag(0xA1 + UInt64(index)), writer.elements)
        }
        return DER.constructed(ASN1Tag(0x70), [DER.integer(persons.count)] + templates)
    }

    /// The reference's `PersonsToNotify`: `persons`, each with `dateRecorded`, `name`,
    /// `telephone`, `address` (texts without fillers).
    public var json: JSONValue { ["persons": .array(persons)] }
}

/// One person to notify of DG16 (one A1, A2, … template). Texts as the chip stored them.
public struct PersonToNotify: Sendable, Equatable, JSONRepresentable {
    /// The date the data was recorded and how the chip stored it; `dateRecorded` is its digits.
    public var dateDataRecorded: LDSDate?
    public var name: String?
    public var telephone: String?
    public var address: String?

    public init(
        dateDataRecorded: LDSDate? = nil, name: String? = nil, telephone: String? = nil, address: String? = nil
    ) {
        self.dateDataRecorded = dateDataRecorded
        self.name = name
        self.telephone = telephone
        self.address = address
    }

    /// The reference's `dateRecorded`: YYYYMMDD.
    public var dateRecorded: String? { dateDataRecorded?.value }

    public var json: JSONValue {
        [
            "dateRecorded": .optional(dateRecorded),
            "dateRecordedISO8601": DetailText.iso8601(dateDataRecorded), "name": DetailText.optional(name),
            "telephone": DetailText.optional(telephone), "address": DetailText.optional(address),
        ]
    }
}
