/// The compression algorithm of an ISO/IEC 19794-4:2005 finger image record (general record
/// header, byte 26): one for every image of the record. WSQ stays WSQ (no Debian library decodes
/// it); JPEG 2000 is rendered to PNG like a face.
public enum FingerImageCompression: Int, Sendable, CaseIterable {
    case uncompressed = 0
    case uncompressedBitPacked = 1
    case wsq = 2
    case jpeg = 3
    case jpeg2000 = 4
    case png = 5

    /// The image format the code announces, for images whose bytes do not say (raw pixels are
    /// `.unknown`: kept as bytes).
    var imageFormat: ImageFormat {
        switch self {
        case .wsq: .wsq
        case .jpeg: .jpeg
        case .jpeg2000: .jpeg2000
        case .png: .png
        case .uncompressed, .uncompressedBitPacked: .unknown
        }
    }

    /// The case's name, as JSON shows it.
    public var name: String { String(describing: self) }
}
