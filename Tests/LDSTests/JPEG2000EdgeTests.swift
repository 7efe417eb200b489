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
        #expect(
            image.format == .jpeg2000Codestream && image.size == ImageSize(width: UInt32(width), height: UInt32(height))
        )
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

    /// PGX carries precisions above 16 bits, which are scaled per sample rather than through
    /// the table. (OpenJPEG's PGX reader cuts signed samples to 11 bits whatever the header
    /// says, so signed scaling is tested on `SampleScale` itself, below.)
    @Test(arguments: [20, 24])
    func wideSamplesAreScaledToEightBits(precision: Int) throws {
        let directory = try SharedData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: UInt64(precision))
        let (width, height) = (11, 5)
        let range = 1 << precision
        var samples = (0..<width * height).map { _ in Int(generator.next() % UInt64(range)) }
        (samples[0], samples[1]) = (0, range - 1)
        let header = Array("PG ML + \(precision) \(width) \(height)\n".utf8)
        let body = samples.flatMap { sample in (0..<4).reversed().map { UInt8(truncatingIfNeeded: sample >> ($0 * 8)) }
        }
        let input = directory.appendingPathComponent("samples.pgx")
        try Data(header + body).write(to: input)
        guard let codestream = try Self.compress(input, to: "samples.j2k", in: directory) else { return }
        let decoded = try #require(DocumentImage(bytes: codestream).png.flatMap(DecodedPNG.init))
        #expect(decoded.channels == 1 && decoded.width == width && decoded.height == height)
        let maximum = range - 1
        #expect(decoded.samples == samples.map { UInt8(($0 * 255 + maximum / 2) / maximum) })
        #expect(decoded.samples.prefix(2) == [0, 255])
    }

    /// Signed samples are shifted up by half their range, then clamped and scaled like
    /// unsigned ones; the table (up to 16 bits) and the arithmetic (above) agree.
    @Test func signedSamplesAreShiftedByHalfTheirRange() {
        for precision in [1, 8, 12, 16] {
            let maximum = (1 << precision) - 1
            let half = 1 << (precision - 1)
            let scale = SampleScale(precision: precision, signed: true)
            let expected = (-half - 2...half + 1).map { sample in
                UInt8((min(max(sample + half, 0), maximum) * 255 + maximum / 2) / maximum)
            }
            #expect((-half - 2...half + 1).map { scale.eightBit(Int32($0)) } == expected, "precision \(precision)")
        }
        let wide = SampleScale(precision: 24, signed: true)
        let wideSamples: [Int32] = [-(1 << 23) - 1, -(1 << 23), 0, (1 << 23) - 1, 1 << 23]
        #expect(wideSamples.map(wide.eightBit) == [0, 0, 128, 255, 255])
    }

    /// Noise does not compress, so its PNG comes closest to the upper bound the encoder sizes its
    /// buffer by: every layout, rows of one pixel and of thousands, read back sample for sample.
    @Test(arguments: [(1, 1), (1, 300), (2_000, 3), (97, 61)])
    func incompressibleNoiseRoundTripsThroughPNG(width: Int, height: Int) throws {
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

    /// The cap on declared samples sits above the largest document images (a 1000 ppi slap of
    /// four fingers is about 3200×3000 grey) and keeps what a few hundred bytes can make
    /// OpenJPEG allocate to 64 MB of samples.
    @Test func sampleCapAdmitsLargeDocumentImagesAndRefusesMore() {
        let slap = CraftedCodestream(width: 3_200, height: 3_000, levels: 5).bytes
        #expect(throws: Never.self) { try JPEG2000Decoder.checkDeclaredSize(slap, format: .jpeg2000Codestream) }
        let above = FuzzRegressionTests.codestream(width: 4_096, height: 4_097, tileWidth: 4_096, tileHeight: 4_097)
        #expect(DocumentImage(bytes: above).renderingFailure?.contains("4096×4097×1 samples is refused") == true)
    }
}
