import Foundation
import Testing

@testable import LDS

/// JPEG 2000 beyond 8-bit RGB: higher precision and alpha, encoded losslessly by OpenJPEG's own
/// `opj_compress` from known samples.
struct JPEG2000EdgeTests {
    /// Encodes `input` (a .pgm or .png in `directory`) with opj_compress, two resolution levels
    /// (the images are tiny), lossless.
    static func compress(_ input: URL, to name: String, in directory: URL) throws -> [UInt8]? {
        guard let tool = SharedData.tool("opj_compress", package: "libopenjp2-tools") else { return nil }
        let output = directory.appendingPathComponent(name)
        #expect(try SharedData.run(tool, ["-i", input.path, "-o", output.path, "-n", "2"]) == 0)
        return [UInt8](try Data(contentsOf: output))
    }

    @Test func twelveBitGreyIsScaledToEightBits() throws {
        let directory = try SharedData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: 12)
        let (width, height) = (9, 7)
        let samples = (0..<width * height).map { _ in Int(generator.next() % 4096) }
        let header = Array("P5\n\(width) \(height)\n4095\n".utf8)
        let input = directory.appendingPathComponent("grey12.pgm")
        try Data(header + samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }).write(to: input)
        guard let codestream = try Self.compress(input, to: "grey12.j2k", in: directory) else { return }
        let image = DocumentImage(bytes: codestream)
        #expect(image.format == .jpeg2000Codestream && image.width == width && image.height == height)
        let decoded = try #require(image.png.flatMap(DecodedPNG.init))
        #expect(decoded.channels == 1)
        #expect(decoded.samples == samples.map { UInt8(($0 * 255 + 2047) / 4095) })
    }

    @Test func alphaIsKept() throws {
        let directory = try SharedData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: 4)
        let pixels = PixelImage(
            width: 8, height: 6, layout: .rgbAlpha,
            samples: (0..<8 * 6 * 4).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let input = directory.appendingPathComponent("rgba.png")
        try Data(try PNGEncoder.encode(pixels)).write(to: input)
        guard let jp2 = try Self.compress(input, to: "rgba.jp2", in: directory),
            let reference = SharedData.tool("opj_decompress", package: "libopenjp2-tools")
        else { return }
        let image = DocumentImage(bytes: jp2)
        #expect(image.format == .jpeg2000)
        let ours = try #require(image.png.flatMap(DecodedPNG.init))
        // opj_compress's PNG reader changes the colour of translucent pixels; the alpha channel
        // itself comes through unchanged, and every sample equals opj_decompress's.
        #expect(ours.channels == 4)
        let alpha = stride(from: 3, to: pixels.samples.count, by: 4)
        #expect(alpha.map { ours.samples[$0] } == alpha.map { pixels.samples[$0] })
        let output = directory.appendingPathComponent("reference.png")
        #expect(
            try SharedData.run(reference, ["-i", directory.appendingPathComponent("rgba.jp2").path, "-o", output.path])
                == 0)
        #expect(DecodedPNG([UInt8](try Data(contentsOf: output))) == ours)
    }

    /// Noise does not compress: the PNG comes close to libpng's upper bound, which the encoder
    /// writes into in one pass, for every layout and for rows of one pixel and many.
    @Test(arguments: [(1, 1), (1, 300), (2_000, 3), (97, 61)])
    func noiseEncodesToPNGInOnePass(width: Int, height: Int) throws {
        var generator = SplitMix64(seed: UInt64(width * height))
        for layout in [PixelImage.Layout.grey, .greyAlpha, .rgb, .rgbAlpha] {
            let samples = (0..<width * height * layout.channels).map { _ in UInt8(truncatingIfNeeded: generator.next())
            }
            let image = PixelImage(width: width, height: height, layout: layout, samples: samples)
            let decoded = try #require(DecodedPNG(try PNGEncoder.encode(image)))
            #expect(decoded.width == width && decoded.height == height && decoded.channels == layout.channels)
            #expect(decoded.samples == samples)
        }
    }
}
