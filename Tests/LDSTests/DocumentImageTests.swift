import Foundation
import Testing

@testable import LDS

struct DocumentImageTests {
    @Test func detectsFormatsFromTheLeadingBytes() {
        #expect(ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(
            ImageFormat.detect([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) == .jpeg2000)
        #expect(ImageFormat.detect([0xFF, 0x4F, 0xFF, 0x51, 0x00]) == .jpeg2000Codestream)
        #expect(ImageFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat.detect([0xFF, 0xA0, 0xFF, 0xA8]) == .wsq)
        #expect(ImageFormat.detect([0x46, 0x41, 0x43, 0x00]) == .unknown)
        #expect(ImageFormat.detect([]) == .unknown)
    }

    @Test func declaredFormatAndSizeApplyOnlyWhereTheBytesAreSilent() {
        let unknown = DocumentImage(bytes: [1, 2, 3], declaredFormat: .jpeg, declaredWidth: 10, declaredHeight: 20)
        #expect(unknown.format == .jpeg)
        #expect(unknown.size == ImageSize(width: 10, height: 20))
        let png = DocumentImage(bytes: Self.tinyPNG, declaredFormat: .jpeg)
        #expect(png.format == .png)
        #expect(png.size == ImageSize(width: 2, height: 1))
        #expect(png.png == nil && png.renderingFailure == nil)
    }

    @Test func readsTheJPEGFrameHeader() {
        // SOI, APP0 (length 4), SOF0: precision 8, height 0x0123, width 0x0456.
        let jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x01, 0x23, 0x04, 0x56,
        ]
        let image = DocumentImage(bytes: jpeg)
        #expect(image.size == ImageSize(width: 0x456, height: 0x123))
    }

    @Test func truncatedOrGarbageJPEG2000IsAWarningNotACrash() {
        let garbage: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x29] + [UInt8](repeating: 0xAB, count: 60)
        let image = DocumentImage(bytes: garbage)
        #expect(image.format == .jpeg2000Codestream)
        #expect(image.png == nil)
        #expect(image.renderingFailure != nil)
        #expect(image.warnings(name: "face").count == 1)
    }

    @Test func encodesPNGThatLibPNGReadsBack() throws {
        let pixels = PixelImage(width: 3, height: 2, layout: .rgb, samples: Array(0..<18).map { UInt8($0 * 14) })
        let png = try PNGEncoder.encode(pixels)
        let decoded = try #require(DecodedPNG(png))
        #expect(decoded.width == 3 && decoded.height == 2 && decoded.channels == 3)
        #expect(decoded.samples == pixels.samples)
        let greyAlpha = PixelImage(width: 1, height: 2, layout: .greyAlpha, samples: [10, 255, 200, 0])
        let decodedGrey = try #require(DecodedPNG(try PNGEncoder.encode(greyAlpha)))
        #expect(decodedGrey.channels == 2 && decodedGrey.samples == greyAlpha.samples)
    }

    /// `renderImages: false` keeps every image, format and pixel size and leaves only the PNG out;
    /// the default renders each JPEG 2000 image.
    @Test(arguments: [
        ("jmrtd/bsi2008/Datagroup2.bin", LDSFileKind.dg2), ("jmrtd/bsi2008/Datagroup4.bin", .dg4),
        ("tsemrtd/EF_DG5.bin", .dg5), ("tsemrtd/EF_DG7.bin", .dg7),
    ])
    func parsingWithoutRenderingKeepsTheImages(path: String, kind: LDSFileKind) throws {
        guard let file = SharedData.file(path) else { return }
        let rendered = try LDSFileParser.parse(file, as: kind)
        let bare = try LDSFileParser.parse(file, as: kind, renderImages: false)
        #expect(!rendered.images.isEmpty)
        #expect(rendered.images.allSatisfy { !$0.format.isJPEG2000 || $0.png != nil })
        #expect(bare.images.allSatisfy { $0.png == nil && $0.renderingFailure == nil })
        #expect(bare.images.map(\.bytes) == rendered.images.map(\.bytes))
        #expect(bare.images.map(\.format) == rendered.images.map(\.format))
        #expect(bare.images.map(\.size) == rendered.images.map(\.size))
    }

    /// Every JPEG 2000 image in ../shared/data renders to a PNG of the same size and pixels as
    /// `opj_decompress` (OpenJPEG's reference tool) produces from the same bytes.
    @Test(arguments: [
        "jmrtd/bsi2008/Datagroup2.bin", "jmrtd/loes2006/ef0102.bin", "jmrtd/dg2/silver.jp2",
        "jmrtd/dg2/dg2_silver_all_fields.bin", "jmrtd/bsi2008/Datagroup4.bin", "tsemrtd/EF_DG5.bin",
        "tsemrtd/EF_DG7.bin",
    ])
    func jpeg2000RendersLikeOpjDecompress(path: String) throws {
        guard let file = SharedData.file(path),
            let tool = SharedData.tool("opj_decompress", package: "libopenjp2-tools")
        else { return }
        let jp2 = try #require(Self.embeddedJP2(in: file), "no JP2 signature in \(path)")
        for bytes in [jp2, try #require(Self.codestream(in: jp2))] {
            let image = DocumentImage(bytes: bytes)
            #expect(image.format.isJPEG2000)
            let ours = try #require(image.png.flatMap(DecodedPNG.init), "no PNG for \(path)")
            let directory = try SharedData.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let input = directory.appendingPathComponent("in.\(image.format.fileExtension)")
            let output = directory.appendingPathComponent("reference.png")
            try Data(bytes).write(to: input)
            #expect(try SharedData.run(tool, ["-i", input.path, "-o", output.path]) == 0)
            let reference = try #require(DecodedPNG([UInt8](try Data(contentsOf: output))))
            #expect(ours.width == reference.width && ours.height == reference.height)
            #expect(ours.channels == reference.channels)
            #expect(ours.samples == reference.samples, "pixels differ from opj_decompress for \(path)")
            #expect(image.size == ImageSize(width: UInt32(ours.width), height: UInt32(ours.height)))
        }
    }

    /// The JP2 file inside a data group (from its signature box to the end of the file).
    static func embeddedJP2(in bytes: [UInt8]) -> [UInt8]? {
        let signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        guard bytes.count >= signature.count else { return nil }
        for start in 0...(bytes.count - signature.count)
        where bytes[start..<start + signature.count].elementsEqual(signature) {
            return Array(bytes[start...])
        }
        return nil
    }

    /// The codestream of a JP2 file: from SOC/SIZ to the end of the `jp2c` box.
    static func codestream(in jp2: [UInt8]) -> [UInt8]? {
        guard jp2.count >= 4 else { return nil }
        for start in 0..<(jp2.count - 4) where jp2[start..<start + 4].elementsEqual([0xFF, 0x4F, 0xFF, 0x51]) {
            return Array(jp2[start...])
        }
        return nil
    }

    /// A 2×1 RGB PNG written by hand (signature, IHDR and the rest irrelevant for sniffing).
    static let tinyPNG: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        + [0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00]
}
