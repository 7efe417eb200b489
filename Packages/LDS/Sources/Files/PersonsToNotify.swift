import ASN1

/// DG16, persons to notify (ICAO 9303-10 §4.7.16).
///
/// ```
/// 70 { 02 count, A1 { 5F50 date data recorded, 5F51 name, 5F52 telephone, 5F53 address }, A2 {…}, … }
/// ```
public struct PersonsToNotify: LDSFileModel, Equatable {
    public struct Person: Sendable, Equatable, JSONRepresentable {
        public var dateDataRecorded: LDSDate?
        public var name: String?
        public var telephone: String?
        public var address: String?

        public var json: JSONValue {
            [
                "dateDataRecorded": .optional(dateDataRecorded), "name": .optional(name),
                "telephone": .optional(telephone), "address": .optional(address),
            ]
        }
    }

    public let rawBytes: [UInt8]
    public let persons: [Person]
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        var (node, warnings) = try OuterTLV.parse(bytes, kind: .dg16)
        rawBytes = bytes
        persons = node.children.filter { $0.tag.tagClass == .contextSpecific && $0.isConstructed }.map { template in
            let reader = DetailReader(template)
            return Person(
                dateDataRecorded: reader.date(0x5F50), name: reader.text(0x5F51), telephone: reader.text(0x5F52),
                address: reader.text(0x5F53))
        }
        if let count = node.child(.integer).flatMap({ try? $0.intValue() }), count != persons.count {
            warnings.append("DG16 announces \(count) persons, holds \(persons.count)")
        }
        self.warnings = warnings
    }

    public var json: JSONValue { ["persons": .array(persons), "rawBytes": .bytes(rawBytes)] }
}
