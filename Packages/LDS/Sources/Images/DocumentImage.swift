import Foundation
import JSON

/// How an image's bytes are encoded.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    /// JPEG 2000 in its JP2 file format (boxes around the codestream).
    case jpeg2000
    /// A bare JPEG 2000 codestream (SOC marker first), as some chips store it.
    case jpeg2000Codestream
    case png
    /// Wavelet Scalar Quantization, the FBI's fingerprint format.
    case wsq
    case unknown

    /// The file name extension `emrtd parse --images` uses.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .jpeg2000: "jp2"
        case .jpeg2000Codestream: "j2k"
        case .png: "png"
        case .wsq: "wsq"
        case .unknown: "bin"
        }
    }

    /// Whether OpenJPEG decodes it (and the image gets a PNG rendering).
    public var isJPEG2000: Bool { self == .jpeg2000 || self == .jpeg2000Codestream }

    /// The format the leading bytes announce, `.unknown` when none does.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jpeg2000
        }
        if head.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return .jpeg2000Codestream }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xA0]) { return .wsq }
        return .unknown
    }
}

/// A pixel size, the reference's `ImageSize`: 0×0 when unknown (as the JSON contract writes it).
public struct ImageSize: Sendable, Hashable, JSONRepresentable {
    public var width: UInt32
    public var height: UInt32

    public init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }

    /// 0×0: neither the image nor its biometric header says.
    public static let unknown = ImageSize(width: 0, height: 0)

    /// Whether both sides are known.
    public var isKnown: Bool { width > 0 && height > 0 }

    /// A size from header numbers, nil unless both fit in 32 bits (and, for a biometric header's
    /// declared size, which is a fallback only, are positive).
    init?(_ width: Int, _ height: Int, positive: Bool = false) {
        guard let width = UInt32(exactly: width), let height = UInt32(exactly: height),
            !positive || (width > 0 && height > 0)
        else { return nil }
        self.init(width: width, height: height)
    }

    public var json: JSONValue { ["width": .integer(Int(width)), "height": .integer(Int(height))] }
}

/// An image from a document (face, fingerprint, iris, portrait, signature, document page), kept
/// as the exact bytes the chip holds, with its format, pixel size and, for JPEG 2000 (which few
/// viewers show), a PNG rendering.
public struct DocumentImage: Sendable, Equatable {
    public let format: ImageFormat
    /// Pixel size: the image's own header, else decoded, else the biometric header's; 0×0 when
    /// none says.
    public let size: ImageSize
    /// The image file exactly as stored on the chip.
    public let bytes: Data
    /// A PNG of a JPEG 2000 image (decoded by OpenJPEG, deflated by libdeflate); nil for other formats.
    public let png: Data?
    /// Why a JPEG 2000 image has no PNG rendering.
    public let renderingFailure: String?

    /// Detects the format from the bytes (the biometric header's `declaredFormat` only when the
    /// bytes say nothing). The pixel size comes from the image's own header, else from decoding
    /// it, else from the biometric header's `declaredWidth`/`declaredHeight` (headers and images
    /// disagree on real chips: the image is what is shown). JPEG 2000 is rendered to PNG when
    /// `render` is set.
    public init(
        bytes: [UInt8], declaredFormat: ImageFormat = .unknown, declaredWidth: Int? = nil,
        declaredHeight: Int? = nil, render: Bool = true
    ) {
        self.bytes = Data(bytes)
        let detected = ImageFormat.detect(bytes)
        format = detected == .unknown ? declaredFormat : detected
        var size = ImageHeader.pixelSize(of: bytes, format: format)
        if render && format.isJPEG2000 {
            do {
                let pixels = try JPEG2000Decoder.decode(bytes)
                size = size ?? (pixels.width, pixels.height)
                png = Data(try PNGEncoder.encode(pixels))
                renderingFailure = nil
            } catch {
                png = nil
                renderingFailure = error.reason
            }
        } else {
            png = nil
            renderingFailure = nil
        }
        let declared = declaredWidth.flatMap { width in declaredHeight.flatMap { ImageSize(width, $0, positive: true) }
        }
        self.size = size.flatMap { ImageSize($0.width, $0.height) } ?? declared ?? .unknown
    }

    /// A note for the file's warnings when a JPEG 2000 image could not be rendered, naming it
    /// (`name`: which image of the file it is) by its size and length.
    func warnings(name: String) -> [String] {
        renderingFailure.map { reason in
            [
                "\(name) (JPEG 2000, \(size.width)×\(size.height), \(bytes.count) bytes) not rendered to PNG, "
                    + "its bytes kept: \(reason)"
            ]
        } ?? []
    }
}

