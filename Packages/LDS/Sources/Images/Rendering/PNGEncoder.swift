import CLibPNG

/// Encodes 8-bit pixels as PNG with libpng's simplified write API (which handles libpng's
/// longjmp error path inside the library, so no `setjmp` is needed on the Swift side).
enum PNGEncoder {
    static func encode(_ image: PixelImage) throws(LDSError) -> [UInt8] {
        var descriptor = png_image()
        descriptor.version = png_uint_32(PNG_IMAGE_VERSION)
        descriptor.width = png_uint_32(image.width)
        descriptor.height = png_uint_32(image.height)
        descriptor.format = format(of: image.layout)
        let rowStride = png_int_32(image.width * image.layout.channels)
        // One pass into a buffer of libpng's own upper bound (`PNG_IMAGE_PNG_SIZE_MAX`): asking
        // libpng for the size first would compress the image twice, and compression is most of
        // a rendering's time. Should a zlib ever exceed the bound, libpng says how much it needs.
        var capacity = maximumSize(of: image)
        for _ in 0..<2 {
            var size = capacity
            var output = [UInt8](repeating: 0, count: capacity)
            let written = output.withUnsafeMutableBytes { memory in
                image.samples.withUnsafeBytes { samples in
                    png_image_write_to_memory(
                        &descriptor, memory.baseAddress, &size, 0, samples.baseAddress, rowStride, nil)
                }
            }
            if written != 0 { return Array(output.prefix(size)) }  // sized to the PNG, not the bound
            guard size > capacity else { break }
            capacity = size
        }
        throw failure(descriptor)
    }

    /// `PNG_IMAGE_PNG_SIZE_MAX` of png.h for a non-colour-mapped image: the chunks libpng writes
    /// around the data, and zlib's bound on the filtered rows (a filter byte before each row).
    private static func maximumSize(of image: PixelImage) -> Int {
        let filtered = image.height * (image.width * image.layout.channels + 1)
        let compressed = filtered + (filtered + 7) >> 3 + (filtered + 63) >> 6 + 11
        return 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / Int(PNG_ZBUF_SIZE)) + compressed
    }

    private static func format(of layout: PixelImage.Layout) -> png_uint_32 {
        switch layout {
        case .grey: png_uint_32(PNG_FORMAT_GRAY)
        case .greyAlpha: png_uint_32(PNG_FORMAT_GA)
        case .rgb: png_uint_32(PNG_FORMAT_RGB)
        case .rgbAlpha: png_uint_32(PNG_FORMAT_RGB | PNG_FORMAT_FLAG_ALPHA)
        }
    }

    private static func failure(_ descriptor: png_image) -> LDSError {
        var message = descriptor.message
        let text = withUnsafeBytes(of: &message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return LDSError(.imageDecoding, "libpng: \(text)")
    }
}
