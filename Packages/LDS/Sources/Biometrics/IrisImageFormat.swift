/// The image format of an ISO/IEC 19794-6:2005 iris image record (general header, bytes 21–22):
/// monochrome or RGB, raw, JPEG, JPEG-LS or JPEG 2000. Raw and JPEG-LS images are kept as bytes.
public enum IrisImageFormat: Int, Sendable, CaseIterable {
    case monochromeRaw = 0x02
    case rgbRaw = 0x04
    case monochromeJPEG = 0x06
    case rgbJPEG = 0x08
    case monochromeJPEGLS = 0x0A
    case rgbJPEGLS = 0x0C
    case monochromeJPEG2000 = 0x0E
    case rgbJPEG2000 = 0x10

    /// The image format the code announces, for images whose bytes do not say.
    var imageFormat: ImageFormat {
        switch self {
        case .monochromeJPEG, .rgbJPEG: .jpeg
        case .monochromeJPEG2000, .rgbJPEG2000: .jpeg2000
        case .monochromeRaw, .rgbRaw, .monochromeJPEGLS, .rgbJPEGLS: .unknown
        }
    }

    /// The case's name, as JSON shows it.
    public var name: String { String(describing: self) }
}
