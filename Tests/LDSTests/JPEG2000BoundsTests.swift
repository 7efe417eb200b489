import Foundation
import Testing

@testable import LDS

/// A JPEG 2000 codestream written by hand: SOC, SIZ, COD, QCD, one tile-part of `tileData`
/// (zero bytes are empty packets), EOC. Small precincts, many levels or many layers cost
/// OpenJPEG seconds and gigabytes in a few hundred bytes (issue 43).
struct CraftedCodestream {
    var width = 64
    var height = 64
    var components = 1
    var levels = 2
    var layers = 1
    /// Precinct width and height exponent at every resolution; nil leaves them maximal.
    var precinctExponent: Int?
    var codeBlockExponent = 6
    /// Whether the tile-part header repeats the COD marker with 2×2 precincts and 11 levels.
    var costlyTilePartStyle = false
    var tileData = [UInt8](repeating: 0, count: 16)

    var bytes: [UInt8] {
        func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
            (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker] + bigEndian(body.count + 2, 2) + body
        }
        func codingStyle(levels: Int, precinctExponent: Int?) -> [UInt8] {
            let precincts = precinctExponent.map { [UInt8](repeating: UInt8($0 << 4 | $0), count: levels + 1) } ?? []
            let blocks = UInt8(codeBlockExponent - 2)
            return segment(
                0x52,
                [precinctExponent == nil ? 0 : 1, 0] + bigEndian(layers, 2)
                    + [0, UInt8(levels), blocks, blocks, 0, 1] + precincts)
        }
        let siz =
            bigEndian(0, 2) + [width, height, 0, 0, width, height, 0, 0].flatMap { bigEndian($0, 4) }
            + bigEndian(components, 2) + [UInt8]((0..<components).flatMap { _ in [0x07, 0x01, 0x01] as [UInt8] })
        let quantization = segment(0x5C, [UInt8](repeating: 0x40, count: 3 * levels + 2))
        let tileStyle = costlyTilePartStyle ? codingStyle(levels: 11, precinctExponent: 1) : []
        let tilePart = segment(
            0x90, bigEndian(0, 2) + bigEndian(12 + tileStyle.count + 2 + tileData.count, 4) + [0, 1])
        return [0xFF, 0x4F] + segment(0x51, siz) + codingStyle(levels: levels, precinctExponent: precinctExponent)
            + quantization + tilePart + tileStyle + [0xFF, 0x93] + tileData + [0xFF, 0xD9]
    }

    /// The faces of issue 43's table.
    static let issueFaces = [
        CraftedCodestream(width: 2048, height: 2048, levels: 11, precinctExponent: 1),
        CraftedCodestream(width: 4096, height: 4096, levels: 12, precinctExponent: 1),
        CraftedCodestream(width: 2048, height: 2048, levels: 5, layers: 65_535, precinctExponent: 1),
        CraftedCodestream(width: 2048, height: 2048, levels: 5, layers: 65_535),
    ]
}

struct JPEG2000BoundsTests {
    @Test(arguments: CraftedCodestream.issueFaces)
    func issueFacesAreRefusedBeforeOpenJPEG(face: CraftedCodestream) {
        let bytes = face.bytes
        #expect(bytes.count < 300)
        #expect(throws: LDSError.self) { try JPEG2000Decoder.checkDeclaredSize(bytes, format: .jpeg2000Codestream) }
        let image = DocumentImage(bytes: bytes)
        #expect(image.png == nil)
        #expect(image.renderingFailure?.contains("is refused") == true, "\(image.renderingFailure ?? "rendered")")
        #expect(image.bytes == Data(bytes))
        #expect(image.size == ImageSize(width: UInt32(face.width), height: UInt32(face.height)))
    }

    /// The face inside a DG2: the warning names the data group and the image, and the rest of
    /// the record (its header, the face's own description, the bytes) is there as without it.
    @Test func refusedFaceInDG2IsAWarningNamingItAndTheRecordIsKept() throws {
        let face = CraftedCodestream.issueFaces[0].bytes
        let group = EncodedIdentificationFeaturesFace.encodedFace(image: face, width: 2048, height: 2048)
        let result = LDSFileParser.parseLeniently(group, as: .dg2)
        let model = try #require(result.model as? EncodedIdentificationFeaturesFace)
        let warning =
            "dg2: face image 1 of 1 (JPEG 2000, 2048×2048, \(face.count) bytes) not rendered to PNG, its bytes kept:"
        #expect(result.warnings.contains { $0.hasPrefix(warning) && $0.contains("is refused") }, "\(result.warnings)")
        #expect(result.warnings.count == 1)
        let record = try #require(model.records.first)
        #expect(record.header.formatType == 0x0008)
        let image = try #require(record.dataBlock.images.first)
        #expect(image.face?.width == 2048 && image.face?.imageDataType == 1)
        #expect(image.image.bytes == Data(face) && image.image.png == nil)
    }

    @Test func refusedSignatureInDG7IsNamed() {
        let signature = CraftedCodestream.issueFaces[1].bytes
        let group = DisplayedImages.encoded(images: [signature], kind: .dg7)
        let result = LDSFileParser.parseLeniently(group, as: .dg7)
        #expect(result.model != nil)
        #expect(result.warnings.contains { $0.hasPrefix("dg7: signature or usual mark 1 of 1 (JPEG 2000, 4096×4096") })
    }

    /// A codestream whose main header is harmless but whose tile-part header declares the
    /// costly style is refused all the same.
    @Test func tilePartCodingStyleCounts() {
        let benign = CraftedCodestream(width: 2048, height: 2048, levels: 5)
        #expect(throws: Never.self) { try JPEG2000Decoder.checkDeclaredSize(benign.bytes, format: .jpeg2000Codestream) }
        var hidden = benign
        hidden.costlyTilePartStyle = true
        #expect(throws: LDSError.self) {
            try JPEG2000Decoder.checkDeclaredSize(hidden.bytes, format: .jpeg2000Codestream)
        }
    }

    /// 4×4 code-blocks over the largest image allowed: few packets, but a million code-blocks
    /// and 128 MB of samples, over the memory budget; 64×64 ones fit.
    @Test func memoryEstimateOverTheBudgetIsRefused() {
        var image = CraftedCodestream(width: 4_000, height: 4_000, levels: 5, codeBlockExponent: 2)
        let failure = DocumentImage(bytes: image.bytes).renderingFailure ?? "rendered"
        #expect(failure.contains("over the 256 MB budget, and is refused"), "\(failure)")
        image.codeBlockExponent = 6
        #expect(throws: Never.self) { try JPEG2000Decoder.checkDeclaredSize(image.bytes, format: .jpeg2000Codestream) }
    }

    @Test func levelsBeyondTheImageAndExtraComponentsAreRefused() {
        let levels = CraftedCodestream(width: 64, height: 48, levels: 8)
        #expect(DocumentImage(bytes: levels.bytes).renderingFailure?.contains("8 resolution levels is refused") == true)
        let components = CraftedCodestream(components: 5)
        #expect(DocumentImage(bytes: components.bytes).renderingFailure?.contains("5 components is refused") == true)
    }

    /// Within the bounds, a small codestream of empty packets decodes (to flat grey).
    @Test func ordinaryCodestreamsPass() throws {
        let small = DocumentImage(bytes: CraftedCodestream(width: 40, height: 30, components: 3).bytes)
        #expect(small.renderingFailure == nil)
        let decoded = try #require(small.png.flatMap(DecodedPNG.init))
        #expect(decoded.width == 40 && decoded.height == 30 && decoded.channels == 3)
    }
}
