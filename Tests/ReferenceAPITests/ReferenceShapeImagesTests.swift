import Emrtd
import Foundation
import Testing

/// The reference's images and biometric data groups as a host that imports `Emrtd` alone names
/// them: every property its Swift column lists, with the reference's types.
@Suite struct ReferenceShapeImagesTests {
    /// Computed: an array of key paths is not `Sendable`, so it cannot be a stored static.
    static var keyPaths: [AnyKeyPath] {
        [
            \DocumentImage.format as KeyPath<DocumentImage, ImageFormat>,
            \DocumentImage.size as KeyPath<DocumentImage, ImageSize>,
            \DocumentImage.bytes as KeyPath<DocumentImage, Data>,
            \DocumentImage.png as KeyPath<DocumentImage, Data?>,
            \ImageSize.width as KeyPath<ImageSize, UInt32>,
            \ImageSize.height as KeyPath<ImageSize, UInt32>,
            \BiometricRecord.biometricType as KeyPath<BiometricRecord, UInt32?>,
            \BiometricRecord.biometricSubtype as KeyPath<BiometricRecord, UInt32?>,
            \BiometricRecord.formatOwner as KeyPath<BiometricRecord, UInt32?>,
            \BiometricRecord.formatType as KeyPath<BiometricRecord, UInt32?>,
            \BiometricRecord.images as KeyPath<BiometricRecord, [DocumentImage]>,
            \BiometricRecord.data as KeyPath<BiometricRecord, Data>,
            \EncodedIdentificationFeaturesFace.faceImage as KeyPath<EncodedIdentificationFeaturesFace, DocumentImage?>,
            \EncodedIdentificationFeaturesFace.records as KeyPath<EncodedIdentificationFeaturesFace, [BiometricRecord]>,
            \EncodedIdentificationFeatures.records as KeyPath<EncodedIdentificationFeatures, [BiometricRecord]>,
            \DisplayedPortrait.displayedPortraitImage as KeyPath<DisplayedPortrait, DocumentImage?>,
            \DisplayedSignatureOrUsualMark.displayedSignatureOrUsualMarkImage
                as KeyPath<DisplayedSignatureOrUsualMark, DocumentImage?>,
            \TravelDocument.encodedIdentificationFeaturesFace
                as KeyPath<TravelDocument, EncodedIdentificationFeaturesFace>,
            \TravelDocument.encodedIdentificationFeaturesFinger
                as KeyPath<TravelDocument, EncodedIdentificationFeatures?>,
            \TravelDocument.encodedIdentificationFeaturesIris
                as KeyPath<TravelDocument, EncodedIdentificationFeatures?>,
            \TravelDocument.displayedPortrait as KeyPath<TravelDocument, DisplayedPortrait?>,
            \TravelDocument.displayedSignatureOrUsualMark as KeyPath<TravelDocument, DisplayedSignatureOrUsualMark?>,
        ]
    }

    /// A JPEG of 16×32 pixels as far as its header goes: SOI, a baseline SOF0, EOI.
    static let jpeg: [UInt8] =
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x10, 0x03]
        + [0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01] + [0xFF, 0xD9]

    @Test func everyReferencePropertyHasItsType() {
        #expect(Self.keyPaths.count == 22)
    }

    @Test func aWrittenFaceReadsBackThroughTheReferenceProperties() throws {
        let face = try EncodedIdentificationFeaturesFace(
            EncodedIdentificationFeaturesFace.encodedFace(image: Self.jpeg, width: 16, height: 32))
        let image = try #require(face.faceImage)
        #expect(image.format == .jpeg && image.size == ImageSize(width: 16, height: 32))
        #expect(image.bytes == Data(Self.jpeg) && image.png == nil)
        let record = try #require(face.records.first)
        #expect(record.biometricType == 2)  // facial features
        #expect(record.formatOwner == 0x0101 && record.formatType == 0x0008)
        #expect(!record.data.isEmpty && record.images.first == image)
        #expect(
            EncodedIdentificationFeaturesFace.empty.faceImage == nil
                && EncodedIdentificationFeaturesFace.empty.records.isEmpty)
    }

    @Test func displayedImagesAreTheFirstOfTheirFiles() throws {
        let portrait = try DisplayedPortrait(DisplayedPortrait.encoded(images: [Self.jpeg]))
        #expect(portrait.displayedPortraitImage?.size == ImageSize(width: 16, height: 32))
        let mark = try DisplayedSignatureOrUsualMark(DisplayedSignatureOrUsualMark.encoded(images: [Self.jpeg]))
        #expect(mark.displayedSignatureOrUsualMarkImage?.bytes == Data(Self.jpeg))
    }
}
