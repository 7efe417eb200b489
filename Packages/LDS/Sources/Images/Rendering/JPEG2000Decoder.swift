import COpenJPEG

/// Decodes JPEG 2000 (JP2 file or bare codestream) from memory with OpenJPEG.
///
/// OpenJPEG reads through a stream whose callbacks pull from our buffer; the decoded components
/// are brought to 8 bits (higher and lower precisions scaled to 0…255, signed samples shifted),
/// subsampled components are spread over the full grid, and sYCC is converted to RGB as
/// `opj_decompress` does.
enum JPEG2000Decoder {
    /// Decoded images above this many samples are refused before OpenJPEG allocates them. The
    /// largest image a document holds, a 1000 ppi slap of four fingers, is about 3200×3000 grey
    /// (10 M); a few hundred bytes of codestream declaring the cap make OpenJPEG fill 64 MB of
    /// 32-bit samples.
    static let maximumSamples = 16 * 1024 * 1024

    static func decode(_ bytes: [UInt8]) throws(LDSError) -> PixelImage {
        let codecFormat: OPJ_CODEC_FORMAT
        let format = ImageFormat.detect(bytes)
        switch format {
        case .jpeg2000: codecFormat = OPJ_CODEC_JP2
        case .jpeg2000Codestream: codecFormat = OPJ_CODEC_J2K
        default: throw LDSError(.imageDecoding, "not a JPEG 2000 image")
        }
        try checkDeclaredSize(bytes, format: format)
        let source = MemorySource(bytes)
        guard let stream = opj_stream_create(Int(OPJ_J2K_STREAM_CHUNK_SIZE), 1) else {
            throw LDSError(.imageDecoding, "OpenJPEG could not create a stream")
        }
        defer { opj_stream_destroy(stream) }
        opj_stream_set_user_data(stream, Unmanaged.passRetained(source).toOpaque()) { pointer in
            if let pointer { Unmanaged<MemorySource>.fromOpaque(pointer).release() }
        }
        opj_stream_set_user_data_length(stream, UInt64(bytes.count))
        opj_stream_set_read_function(stream) { buffer, count, pointer in
            guard let buffer, let pointer else { return -1 }
            return Unmanaged<MemorySource>.fromOpaque(pointer).takeUnretainedValue().read(into: buffer, count: count)
        }
        opj_stream_set_skip_function(stream) { count, pointer in
            guard let pointer else { return -1 }
            return Unmanaged<MemorySource>.fromOpaque(pointer).takeUnretainedValue().skip(count)
        }
        opj_stream_set_seek_function(stream) { position, pointer in
            guard let pointer else { return 0 }
            return Unmanaged<MemorySource>.fromOpaque(pointer).takeUnretainedValue().seek(position) ? 1 : 0
        }

        guard let codec = opj_create_decompress(codecFormat) else {
            throw LDSError(.imageDecoding, "OpenJPEG could not create a decoder")
        }
        defer { opj_destroy_codec(codec) }
        var parameters = opj_dparameters_t()
        opj_set_default_decoder_parameters(&parameters)
        guard opj_setup_decoder(codec, &parameters) != 0 else {
            throw LDSError(.imageDecoding, "OpenJPEG refused the decoder parameters")
        }
        var header: UnsafeMutablePointer<opj_image_t>?
        guard opj_read_header(stream, codec, &header) != 0, let image = header else {
            throw LDSError(.imageDecoding, "OpenJPEG could not read the JPEG 2000 header")
        }
        defer { opj_image_destroy(image) }
        let width = Int(image.pointee.x1) - Int(image.pointee.x0)
        let height = Int(image.pointee.y1) - Int(image.pointee.y0)
        let componentCount = Int(image.pointee.numcomps)
        guard width > 0, height > 0, componentCount > 0,
            width.multipliedReportingOverflow(by: height).partialValue <= maximumSamples / min(componentCount, 4),
            width <= maximumSamples, height <= maximumSamples
        else {
            throw LDSError(.tooLarge, "JPEG 2000 image of \(width)×\(height)×\(componentCount) is refused")
        }
        guard opj_decode(codec, stream, image) != 0, opj_end_decompress(codec, stream) != 0 else {
            throw LDSError(.imageDecoding, "OpenJPEG could not decode the JPEG 2000 image")
        }
        return try pixels(of: image.pointee, width: width, height: height)
    }

