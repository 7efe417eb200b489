import ASN1

extension EncodedIdentificationFeatures {
    /// DG3 with one finger: the image wrapped in an ISO/IEC 19794-4:2005 record (500 ppi, 8-bit
    /// grey, plain live-scan impression, one view) inside the ISO/IEC 7816-11 templates, format
    /// owner 0101 and type 0007. `position` is the record's finger position (1 right thumb … 10
    /// left little finger); the compression code is the image's (2 WSQ, 3 JPEG, 4 JPEG 2000, 5 PNG).
    public static func encodedFinger(image: [UInt8], width: Int, height: Int, position: Int, quality: Int = 80)
        -> [UInt8]
    {
        let compression: UInt8 =
            switch ImageFormat.detect(image) {
            case .jpeg: 3
            case .png: 5
            case let format where format.isJPEG2000: 4
            default: 2
            }
        let view = 14 + image.count
        var record: [UInt8] = Array("FIR\0010\0".utf8) + bigEndian(32 + view, count: 6)
        record += [0, 0] + bigEndian(31, count: 2) + [1, 1]  // device, acquisition level 31, one finger, ppi
        record += bigEndian(500, count: 2) + bigEndian(500, count: 2) + bigEndian(500, count: 2)
        record += bigEndian(500, count: 2) + [8, compression, 0, 0]
        record += bigEndian(view, count: 4) + [UInt8(truncatingIfNeeded: position), 1, 1]
        record += [UInt8(truncatingIfNeeded: quality), 0] + bigEndian(width, count: 2) + bigEndian(height, count: 2)
        record += [0] + image
        return dataGroup(tag: 0x63, type: 0x08, subtype: UInt8(truncatingIfNeeded: position), format: 0x07, record)
    }

    /// DG4 with one iris: the image wrapped in an ISO/IEC 19794-6:2005 rectilinear record (8-bit
    /// grey, format 06 JPEG or 0E JPEG 2000) inside the templates, format owner 0101 and type 0009.
    /// `eye` is the feature identifier: 1 right, 2 left.
    public static func encodedIris(image: [UInt8], width: Int, height: Int, eye: Int, quality: Int = 80) -> [UInt8] {
        let format: UInt8 = ImageFormat.detect(image).isJPEG2000 ? 0x0E : 0x06
        let imageBlock = 11 + image.count
        var record: [UInt8] = Array("IIR\0010\0".utf8) + bigEndian(45 + 3 + imageBlock, count: 4)
        record += [0, 0, 1] + bigEndian(45, count: 2) + [0, 0] + bigEndian(0, count: 2)
        record += [0, format] + bigEndian(width, count: 2) + bigEndian(height, count: 2) + [8, 0]
        record += [UInt8](repeating: 0, count: 16)  // device unique identifier
        record += [UInt8(truncatingIfNeeded: eye)] + bigEndian(1, count: 2)
        record += bigEndian(1, count: 2) + [UInt8(truncatingIfNeeded: quality)] + [0xFF, 0xFF, 0xFF, 0xFF]
        record += bigEndian(image.count, count: 4) + image
        let subtype: UInt8 = eye == 2 ? 0x02 : 0x01
        return dataGroup(tag: 0x76, type: 0x10, subtype: subtype, format: 0x09, record)
    }

    /// The 7816-11 group (7F61, one instance) of one record (7F60), in the data group's tag.
    private static func dataGroup(tag: UInt64, type: UInt8, subtype: UInt8, format: UInt8, _ record: [UInt8])
        -> [UInt8]
    {
        let header = DER.constructed(
            ASN1Tag(0xA1),
            [
                DER.tlv(ASN1Tag(0x81), [type]), DER.tlv(ASN1Tag(0x82), [subtype]),
                DER.tlv(ASN1Tag(0x87), [0x01, 0x01]), DER.tlv(ASN1Tag(0x88), [0x00, format]),
            ])
        let cbeffRecord = DER.constructed(ASN1Tag(0x7F60), [header, DER.tlv(ASN1Tag(0x5F2E), record)])
        return DER.constructed(ASN1Tag(tag), [DER.constructed(ASN1Tag(0x7F61), [DER.integer(1), cbeffRecord])])
    }
}
