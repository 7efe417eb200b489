/// Decoded pixels, 8 bits per sample, rows top to bottom, samples interleaved.
struct PixelImage: Sendable, Equatable {
    enum Layout: Int, Sendable {
        case grey = 1
        case greyAlpha = 2
        case rgb = 3
        case rgbAlpha = 4

        var channels: Int { rawValue }
    }

    let width: Int
    let height: Int
    let layout: Layout
    /// `width * height * layout.channels` samples.
    let samples: [UInt8]
}
