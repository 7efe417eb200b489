import CLibDeflate
import Synchronization

/// Encodes 8-bit pixels as PNG: every row filtered with Up, the whole image deflated at once by
/// libdeflate, framed as one IDAT chunk (`clibdeflate_write_png` in `CLibDeflate`'s shim).
///
/// Chosen for speed where the size stays close to zlib's: deflate is most of a face's rendering
/// after OpenJPEG's decode. On the faces of ../shared/data, libdeflate at level 1 compresses the
/// Up-filtered rows about twice as fast as zlib at level 1 (what libpng used before) and 5–7 %
/// smaller; zlib's Huffman-only and RLE strategies were as fast only on noisy images and up to twice
/// as large on smooth ones; Sub and None filters made files larger at every setting; libpng's
/// defaults (adaptive filters, zlib level 6) are 6–9× slower for files 10–25 % larger at most.
/// Images that are almost all zero once filtered (a signature on white) go to level 2, which is
/// twice as fast as level 1 on such runs.
enum PNGEncoder {
    static func encode(_ image: PixelImage) throws(LDSError) -> [UInt8] {
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw LDSError(.imageDecoding, "PNG: an image of \(image.width)×\(image.height) pixels")
        }
        guard let compressors = Compressors.take() else {
            throw LDSError(.imageDecoding, "libdeflate could not allocate a compressor")
        }
        defer { compressors.putBack() }
        var output = clibdeflate_png()
        let written = image.samples.withUnsafeBufferPointer { samples in
            clibdeflate_write_png(
                compressors.busy, compressors.flat, samples.baseAddress, width, height,
                Int32(image.layout.channels), &output)
        }
        guard written == 1, let bytes = output.bytes else {
            throw LDSError(.imageDecoding, "could not write a \(image.width)×\(image.height) PNG")
        }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: output.count))
    }

    /// libdeflate compressors at levels 1 and 2, kept between images: allocating one is cheap, but
    /// a fresh one's tables are first touched while compressing, which cost a quarter of a
    /// signature's deflate. One pair serves one image at a time; the pool holds at most `kept` idle.
    private struct Compressors: @unchecked Sendable {
        let busy: OpaquePointer
        let flat: OpaquePointer

        private static let kept = 8
        private static let idle = Mutex<[Compressors]>([])

        static func take() -> Compressors? {
            if let compressors = idle.withLock({ $0.popLast() }) { return compressors }
            guard let busy = libdeflate_alloc_compressor(1) else { return nil }
            guard let flat = libdeflate_alloc_compressor(2) else {
                libdeflate_free_compressor(busy)
                return nil
            }
            return Compressors(busy: busy, flat: flat)
        }

        func putBack() {
            let kept = Self.idle.withLock { idle in
                guard idle.count < Self.kept else { return false }
                idle.append(self)
                return true
            }
            if !kept {
                libdeflate_free_compressor(busy)
                libdeflate_free_compressor(flat)
            }
        }
    }
}
