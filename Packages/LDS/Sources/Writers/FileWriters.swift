import ASN1

// Writers for specimen files: the chip simulator builds its documents with these, and the tests
// round-trip them through the parsers. DG11 and DG12 are written by their models' `encoded()`.

extension CommonFile {
    /// EF.COM listing `dataGroups` (DER).
    public static func encoded(
        ldsVersion: String = "0108", unicodeVersion: String = "040000", dataGroups: [LDSFileKind]
    ) -> [UInt8] {
        DER.constructed(
            ASN1Tag(0x60),
            [
                DER.tlv(ASN1Tag(0x5F01), Array(ldsVersion.utf8)),
                DER.tlv(ASN1Tag(0x5F36), Array(unicodeVersion.utf8)),
                DER.tlv(ASN1Tag(0x5C), dataGroups.filter { $0.dataGroupNumber != nil }.map(\.outerTag)),
            ])
    }
}

extension MRZDataGroup {
    /// DG1 holding the zone's lines, concatenated as ICAO 9303-10 stores them.
    public static func encoded(mrzLines: [String]) -> [UInt8] {
        DER.constructed(ASN1Tag(0x61), [DER.tlv(ASN1Tag(0x5F1F), Array(mrzLines.joined().utf8))])
    }
}

extension EncodedIdentificationFeaturesFace {
    /// DG2 with one face: the image (JPEG or JPEG 2000) wrapped in an ISO/IEC 19794-5:2005 record
    /// (full frontal, 24-bit RGB, digital still, no feature points) inside the ISO/IEC 7816-11
    /// templates, with header format owner 0101 and format type 0008.
    public static func encodedFace(image: [UInt8], width: Int, height: Int) -> [UInt8] {
        let imageDataType: UInt8 = ImageFormat.detect(image).isJPEG2000 ? 1 : 0
        let facialRecordLength = 20 + 12 + image.count
        var record: [UInt8] = Array("FAC\0010\0".utf8)
        record += bigEndian(14 + facialRecordLength, count: 4) + bigEndian(1, count: 2)
        record += bigEndian(facialRecordLength, count: 4) + bigEndian(0, count: 2)  // no feature points
        record += [0, 0, 0] + [0, 0, 0] + [0, 0] + [0, 0, 0] + [0, 0, 0]  // gender…pose uncertainty
        record += [1, imageDataType] + bigEndian(width, count: 2) + bigEndian(height, count: 2)
        record += [1, 2] + [0, 0] + [0, 0]  // colour space, source type, device type, quality
        record += image
        let header = DER.constructed(
            ASN1Tag(0xA1),
            [
                DER.tlv(ASN1Tag(0x81), [0x02]), DER.tlv(ASN1Tag(0x82), [0x00]),
                DER.tlv(ASN1Tag(0x87), [0x01, 0x01]), DER.tlv(ASN1Tag(0x88), [0x00, 0x08]),
            ])
        let template = DER.constructed(ASN1Tag(0x7F60), [header, DER.tlv(ASN1Tag(0x5F2E), record)])
        return DER.constructed(ASN1Tag(0x75), [DER.constructed(ASN1Tag(0x7F61), [DER.integer(1), template])])
    }
}

/// `value` as `count` big-endian bytes (truncated to them).
func bigEndian(_ value: Int, count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