    /// Interleaves the components into 8-bit samples.
    private static func pixels(of image: opj_image_t, width: Int, height: Int) throws(LDSError) -> PixelImage {
        guard let componentPointer = image.comps else { throw LDSError(.imageDecoding, "image without components") }
        let all = (0..<Int(image.numcomps)).map { componentPointer[$0] }
        let colour = all.filter { $0.alpha == 0 }
        let alpha = all.first { $0.alpha != 0 }
        let layout: PixelImage.Layout
        var used: [opj_image_comp_t]
        switch (colour.count, alpha) {
        case (0, _): throw LDSError(.imageDecoding, "image without colour components")
        case (1, nil): (layout, used) = (.grey, [colour[0]])
        case (1, let alpha?): (layout, used) = (.greyAlpha, [colour[0], alpha])
        case (2, _): (layout, used) = (.greyAlpha, colour)
        case (3, nil): (layout, used) = (.rgb, Array(colour.prefix(3)))
        case (_, let alpha?): (layout, used) = (.rgbAlpha, Array(colour.prefix(3)) + [alpha])
        case (_, nil): (layout, used) = colour.count == 4 ? (.rgbAlpha, colour) : (.rgb, Array(colour.prefix(3)))
        }
        let channels = layout.channels
        guard used.count == channels else { throw LDSError(.imageDecoding, "\(used.count) planes for \(layout)") }
        let count = width * height
        let origin = (x: Int(image.x0), y: Int(image.y0))
        if image.color_space == OPJ_CLRSPC_SYCC && used.count >= 3 {
            var planes = try used.map { component throws(LDSError) in
                try bytes(count: count) { plane throws(LDSError) in
                    try fill(plane, from: component, width: width, height: height, origin: origin, stride: 1)
                }
            }
            convertYCCToRGB(&planes)
            let samples = [UInt8](unsafeUninitializedCapacity: count * channels) { buffer, initialized in
                for (channel, plane) in planes.enumerated() {
                    plane.withUnsafeBufferPointer { source in
                        for index in 0..<count { buffer[index &* channels &+ channel] = source[index] }
                    }
                }
                initialized = count * channels
            }
            return PixelImage(width: width, height: height, layout: layout, samples: samples)
        }
        // 8-bit unsigned components on the full grid (the usual face, iris, signature): clamped
        // and interleaved in C, where the compiler does it 16 samples at once.
        let planes = used.compactMap { component in
            isPlainEightBit(component, width: width, height: height, origin: origin) ? component.data : nil
        }
        if planes.count == channels {
            let samples = [UInt8](unsafeUninitializedCapacity: count * channels) { buffer, initialized in
                planes.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
                    copenjpeg_interleave_8bit(pointers.baseAddress, Int32(channels), count, buffer.baseAddress)
                }
                initialized = count * channels
            }
            return PixelImage(width: width, height: height, layout: layout, samples: samples)
        }
        // Otherwise each component goes straight to its place among the interleaved samples.
        let samples = try bytes(count: count * channels) { buffer throws(LDSError) in
            for (channel, component) in used.enumerated() {
                try fill(
                    UnsafeMutableBufferPointer(rebasing: buffer[channel...]), from: component, width: width,
                    height: height, origin: origin, stride: channels)
            }
        }
        return PixelImage(width: width, height: height, layout: layout, samples: samples)
    }

    /// One component on the full image grid, scaled to 0…255 (nearest sample for subsampled ones),
    /// written to every `stride`-th byte of `target` (1 for a plane of its own, the channel count
    /// to interleave it).
    ///
    /// The grid-to-component mapping is worked out once per column and once per row, and the
    /// scaling is a table: per sample there is one clamp and two loads, which matters for a
    /// face of half a million pixels. A component that covers the grid sample for sample (the
    /// usual face) skips the column table.
    private static func fill(
        _ target: UnsafeMutableBufferPointer<UInt8>, from component: opj_image_comp_t, width: Int, height: Int,
        origin: (x: Int, y: Int), stride: Int
    ) throws(LDSError) {
        let componentWidth = Int(component.w)
        let componentHeight = Int(component.h)
        let stepX = max(1, Int(component.dx))
        let stepY = max(1, Int(component.dy))
        let precision = Int(component.prec)
        guard let data = component.data, componentWidth > 0, componentHeight > 0, (1...31).contains(precision) else {
            throw LDSError(.imageDecoding, "component without decoded samples")
        }
        let scale = SampleScale(precision: precision, signed: component.sgnd != 0)
        let firstX = Int(component.x0)
        let firstY = Int(component.y0)
        if stepX == 1, stepY == 1, firstX == origin.x, firstY == origin.y, componentWidth == width,
            componentHeight == height
        {
            for index in 0..<(width * height) { target[index &* stride] = scale.eightBit(data[index]) }
            return
        }
        let columns = (0..<width).map { x in min(max((origin.x + x) / stepX - firstX, 0), componentWidth - 1) }
        for y in 0..<height {
            let row = min(max((origin.y + y) / stepY - firstY, 0), componentHeight - 1)
            let source = data + row * componentWidth
            let start = y * width
            for x in 0..<width { target[(start &+ x) &* stride] = scale.eightBit(source[columns[x]]) }
        }
    }

    /// Whether `component` holds decoded 8-bit unsigned samples covering the grid sample for
    /// sample, which `SampleScale` leaves as they are apart from clamping.
    private static func isPlainEightBit(
        _ component: opj_image_comp_t, width: Int, height: Int, origin: (x: Int, y: Int)
    ) -> Bool {
        component.data != nil && component.prec == 8 && component.sgnd == 0 && component.dx == 1
            && component.dy == 1 && Int(component.x0) == origin.x && Int(component.y0) == origin.y
            && Int(component.w) == width && Int(component.h) == height
    }

    /// An array of `count` bytes that `body` writes in full.
    private static func bytes(
        count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws(LDSError) -> Void
    ) throws(LDSError) -> [UInt8] {
        var failure: LDSError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(LDSError) {
                try body(buffer)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Full-range YCbCr to RGB in place, with `opj_decompress`'s coefficients and truncation.
    private static func convertYCCToRGB(_ planes: inout [[UInt8]]) {
        for index in planes[0].indices {
            let luma = Int(planes[0][index])
            let blue = Int(planes[1][index]) - 128
            let red = Int(planes[2][index]) - 128
            func clamp(_ value: Int) -> UInt8 { UInt8(min(max(value, 0), 255)) }
            planes[0][index] = clamp(luma + Int(Float(1.402) * Float(red)))
            planes[1][index] = clamp(luma - Int(Float(0.344) * Float(blue) + Float(0.714) * Float(red)))
            planes[2][index] = clamp(luma + Int(Float(1.772) * Float(blue)))
        }
    }
}

/// A component's samples brought to 0…255: signed ones shifted up by half their range, then
/// clamped to the precision's range and scaled with rounding, as `opj_decompress` writes 8-bit
/// output. Precisions up to 16 bits go through a table built once per component.
struct SampleScale {
    private let shift: Int
    private let maximum: Int
    private let table: [UInt8]

    init(precision: Int, signed: Bool) {
        maximum = (1 << precision) - 1
        shift = signed ? 1 << (precision - 1) : 0
        let maximum = maximum
        table = precision <= 16 ? (0...maximum).map { Self.scaled($0, maximum: maximum) } : []
    }

    @inline(__always)
    func eightBit(_ sample: Int32) -> UInt8 {
        let value = min(max(Int(sample) &+ shift, 0), maximum)
        if maximum == 255 { return UInt8(truncatingIfNeeded: value) }  // 8 bits: the table is the identity
        return table.isEmpty ? Self.scaled(value, maximum: maximum) : table[value]
    }

    private static func scaled(_ value: Int, maximum: Int) -> UInt8 {
        UInt8((value * 255 + maximum / 2) / maximum)
    }
}

/// The bytes OpenJPEG's stream callbacks read from.
private final class MemorySource {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard position < bytes.count else { return -1 }  // (OPJ_SIZE_T)-1: end of stream
        let taken = min(count, bytes.count - position)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base + position, byteCount: taken) }
        }
        position += taken
        return taken
    }

    func skip(_ count: OPJ_OFF_T) -> OPJ_OFF_T {
        let target = min(max(Int(count) + position, 0), bytes.count)
        defer { position = target }
        return OPJ_OFF_T(target - position)
    }

    func seek(_ target: OPJ_OFF_T) -> Bool {
        guard target >= 0, target <= bytes.count else { return false }
        position = Int(target)
        return true
    }
}
