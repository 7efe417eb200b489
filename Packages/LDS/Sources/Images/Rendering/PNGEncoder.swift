import CLibPNG

/// Encodes 8-bit pixels as PNG through libpng (`clibpng_write` in `CLibPNG`'s shim, which keeps
/// libpng's longjmp error path inside C).
///
/// Filters and compression are chosen for speed at a modest cost in size: deflate took two thirds of a
/// face's rendering with libpng's defaults (adaptive filtering, zlib level 6). Every row is filtered
/// with Up (the difference to the row above, which suits photographs) and deflated at level 1: on the
/// faces of ../shared/data 4–5× faster than the defaults for files 5–35 % larger, where no
/// filtering at any level made them 50–100 % larger.
enum PNGEncoder {
    static func encode(_ image: PixelImage) throws(LDSError) -> [UInt8] {
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw LDSError(.imageDecoding, "libpng: an image of \(image.width)×\(image.height) pixels")
        }
        var output = clibpng_buffer()
        let written = image.samples.withUnsafeBufferPointer { samples in
            clibpng_write(
                samples.baseAddress, width, height, Int32(image.layout.channels), Int32(PNG_FILTER_UP), 1, &output)
        }
        guard written == 1, let bytes = output.bytes else {
            throw LDSError(.imageDecoding, "libpng could not write a \(image.width)×\(image.height) PNG")
        }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: output.count))
    }
}
