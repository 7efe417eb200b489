import CLibPNG
import Foundation

/// Decodes a PNG with libpng's simplified read API into 8-bit samples in the file's own channel
/// layout, so our PNG and the reference decoder's PNG are compared pixel by pixel.
struct DecodedPNG: Equatable {
    let width: Int
    let height: Int
    let channels: Int
    let samples: [UInt8]

    /// A `DocumentImage.png`, which is `Data` as the reference's `Bytes`.
    init?(_ data: Data) { self.init([UInt8](data)) }

    init?(_ bytes: [UInt8]) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { return nil }
        // 8-bit samples, colour and alpha as the file has them.
        image.format &= png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let channels = Int(image.format & png_uint_32(PNG_FORMAT_FLAG_COLOR)) != 0 ? 3 : 1
        let total = channels + (Int(image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA)) != 0 ? 1 : 0)
        var samples = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * total)
        let finished = samples.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { return nil }
        width = Int(image.width)
        height = Int(image.height)
        self.channels = total
        self.samples = samples
    }
}
