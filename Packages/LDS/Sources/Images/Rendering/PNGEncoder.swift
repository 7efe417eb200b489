import CLibDeflate
import CPNGDeflate
import Synchronization

/// Encodes 8-bit pixels as PNG: every row filtered with Up, the whole image deflated at once,
/// framed as one IDAT chunk (`pngdeflate_write_png` in `CPNGDeflate`).
///
/// Chosen for speed where the size stays reasonable: deflate was most of a face's rendering after
/// OpenJPEG's decode. Most images are deflated by `CPNGDeflate`'s own coder, one Huffman code for
/// literals and runs of a repeated byte with no search for earlier matches: on the images of
/// ../shared/data it is two to three times as fast as libdeflate's level 1 on a face (bsi2008's
/// PNG 14 % larger, 296 → 340 KB), three times on an iris (+9 %, 42 → 46 KB), and eight times as
/// fast as the level 2 signatures had (tsemrtd's PNG 601 → 1,234 bytes). Images with a quarter to
/// nine tenths of zeros once filtered (a face before a smooth background, such as loes2006) repeat
/// short patterns that only libdeflate's level 1 matches catch (the runs alone were 25 % larger
/// there, at the same speed), and go to it. libdeflate's level 1 is itself twice as fast as zlib's
/// and 5–7 % smaller. Sub and None filters made files larger at every setting; Paeth was within
/// 1 % of Up on the faces (8 % smaller on the iris) for a costlier filter, Average larger on the
/// faces; libpng's defaults (adaptive filters, zlib level 6) are 6–9× slower for files 10–25 %
/// larger at most.
enum PNGEncoder {
    static func encode(_ image: PixelImage) throws(LDSError) -> [UInt8] {
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw LDSError(.imageDecoding, "PNG: an image of \(image.width)×\(image.height) pixels")
        }
        guard let compressor = Compressor.take() else {
            throw LDSError(.imageDecoding, "libdeflate could not allocate a compressor")
        }
        defer { compressor.putBack() }
        var output = pngdeflate_png()
        let written = image.samples.withUnsafeBufferPointer { samples in
            pngdeflate_write_png(
                compressor.pointer, samples.baseAddress, width, height, Int32(image.layout.channels), &output)
        }
        guard written == 1, let bytes = output.bytes else {
            throw LDSError(.imageDecoding, "could not write a \(image.width)×\(image.height) PNG")
        }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: output.count))
    }

    /// libdeflate compressors at level 1, kept between images: allocating one is cheap, but a
    /// fresh one's tables are first touched while compressing, which cost a quarter of a small
    /// image's deflate. One serves one image at a time; the pool holds at most `kept` idle.
    private struct Compressor: @unchecked Sendable {
        let pointer: OpaquePointer

        private static let kept = 8
        private static let idle = Mutex<[Compressor]>([])

        static func take() -> Compressor? {
            if let compressor = idle.withLock({ $0.popLast() }) { return compressor }
            return libdeflate_alloc_compressor(1).map(Compressor.init)
        }

        func putBack() {
            let kept = Self.idle.withLock { idle in
                guard idle.count < Self.kept else { return false }
                idle.append(self)
                return true
            }
            if !kept { libdeflate_free_compressor(pointer) }
        }
    }
}
