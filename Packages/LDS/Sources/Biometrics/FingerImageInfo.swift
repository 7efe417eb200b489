import JSON

/// What a finger image record says about one finger image: an ISO/IEC 19794-4:2005 finger image
/// record (§7.2) or an ISO/IEC 39794-4 representation block. The image itself is the
/// `BiometricImage`'s, kept as stored (WSQ stays WSQ).
///
/// ```
/// 19794-4: finger image record length (4) | finger position (1) | count of views (1)
///     | view number (1) | finger image quality (1) | impression type (1)
///     | horizontal line length (2) | vertical line length (2) | reserved (1) | image data
/// 39794-4: RepresentationBlock ::= SEQUENCE { position [0], impression [1],
///     imageDataFormat [2], imageData [3] OCTET STRING, captureDateTimeBlock [4] OPTIONAL,
///     captureDeviceBlock [5] OPTIONAL, qualityBlocks [6] OPTIONAL, … }
/// ```
///
/// Of 39794-4 only the position, impression, data format, capture date and the first quality
/// score are read; capture device, sampling rates, rotation, segmentation, annotations,
/// presentation-attack data, comments and vendor blocks are not modelled.
public struct FingerImageInfo: Sendable, Equatable, JSONRepresentable {
    /// The finger position code as recorded; `position` names it.
    public let positionCode: Int
    /// Impression type as recorded: in 19794-4 0 live-scan plain, 1 live-scan rolled,
    /// 2 non-live-scan plain, 3 non-live-scan rolled, 8 swipe; in 39794-4 0 plain contact,
    /// 1 rolled contact, 4 latent, 8 swipe, 24/25/41/42 contactless, 28 other, 29 unknown.
    public let impressionCode: Int
    /// Quality 0–100 (19794-4's byte; 39794-4's first quality score), nil when absent.
    public let quality: Int?
    /// 19794-4: how many views of this finger the record holds, and which one this is.
    public let viewCount: Int?
    public let viewNumber: Int?
    /// 19794-4: the horizontal and vertical line lengths (pixels) the record declares.
    public let width: Int?
    public let height: Int?
    /// 19794-4: the finger image record's declared length (header and image).
    public let declaredLength: Int?
    /// 19794-4: the general record header the image shares with the record's other fingers.
    public let recordHeader: FingerRecordHeader?
    /// 39794-4: imageDataFormat (0 PGM, 1 WSQ, 2 JPEG 2000 lossy, 3 JPEG 2000 lossless, 4 PNG).
    public let dataFormatCode: Int?
    /// 39794-4: when the image was captured.
    public let captureDateTime: BiometricCaptureDateTime?

    init(
        positionCode: Int, impressionCode: Int, quality: Int?, viewCount: Int? = nil, viewNumber: Int? = nil,
        width: Int? = nil, height: Int? = nil, declaredLength: Int? = nil, recordHeader: FingerRecordHeader? = nil,
        dataFormatCode: Int? = nil, captureDateTime: BiometricCaptureDateTime? = nil
    ) {
        self.positionCode = positionCode
        self.impressionCode = impressionCode
        self.quality = quality
        self.viewCount = viewCount
        self.viewNumber = viewNumber
        self.width = width
        self.height = height
        self.declaredLength = declaredLength
        self.recordHeader = recordHeader
        self.dataFormatCode = dataFormatCode
        self.captureDateTime = captureDateTime
    }

    /// The named finger position, nil for a palm or a code outside the standard's finger table.
    public var position: FingerPosition? { FingerPosition(rawValue: positionCode) }

    public var json: JSONValue {
        [
            "positionCode": .integer(positionCode), "position": .optional(position?.name),
            "impressionCode": .integer(impressionCode), "quality": .optional(quality),
            "viewCount": .optional(viewCount), "viewNumber": .optional(viewNumber), "width": .optional(width),
            "height": .optional(height), "declaredLength": .optional(declaredLength),
            "recordHeader": .optional(recordHeader), "dataFormatCode": .optional(dataFormatCode),
            "captureDateTime": .optional(captureDateTime),
        ]
    }
}
