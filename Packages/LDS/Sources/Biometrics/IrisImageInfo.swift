import JSON

/// What an iris image record says about one iris image: an ISO/IEC 19794-6:2005 image header
/// under its biometric subtype header (§6.6, §6.7), or an ISO/IEC 39794-6 representation block.
/// The image itself is the `BiometricImage`'s, kept as stored.
///
/// ```
/// 19794-6: subtype header: feature identifier (1: 0 undefined, 1 right eye, 2 left eye)
///     | number of images (2); per image: image sequence number (2) | quality (1)
///     | rotation angle (2) | rotation uncertainty (2) | image length (4) | image data
/// 39794-6: RepresentationBlock ::= SEQUENCE { eyeLabelCode [0], irisImageKind [1],
///     bitDepth [2], imageDataFormat [3], horizontalOrientationCode [4],
///     verticalOrientationCode [5], compressionHistoryCode [6], captureDateTimeBlock [7],
///     irisImageData [8] OCTET STRING, range [9] OPTIONAL, captureDeviceBlock [10] OPTIONAL,
///     qualityBlocks [11] OPTIONAL, rollAngleBlock [12] OPTIONAL, … }
/// ```
///
/// Of 39794-6 the eye, image kind, bit depth, data format, capture date, first quality score and
/// roll angle are read; orientation, compression history, range, capture device, localisation
/// and presentation-attack data are not modelled.
public struct IrisImageInfo: Sendable, Equatable, JSONRepresentable {
    /// The feature identifier (19794-6) or eye label (39794-6); `eye` names it.
    public let eyeCode: Int
    /// Quality as recorded (19794-6's byte; 39794-6's first quality score), nil when absent.
    public let quality: Int?
    /// 19794-6: the image's sequence number within its subtype.
    public let sequenceNumber: Int?
    /// Rotation angle and its uncertainty as recorded (19794-6: 0xFFFF undefined; 39794-6: the
    /// roll angle block).
    public let rotationAngle: Int?
    public let rotationUncertainty: Int?
    /// 19794-6: the image length the header declares.
    public let declaredLength: Int?
    /// 19794-6: the general header the image shares with the record's other irises.
    public let recordHeader: IrisRecordHeader?
    /// 39794-6: irisImageKind (1 uncropped, 2 VGA, 3 cropped, 7 cropped and masked).
    public let imageKind: Int?
    /// 39794-6: bits per pixel (8–24).
    public let bitDepth: Int?
    /// 39794-6: imageDataFormat (0 PGM, 1 PPM, 2 PNG, 3 JPEG 2000 lossless, 4 JPEG 2000 lossy).
    public let dataFormatCode: Int?
    /// 39794-6: when the image was captured.
    public let captureDateTime: BiometricCaptureDateTime?

    init(
        eyeCode: Int, quality: Int?, sequenceNumber: Int? = nil, rotationAngle: Int? = nil,
        rotationUncertainty: Int? = nil, declaredLength: Int? = nil, recordHeader: IrisRecordHeader? = nil,
        imageKind: Int? = nil, bitDepth: Int? = nil, dataFormatCode: Int? = nil,
        captureDateTime: BiometricCaptureDateTime? = nil
    ) {
        self.eyeCode = eyeCode
        self.quality = quality
        self.sequenceNumber = sequenceNumber
        self.rotationAngle = rotationAngle
        self.rotationUncertainty = rotationUncertainty
        self.declaredLength = declaredLength
        self.recordHeader = recordHeader
        self.imageKind = imageKind
        self.bitDepth = bitDepth
        self.dataFormatCode = dataFormatCode
        self.captureDateTime = captureDateTime
    }

    /// The named eye, nil for a code the standards do not define.
    public var eye: IrisEye? { IrisEye(rawValue: eyeCode) }

    public var json: JSONValue {
        [
            "eyeCode": .integer(eyeCode), "eye": .optional(eye?.name), "quality": .optional(quality),
            "sequenceNumber": .optional(sequenceNumber), "rotationAngle": .optional(rotationAngle),
            "rotationUncertainty": .optional(rotationUncertainty), "declaredLength": .optional(declaredLength),
            "recordHeader": .optional(recordHeader), "imageKind": .optional(imageKind),
            "bitDepth": .optional(bitDepth), "dataFormatCode": .optional(dataFormatCode),
            "captureDateTime": .optional(captureDateTime),
        ]
    }
}
