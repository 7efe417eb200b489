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
                dateDataRecorded: reader.date(0x5F50), nameText: reader.text(0x5F51),
                telephoneText: reader.text(0x5F52), addressText: reader.text(0x5F53))
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
            writer.text(0x5F51, person.nameText)
            writer.text(0x5F52, person.telephoneText)
            writer.text(0x5F53, person.addressText)
            return DER.constructed(ASN1Tag(0xA1 + UInt64(index)), writer.elements)
        }
        return DER.constructed(ASN1Tag(0x70), [DER.integer(persons.count)] + templates)
    }

    /// The reference's `PersonsToNotify`: `persons`, each with `dateRecorded`, `name`,
    /// `telephone`, `address` (texts without fillers).
    public var json: JSONValue { ["persons": .array(persons)] }
}

/// One person to notify of DG16 (one A1, A2, … template). The reference's `name`, `telephone`
/// and `address` hold what its JSON shows, `<` fillers read once when made; each `…Text` beside
/// one keeps the text as the chip stored it (`SMITH<<CHARLES<R`), which the writer encodes.
public struct PersonToNotify: Sendable, Equatable, JSONRepresentable {
    /// The date the data was recorded and how the chip stored it; `dateRecorded` is its digits.
    public let dateDataRecorded: LDSDate?
    public let name: String?
    public let nameText: String?
    public let telephone: String?
    public let telephoneText: String?
    public let address: String?
    public let addressText: String?

    /// A person from texts as a chip stores them.
    public init(
        dateDataRecorded: LDSDate? = nil, nameText: String? = nil, telephoneText: String? = nil,
        addressText: String? = nil
    ) {
        self.dateDataRecorded = dateDataRecorded
        self.nameText = nameText
        name = nameText.map(DetailText.clean)
        self.telephoneText = telephoneText
        telephone = telephoneText.map(DetailText.clean)
        self.addressText = addressText
        address = addressText.map(DetailText.clean)
    }

    /// The reference's `dateRecorded`: YYYYMMDD.
    public var dateRecorded: String? { dateDataRecorded?.value }

    /// The reference's `PersonToNotify`, its properties as they are. Added: `dateRecordedISO8601`.
    public var json: JSONValue {
        [
            "dateRecorded": .optional(dateRecorded),
            "dateRecordedISO8601": DetailText.iso8601(dateDataRecorded), "name": .optional(name),
            "telephone": .optional(telephone), "address": .optional(address),
        ]
    }
}
