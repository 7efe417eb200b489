import ASN1
import JSON

/// The general header of an ISO/IEC 19794-6:2005 iris image record (§6.5, 45 bytes as ICAO 9303-10
/// profiles it): what every iris image of the record shares.
///
/// ```
/// "IIR\0" (4) | version "010\0" (4) | record length (4) | capture device ID (2)
/// | number of biometric subtypes (1) | record header length (2) | image property bits (2)
/// | iris diameter (2) | image format (2) | raw image width (2), height (2)
/// | intensity depth (1) | image transformation (1) | device unique identifier (16)
/// [| global unique identifier (16), when the header length says 61]
/// ```
///
/// Image property bits: horizontal orientation (bits 0–1: 0 undefined, 1 base, 2 flipped),
/// vertical orientation (2–3), scan type (4–6: 0 undefined, 1 progressive, 2 interlace frame,
/// 3 interlace field, 4 corrected), iris occlusions (7), occlusion filling (8), boundary
/// extraction (9).
public struct IrisRecordHeader: Sendable, Equatable, JSONRepresentable {
    /// The whole record's length as declared (a warning when it differs from the data block).
    public let recordLength: Int
    public let captureDeviceID: Int
    /// How many biometric subtypes (eyes) follow.
    public let subtypeCount: Int
    /// The declared header length (45, or 61 with a global unique identifier).
    public let headerLength: Int
    /// The image property bit field as recorded; the properties below read it.
    public let imagePropertyBits: Int
    /// Expected iris diameter in pixels (rectilinear images).
    public let irisDiameter: Int
    /// The raw code; `imageFormat` names it.
    public let imageFormatCode: Int
    public let rawWidth: Int
    public let rawHeight: Int
    /// Bits per colour.
    public let intensityDepth: Int
    /// 0 undefined, 1 standard (polar transformation).
    public let imageTransformation: Int
    /// 16 bytes: a device serial number ("D…"), a MAC address ("M…"), a processor ID ("P…") or zeros.
    public let deviceUniqueID: [UInt8]
    /// 16 bytes after the device identifier when the header is that long, else nil.
    public let globalUniqueID: [UInt8]?

    public var horizontalOrientation: Int { imagePropertyBits & 0x3 }
    public var verticalOrientation: Int { imagePropertyBits >> 2 & 0x3 }
    public var scanType: Int { imagePropertyBits >> 4 & 0x7 }
    public var irisOcclusions: Int { imagePropertyBits >> 7 & 0x1 }
    public var occlusionFilling: Int { imagePropertyBits >> 8 & 0x1 }
    public var boundaryExtraction: Int { imagePropertyBits >> 9 & 0x1 }

    /// The image format, nil for a code the standard does not define.
    public var imageFormat: IrisImageFormat? { IrisImageFormat(rawValue: imageFormatCode) }

    public var json: JSONValue {
        [
            "recordLength": .integer(recordLength), "captureDeviceID": .integer(captureDeviceID),
            "subtypeCount": .integer(subtypeCount), "headerLength": .integer(headerLength),
            "imagePropertyBits": .integer(imagePropertyBits), "horizontalOrientation": .integer(horizontalOrientation),
            "verticalOrientation": .integer(verticalOrientation), "scanType": .integer(scanType),
            "irisOcclusions": .integer(irisOcclusions), "occlusionFilling": .integer(occlusionFilling),
            "boundaryExtraction": .integer(boundaryExtraction), "irisDiameter": .integer(irisDiameter),
            "imageFormatCode": .integer(imageFormatCode), "imageFormat": .optional(imageFormat?.name),
            "rawWidth": .integer(rawWidth), "rawHeight": .integer(rawHeight),
            "intensityDepth": .integer(intensityDepth), "imageTransformation": .integer(imageTransformation),
            "deviceUniqueID": .string(Hex.encode(deviceUniqueID)),
            "globalUniqueID": .optional(globalUniqueID.map { Hex.encode($0) }),
        ]
    }
}
