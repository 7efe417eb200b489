import CLibDeflate
import CPNGDeflate
import Testing

@testable import LDS

/// `CPNGDeflate`'s own deflate coder (`pngdeflate_plan_runs`, `pngdeflate_write_runs`: one Huffman
/// block of literals and runs at distance 1), which writes most rendered PNGs: its streams are
/// inflated by libdeflate and, framed as PNGs, read back by libpng, byte for byte.
struct PNGRunsTests {
    /// Deflates `data` with the runs coder and inflates it with libdeflate's decompressor.
    static func roundTrip(_ data: [UInt8]) throws -> [UInt8] {
        var plan = pngdeflate_runs_plan()
        data.withUnsafeBufferPointer { pngdeflate_plan_runs($0.baseAddress, $0.count, &plan) }
        var stream = [UInt8](repeating: 0, count: plan.size + 8)
        let written = data.withUnsafeBufferPointer { input in
            stream.withUnsafeMutableBufferPointer {
                pngdeflate_write_runs(input.baseAddress, input.count, &plan, $0.baseAddress)
            }
        }
        #expect(written == 1, "the stream is not the planned size")
        let decompressor = try #require(libdeflate_alloc_decompressor())
        defer { libdeflate_free_decompressor(decompressor) }
        var inflated = [UInt8](repeating: 0xAA, count: data.count)
        var inflatedCount = 0
        let result = stream.withUnsafeBufferPointer { input in
            inflated.withUnsafeMutableBufferPointer { output in
                libdeflate_zlib_decompress_ex(
                    decompressor, input.baseAddress, plan.size, output.baseAddress, output.count, nil, &inflatedCount)
            }
        }
        #expect(result == LIBDEFLATE_SUCCESS)
        return Array(inflated.prefix(inflatedCount))
    }

    /// Runs of every length around the match lengths' edges (4, 5, 258, 259, 261, 516, 517),
    /// of zero and other bytes, between literals.
    @Test func runsOfEveryEdgeLengthRoundTrip() throws {
        var data: [UInt8] = [2]
        for (index, length) in [1, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 258, 259, 260, 261, 262, 516, 517, 1_000]
            .enumerated()
        {
            data += [UInt8](repeating: UInt8(index % 3 == 0 ? 0 : index * 13), count: length)
            data.append(UInt8(200 + index % 50))
        }
        #expect(try Self.roundTrip(data) == data)
        #expect(try Self.roundTrip([UInt8](repeating: 0, count: 70_000)) == [UInt8](repeating: 0, count: 70_000))
        #expect(try Self.roundTrip([7, 7]) == [7, 7])
    }

    /// Frequencies growing like Fibonacci numbers give an optimal code deeper than deflate's 15
    /// bits, which the coder must shorten to a code that is still complete.
    @Test func codesDeeperThanFifteenBitsAreLimited() throws {
        var counts = [1, 1]
        while counts.count < 26 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        var data = counts.enumerated().flatMap { symbol, count in [UInt8](repeating: UInt8(symbol * 9), count: count) }
        var generator = SplitMix64(seed: 26)
        data.shuffle(using: &generator)
        #expect(try Self.roundTrip(data) == data)
        // As a one-row grey PNG, whose filtered row is its samples.
        let image = PixelImage(width: data.count, height: 1, layout: .grey, samples: data)
        let decoded = try #require(DecodedPNG(try PNGEncoder.encode(image)))
        #expect(decoded.samples == data)
    }

    /// Images drawn on a flat ground (mostly zero once filtered, as a signature) and smooth
    /// gradients of every layout come back from libpng pixel for pixel.
    @Test func flatAndSmoothImagesReadBack() throws {
        var generator = SplitMix64(seed: 7)
        for layout in [PixelImage.Layout.grey, .greyAlpha, .rgb, .rgbAlpha] {
            let (width, height) = (301, 47)
            var flat = [UInt8](repeating: 255, count: width * height * layout.channels)
            for _ in 0..<40 {
                flat[Int(generator.next() % UInt64(flat.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            let smooth = (0..<width * height * layout.channels).map { index in
                UInt8(truncatingIfNeeded: index / (width * layout.channels) + index % 7 + Int(generator.next() % 3))
            }
            for samples in [flat, smooth] {
                let image = PixelImage(width: width, height: height, layout: layout, samples: samples)
                let decoded = try #require(DecodedPNG(try PNGEncoder.encode(image)))
                #expect(decoded.channels == layout.channels && decoded.samples == samples)
            }
        }
    }
}