extension ImageFormat: JSONRepresentable {
    /// The reference model's `ImageFormat`: a bare codestream is JPEG 2000 too.
    public var json: JSONValue {
        .string(self == .jpeg2000Codestream ? ImageFormat.jpeg2000.rawValue : rawValue)
    }
}

extension DocumentImage: JSONRepresentable {
    /// The reference's `DocumentImage`: `size` is 0×0 when unknown; the bytes once as stored, the
    /// PNG rendering only for JPEG 2000.
    public var json: JSONValue {
        [
            "format": format.json,
            "size": size.json,
            "bytes": .bytes([UInt8](bytes)),
            "png": .optional(png.map { [UInt8]($0) }),
        ]
    }
}

/// Reads the pixel size from an image's own header without decoding it.
enum ImageHeader {
    static func pixelSize(of bytes: [UInt8], format: ImageFormat) -> (width: Int, height: Int)? {
        var reader = ByteReader(bytes)
        switch format {
        case .jpeg: return jpegSize(&reader)
        case .jpeg2000: return jp2Size(&reader)
        case .jpeg2000Codestream: return codestreamSize(&reader)
        case .png:
            guard reader.skip(16), let width = reader.uint(4), let height = reader.uint(4) else { return nil }
            return (width, height)
        case .wsq: return wsqSize(&reader)
        case .unknown: return nil
        }
    }

    /// The first start-of-frame segment (SOF0–SOF15 except DHT, JPG and DAC).
    private static func jpegSize(_ reader: inout ByteReader) -> (width: Int, height: Int)? {
        guard reader.skip(2) else { return nil }
        while let marker = reader.uint(2), marker >> 8 == 0xFF {
            let code = marker & 0xFF
            if code == 0xD8 || (0xD0...0xD7).contains(code) || code == 0x01 || code == 0xFF { continue }
            guard let length = reader.uint(2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(code) && ![0xC4, 0xC8, 0xCC].contains(code) {
                guard reader.skip(1), let height = reader.uint(2), let width = reader.uint(2) else { return nil }
                return (width, height)
            }
            guard reader.skip(length - 2) else { return nil }
        }
        return nil
    }

    /// The `ihdr` box inside the `jp2h` superbox; falls back to the codestream's SIZ marker.
    private static func jp2Size(_ reader: inout ByteReader) -> (width: Int, height: Int)? {
        while let length = reader.uint(4), let type = reader.uint(4) {
            var contentLength = length - 8
            if length == 1 {
                guard let extended = reader.uint(8) else { return nil }
                contentLength = extended - 16
            } else if length == 0 {
                contentLength = reader.remaining
            }
            switch type {
            case 0x6A70_3268:  // "jp2h": descend into the superbox
                continue
            case 0x6968_6472:  // "ihdr"
                guard let height = reader.uint(4), let width = reader.uint(4) else { return nil }
                return (width, height)
            case 0x6A70_3263:  // "jp2c"
                return codestreamSize(&reader)
            default:
                guard contentLength >= 0, reader.skip(contentLength) else { return nil }
            }
        }
        return nil
    }

    /// SIZ follows SOC: Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz.
    private static func codestreamSize(_ reader: inout ByteReader) -> (width: Int, height: Int)? {
        guard reader.uint(2) == 0xFF4F, reader.uint(2) == 0xFF51, reader.skip(4),
            let xSize = reader.uint(4), let ySize = reader.uint(4),
            let xOffset = reader.uint(4), let yOffset = reader.uint(4),
            xSize > xOffset, ySize > yOffset
        else { return nil }
        return (xSize - xOffset, ySize - yOffset)
    }

    /// WSQ's start-of-frame (FFA2): length, black, white, height, width.
    private static func wsqSize(_ reader: inout ByteReader) -> (width: Int, height: Int)? {
        guard reader.skip(2) else { return nil }
        while let marker = reader.uint(2), marker >> 8 == 0xFF {
            guard let length = reader.uint(2), length >= 2 else { return nil }
            if marker == 0xFFA2 {
                guard reader.skip(2), let height = reader.uint(2), let width = reader.uint(2) else { return nil }
                return (width, height)
            }
            guard reader.skip(length - 2) else { return nil }
        }
        return nil
    }
}
