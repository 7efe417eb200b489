import ASN1
import JSON

/// DG5, the reference's `DisplayedPortrait`: the portrait as printed (images under 5F40), ICAO
/// 9303-10 §4.7.5.
///
/// ```
/// 65 { 02 count, 5F40 image… }
/// ```
public struct DisplayedPortrait: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    /// The DG5 image (5F40); nil only when the file announces none.
    public let displayedPortraitImage: DocumentImage?
    /// Any further images: the file holds a count, the reference model keeps the first alone.
    public let additionalImages: [DocumentImage]
    public let warnings: [String]

    /// Every image, the first then the additional ones.
    public var images: [DocumentImage] { (displayedPortraitImage.map { [$0] } ?? []) + additionalImages }

    /// `renderImages: false` skips the PNG renderings.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        rawBytes = bytes
        let file = try DisplayedImages(bytes, kind: .dg5, renderImages: renderImages)
        displayedPortraitImage = file.images.first
        additionalImages = Array(file.images.dropFirst())
        warnings = file.warnings
    }

    /// A DG5 holding these images (DER): count, then each under 5F40.
    public static func encoded(images: [[UInt8]]) -> [UInt8] { DisplayedImages.encoded(images: images, kind: .dg5) }

    /// The reference's `DisplayedPortrait` (`displayedPortraitImage`). Added: `additionalImages`.
    public var json: JSONValue {
        ["displayedPortraitImage": .optional(displayedPortraitImage), "additionalImages": .array(additionalImages)]
    }
}

/// DG7, the reference's `DisplayedSignatureOrUsualMark` (images under 5F43), ICAO 9303-10 §4.7.7.
///
/// ```
/// 67 { 02 count, 5F43 image… }
/// ```
public struct DisplayedSignatureOrUsualMark: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    /// The DG7 image (5F43); nil only when the file announces none.
    public let displayedSignatureOrUsualMarkImage: DocumentImage?
    /// Any further images: the file holds a count, the reference model keeps the first alone.
    public let additionalImages: [DocumentImage]
    public let warnings: [String]

    /// Every image, the first then the additional ones.
    public var images: [DocumentImage] {
        (displayedSignatureOrUsualMarkImage.map { [$0] } ?? []) + additionalImages
    }

    /// `renderImages: false` skips the PNG renderings.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        rawBytes = bytes
        let file = try DisplayedImages(bytes, kind: .dg7, renderImages: renderImages)
        displayedSignatureOrUsualMarkImage = file.images.first
        additionalImages = Array(file.images.dropFirst())
        warnings = file.warnings
    }

    /// A DG7 holding these images (DER): count, then each under 5F43.
    public static func encoded(images: [[UInt8]]) -> [UInt8] { DisplayedImages.encoded(images: images, kind: .dg7) }

    /// The reference's `DisplayedSignatureOrUsualMark` (`displayedSignatureOrUsualMarkImage`).
    /// Added: `additionalImages`.
    public var json: JSONValue {
        [
            "displayedSignatureOrUsualMarkImage": .optional(displayedSignatureOrUsualMarkImage),
            "additionalImages": .array(additionalImages),
        ]
    }
}

/// The layout DG5 and DG7 share: a count, then the images under the file's image tag.
struct DisplayedImages {
    let images: [DocumentImage]
    let warnings: [String]

    /// The image tag of a DG5 (5F40) or DG7 (5F43).
    static func imageTag(_ kind: LDSFileKind) -> UInt64 { kind == .dg7 ? 0x5F43 : 0x5F40 }

    init(_ bytes: [UInt8], kind: LDSFileKind, renderImages: Bool) throws(LDSError) {
        let imageTag = Self.imageTag(kind)
        var (node, warnings) = try OuterTLV.parse(bytes, kind: kind)
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
        let name = kind == .dg7 ? "signature or usual mark" : "portrait"
        let images = images
        self.warnings =
            warnings
            + images.enumerated().flatMap { index, image in
                image.warnings(name: "\(name) \(index + 1) of \(images.count)")
            }
    }

    /// The file for these images (DER): count, then each image under the group's tag.
    static func encoded(images: [[UInt8]], kind: LDSFileKind) -> [UInt8] {
        DER.constructed(
            ASN1Tag(UInt64(kind.outerTag)),
            [DER.integer(images.count)] + images.map { DER.tlv(ASN1Tag(imageTag(kind)), $0) })
    }
}
