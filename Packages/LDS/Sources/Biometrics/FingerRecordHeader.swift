import JSON

/// The general record header of an ISO/IEC 19794-4:2005 finger image record (§7.1, 32 bytes):
/// what every finger image of the record shares.
///
/// ```
/// "FIR\0" (4) | version "010\0" (4) | record length (6) | capture device ID (2)
/// | image acquisition level (2) | number of fingers (1) | scale units (1: 1 ppi, 2 ppcm)
/// | scan resolution horizontal (2), vertical (2) | image resolution horizontal (2), vertical (2)
/// | pixel depth (1, bits) | compression algorithm (1) | reserved (2)
/// ```
public struct FingerRecordHeader: Sendable, Equatable, JSONRepresentable {
    /// The whole record's length as declared (checked against the data block: a warning when off).
    public let recordLength: Int
    /// Vendor-assigned; 0 when unreported.
    public let captureDeviceID: Int
    /// The setting level of Table 1 (10, 20, 30, 31, 40, 41).
    public let imageAcquisitionLevel: Int
    /// How many finger image records follow.
    public let fingerCount: Int
    /// 1 pixels per inch, 2 pixels per centimetre.
    public let scaleUnits: Int
    public let scanHorizontalResolution: Int
    public let scanVerticalResolution: Int
    public let imageHorizontalResolution: Int
    public let imageVerticalResolution: Int
    /// Bits per pixel (1–16).
    public let pixelDepth: Int
    /// The raw code; `compression` names it.
    public let compressionCode: Int

    /// The compression algorithm, nil for a code the standard does not define.
    public var compression: FingerImageCompression? { FingerImageCompression(rawValue: compressionCode) }

    public var json: JSONValue {
        [
            "recordLength": .integer(recordLength), "captureDeviceID": .integer(captureDeviceID),
            "imageAcquisitionLevel": .integer(imageAcquisitionLevel), "fingerCount": .integer(fingerCount),
            "scaleUnits": .integer(scaleUnits),
            "scanResolution": [
                "horizontal": .integer(scanHorizontalResolution), "vertical": .integer(scanVerticalResolution),
            ],
            "imageResolution": [
                "horizontal": .integer(imageHorizontalResolution), "vertical": .integer(imageVerticalResolution),
            ],
            "pixelDepth": .integer(pixelDepth), "compressionCode": .integer(compressionCode),
            "compression": .optional(compression?.name),
        ]
    }
}
