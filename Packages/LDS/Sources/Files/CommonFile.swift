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

    public var json: JSONValue {
        [
            "ldsVersion": .optional(ldsVersion),
            "unicodeVersion": .optional(unicodeVersion),
            "tagList": tagListJSON(tagList),
            "dataGroups": .array(dataGroups),
            "rawBytes": .bytes(rawBytes),
        ]
    }
}
