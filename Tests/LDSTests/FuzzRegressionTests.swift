import LDS
import Testing

/// Inputs the LDS fuzz targets (Tools/fuzz.sh) found, minimised, each with what it broke.
@Suite struct FuzzRegressionTests {
    /// A bare codestream: SOC, then a SIZ marker with the given image and tile sizes (one
    /// 8-bit component), nothing else.
    static func codestream(width: UInt32, height: UInt32, tileWidth: UInt32, tileHeight: UInt32) -> [UInt8] {
        let sizes = [width, height, 0, 0, tileWidth, tileHeight, 0, 0].flatMap { value in
            (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        return [0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x29, 0x00, 0x00] + sizes + [0x00, 0x01, 0x07, 0x01, 0x01]
    }

    /// `dg7` target: a DG7 signature whose 16×589,836 codestream declares 49,153 tiles of 12
    /// rows. OpenJPEG allocated 280 MB of tile state while reading the header, before the
    /// decoder's size check ran; the tiles are now counted from SIZ first.
    @Test func codestreamDeclaringTensOfThousandsOfTilesIsRefusedBeforeDecoding() {
        let bytes = Self.codestream(width: 16, height: 589_836, tileWidth: 6_232_336, tileHeight: 12)
        let image = DocumentImage(bytes: bytes)
        #expect(image.format == .jpeg2000Codestream)
        #expect(image.png == nil)
        #expect(image.renderingFailure?.contains("1×49153 tiles is refused") == true)
        let group = LDSFileParser.parseLeniently([0x67, 0x33, 0x02, 0x01, 0x01, 0x5F, 0x43, 0x2D] + bytes, as: .dg7)
        #expect(group.warnings.contains { $0.contains("tiles is refused") })
    }

    @Test func codestreamDeclaringTooManySamplesIsRefusedBeforeDecoding() {
        let bytes = Self.codestream(width: 60_000, height: 60_000, tileWidth: 60_000, tileHeight: 60_000)
        #expect(DocumentImage(bytes: bytes).renderingFailure?.contains("60000×60000×1 samples is refused") == true)
    }
}
