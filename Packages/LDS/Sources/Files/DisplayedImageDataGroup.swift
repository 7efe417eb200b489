import ASN1
import JSON

/// DG5 (displayed portrait, images under 5F40) and DG7 (displayed signature or usual mark,
/// under 5F43), ICAO 9303-10 §4.7.5 and §4.7.7.
///
/// ```
/// 65 { 02 count, 5F40 image… }      67 { 02 count, 5F43 image… }
/// ```
public struct DisplayedImageDataGroup: LDSFileModel, Equatable {
    public let kind: LDSFileKind
    public let rawBytes: [UInt8]
    public let images: [DocumentImage]
    public let warnings: [String]

    /// `kind` is `.dg5` or `.dg7`; `renderImages: false` skips the PNG renderings.
    public init(_ bytes: [UInt8], kind: LDSFileKind, renderImages: Bool = true) throws(LDSError) {
        let imageTag: UInt64
        switch kind {
        case .dg5: imageTag = 0x5F40
        case .dg7: imageTag = 0x5F43
        default: throw LDSError(.unsupported, "\(kind.rawValue) holds no displayed images")
        }
        var (node, warnings) = try OuterTLV.parse(bytes, kind: kind)
        self.kind = kind
        rawBytes = bytes
        images = node.children(ASN1Tag(imageTag)).map { DocumentImage(bytes: $0.bytes, render: renderImages) }
        let announced = node.child(.integer).flatMap { try? $0.intValue() }
        if images.isEmpty && announced != 0 {
            // Not an empty model: say what the file is instead (a 39794-5 face record shares DG5's
            // first byte, 65, and opens with a version block [0]).
            let looksLike39794 = node.child(.contextSpecific(0, constructed: true)) != nil
            throw LDSError(
                .malformed,
                "\(kind.rawValue) holds no displayed image (\(String(imageTag, radix: 16, uppercase: true)))"
                    + (looksLike39794
                        ? "; it looks like an ISO/IEC 39794-5 face record (a version block [0]), which DG2 holds"
                        : ""))
        }
        if let count = announced, count != images.count {
            warnings.append("\(kind.rawValue) announces \(count) images, holds \(images.count)")
        }
        self.warnings = warnings + images.flatMap(\.warnings)
    }

    /// The file for these images (DER): count, then each image under the group's tag.
    public static func encoded(images: [[UInt8]], kind: LDSFileKind) -> [UInt8] {
        let imageTag: UInt64 = kind == .dg7 ? 0x5F43 : 0x5F40
        return DER.constructed(
            ASN1Tag(UInt64(kind.outerTag)), [DER.integer(images.count)] + images.map { DER.tlv(ASN1Tag(imageTag), $0) })
    }

    /// The reference's `DisplayedPortrait` (`displayedPortraitImage`) or
    /// `DisplayedSignatureOrUsualMark` (`displayedSignatureOrUsualMarkImage`): the first image.
    /// Added: `additionalImages`, any further ones (the file holds a count).
    public var json: JSONValue {
        let key = kind == .dg7 ? "displayedSignatureOrUsualMarkImage" : "displayedPortraitImage"
        return [key: .optional(images.first), "additionalImages": .array(Array(images.dropFirst()))]
    }
}
