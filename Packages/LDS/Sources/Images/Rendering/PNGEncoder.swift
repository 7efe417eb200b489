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
        var size: png_alloc_size_t = 0
        let sized = image.samples.withUnsafeBytes { samples in
            png_image_write_to_memory(&descriptor, nil, &size, 0, samples.baseAddress, rowStride, nil)
        }
        guard sized != 0, size > 0 else { throw failure(descriptor) }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { memory in
            image.samples.withUnsafeBytes { samples in
                png_image_write_to_memory(
                    &descriptor, memory.baseAddress, &size, 0, samples.baseAddress, rowStride, nil)
            }
        }
        guard written != 0 else { throw failure(descriptor) }
        return Array(output.prefix(Int(size)))
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
