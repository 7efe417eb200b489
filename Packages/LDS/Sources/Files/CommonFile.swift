import ASN1
import JSON

/// EF.COM: the LDS and Unicode versions and the list of data groups present (ICAO 9303-10 §4.6.1).
///
/// ```
/// 60 { 5F01 LDS version "aabb", 5F36 Unicode version "aabbcc", 5C tag list }
/// ```
/// A tag list that names unknown tags is kept (the tags stay in `tagList`), never fatal.
public struct CommonFile: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    /// As stored, e.g. "0107".
    public let ldsVersion: String?
    /// As stored, e.g. "040000".
    public let unicodeVersion: String?
    /// Every tag of the 5C list, in order, as encoded (e.g. 0x61 for DG1).
    public let tagList: [UInt32]
    /// The data groups the tag list names, in order.
    public let dataGroups: [LDSFileKind]
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        var (node, warnings) = try OuterTLV.parse(bytes, kind: .com)
        rawBytes = bytes
        ldsVersion = node.child(ASN1Tag(0x5F01))?.text
        unicodeVersion = node.child(ASN1Tag(0x5F36))?.text
        tagList = node.child(ASN1Tag(0x5C)).map { splitTagList($0.content) } ?? []
        if node.child(ASN1Tag(0x5C)) == nil { warnings.append("EF.COM has no tag list (5C)") }
        var groups: [LDSFileKind] = []
        for tag in tagList {
            if let kind = LDSFileKind.allCases.first(where: { $0.dataGroupNumber != nil && UInt32($0.outerTag) == tag })
            {
                groups.append(kind)
            } else {
                warnings.append("EF.COM lists tag \(String(tag, radix: 16, uppercase: true)), not a data group")
            }
        }
        dataGroups = groups
        self.warnings = warnings
    }

    /// A version as people write it: EF.COM stores two digits per part ("0107" is LDS 1.7,
    /// "040000" Unicode 4.0.0); text that is not pairs of digits is returned as stored.
    public static func dottedVersion(_ stored: String) -> String {
        let digits = Array(stored)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2), digits.allSatisfy(\.isASCII),
            digits.allSatisfy(\.isNumber)
        else { return stored }
        return stride(from: 0, to: digits.count, by: 2).map { String(Int(String(digits[$0...$0 + 1])) ?? 0) }
            .joined(separator: ".")
    }

    /// Versions dotted as the reference model writes them ("1.7", "4.0.0"), the stored digits
    /// beside (`…Raw`), the tag list and the data groups it names.
    public var json: JSONValue {
        [
            "ldsVersion": .optional(ldsVersion.map(Self.dottedVersion)),
            "ldsVersionRaw": .optional(ldsVersion),
            "unicodeVersion": .optional(unicodeVersion.map(Self.dottedVersion)),
            "unicodeVersionRaw": .optional(unicodeVersion),
            "tagList": tagListJSON(tagList),
            "dataGroups": .array(dataGroups),
        ]
    }
}
