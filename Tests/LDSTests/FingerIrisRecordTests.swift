import ASN1
import Foundation
import Testing

@testable import LDS

/// DG3 and DG4: finger (ISO/IEC 19794-4, 39794-4) and iris (19794-6, 39794-6) records read into
/// `FingerImageInfo` and `IrisImageInfo`, every field back from the bytes the standard lays out;
/// lengths that lie are warnings, never crashes.
struct FingerIrisRecordTests {
    /// A WSQ file's start (SOI, then a comment) and a JPEG with a frame header: the formats the
    /// writers pick codes for.
    static let wsq: [UInt8] = [0xFF, 0xA0, 0xFF, 0xA8, 0x00, 0x04, 0x41, 0x42, 0xFF, 0xA1]
    static let jpeg: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x20, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9,
    ]

    @Test func fingerWrittenBySimulatorWriterReadsBack() throws {
        let group = try EncodedIdentificationFeatures(
            EncodedIdentificationFeatures.encodedFinger(
                image: Self.wsq, width: 416, height: 480, position: 7, quality: 61),
            kind: .dg3)
        #expect(group.warnings.isEmpty, "\(group.warnings)")
        let record = try #require(group.records.first)
        #expect(record.header.biometricType == 8 && record.header.biometricSubtype == 7)
        #expect(record.dataBlock.standard == .iso19794Finger && record.dataBlock.version == "010")
        let image = try #require(record.dataBlock.images.first)
        #expect(image.image.bytes == Data(Self.wsq) && image.image.format == .wsq)
        #expect(image.position == 7 && image.quality == 61 && image.face == nil && image.iris == nil)
        let finger = try #require(image.finger)
        #expect(finger.position == .leftIndexFinger && finger.positionCode == 7)
        #expect(finger.viewCount == 1 && finger.viewNumber == 1 && finger.quality == 61)
        #expect(finger.impressionCode == 0 && finger.width == 416 && finger.height == 480)
        #expect(finger.declaredLength == 14 + Self.wsq.count && finger.captureDateTime == nil)
        let header = try #require(finger.recordHeader)
        #expect(header.recordLength == record.data.count)
        #expect(header.captureDeviceID == 0 && header.imageAcquisitionLevel == 31 && header.fingerCount == 1)
        #expect(header.scaleUnits == 1 && header.pixelDepth == 8 && header.compression == .wsq)
        #expect(header.scanHorizontalResolution == 500 && header.scanVerticalResolution == 500)
        #expect(header.imageHorizontalResolution == 500 && header.imageVerticalResolution == 500)
        let details = record.json["imageDetails"]
        guard case .array(let entries) = details else {
            Issue.record("imageDetails is not a list: \(String(describing: details))")
            return
        }
        #expect(entries.first?["finger"]?["position"] == "leftIndexFinger")
        #expect(entries.first?["finger"]?["recordHeader"]?["compression"] == "wsq")
        #expect(entries.first?["iris"] == .null && entries.first?["finger"]?["width"] == 416)
    }

    @Test func irisWrittenBySimulatorWriterReadsBack() throws {
        let group = try EncodedIdentificationFeatures(
            EncodedIdentificationFeatures.encodedIris(image: Self.jpeg, width: 640, height: 480, eye: 2, quality: 72),
            kind: .dg4)
        #expect(group.warnings.isEmpty, "\(group.warnings)")
        let record = try #require(group.records.first)
        #expect(record.dataBlock.standard == .iso19794Iris)
        let image = try #require(record.dataBlock.images.first)
        #expect(image.image.bytes == Data(Self.jpeg) && image.image.format == .jpeg)
        #expect(image.position == 2 && image.quality == 72 && image.finger == nil)
        let iris = try #require(image.iris)
        #expect(iris.eye == .left && iris.sequenceNumber == 1 && iris.quality == 72)
        #expect(iris.rotationAngle == 0xFFFF && iris.rotationUncertainty == 0xFFFF)
        #expect(iris.declaredLength == Self.jpeg.count && iris.imageKind == nil)
        let header = try #require(iris.recordHeader)
        #expect(header.recordLength == record.data.count && header.headerLength == 45)
        #expect(header.subtypeCount == 1 && header.imageFormat == .monochromeJPEG)
        #expect(header.rawWidth == 640 && header.rawHeight == 480 && header.intensityDepth == 8)
        #expect(header.deviceUniqueID == [UInt8](repeating: 0, count: 16) && header.globalUniqueID == nil)
        #expect(record.json["imageDetails"] != nil)
    }

    /// Two fingers with every field distinct, laid out as 19794-4:2005 §7 says.
    @Test func handBuiltFingerRecordReadsEveryField() throws {
        let first: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 1, 2, 3]
        let second: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 4, 5]
        var record = Array("FIR\0".utf8) + Array("010\0".utf8)
        let length = 32 + (14 + first.count) + (14 + second.count)
        record += [0, 0, 0, 0, 0, UInt8(length)] + [0x12, 0x34] + [0, 41] + [2, 2]
        record += [0, 197, 0, 198, 0, 199, 0, 200] + [8, 4, 0, 0]
        record += [0, 0, 0, UInt8(14 + first.count), 13, 2, 1, 55, 1, 0x01, 0x90, 0x01, 0xF4, 0] + first
        record += [0, 0, 0, UInt8(14 + second.count), 46, 2, 2, 66, 8, 0x02, 0x00, 0x02, 0x58, 0] + second
        let parsed = BiometricDataBlock(record, renderImages: false)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let fingers = parsed.images.compactMap(\.finger)
        #expect(parsed.images.map(\.image.bytes) == [Data(first), Data(second)])
        #expect(parsed.images.map(\.image.format) == [.jpeg2000Codestream, .jpeg2000Codestream])
        #expect(fingers.map(\.position) == [.plainRightFourFingers, .rightIndexAndLeftIndex])
        #expect(fingers.map(\.viewCount) == [2, 2] && fingers.map(\.viewNumber) == [1, 2])
        #expect(fingers.map(\.quality) == [55, 66] && fingers.map(\.impressionCode) == [1, 8])
        #expect(fingers.map(\.width) == [400, 512] && fingers.map(\.height) == [500, 600])
        let header = try #require(fingers.first?.recordHeader)
        #expect(fingers.last?.recordHeader == header)
        #expect(header.recordLength == length && header.captureDeviceID == 0x1234)
        #expect(header.imageAcquisitionLevel == 41 && header.fingerCount == 2 && header.scaleUnits == 2)
        #expect(header.scanHorizontalResolution == 197 && header.scanVerticalResolution == 198)
        #expect(header.imageHorizontalResolution == 199 && header.imageVerticalResolution == 200)
        #expect(header.pixelDepth == 8 && header.compression == .jpeg2000)
    }

    /// Two eyes (the right one twice), a 61-byte header with a global unique identifier and every
    /// image property bit set apart, laid out as 19794-6:2005 §6 says.
    @Test func handBuiltIrisRecordReadsEveryField() throws {
        let images: [[UInt8]] = [[0xFF, 0xD8, 0xFF, 1], [0xFF, 0xD8, 0xFF, 2, 2], [0xFF, 0xD8, 0xFF, 3, 3, 3]]
        let deviceID = Array("D0123456789ABCDE".utf8)
        let globalID = [UInt8](0x10..<0x20)
        var body: [UInt8] = [1, 0, 2]  // right eye, two images
        body += [0, 1, 90, 0x01, 0x2C, 0x00, 0x05, 0, 0, 0, UInt8(images[0].count)] + images[0]
        body += [0, 2, 91, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, UInt8(images[1].count)] + images[1]
        body += [2, 0, 1]  // left eye, one image
        body += [0, 1, 92, 0x00, 0x10, 0x00, 0x02, 0, 0, 0, UInt8(images[2].count)] + images[2]
        var record = Array("IIR\0".utf8) + Array("010\0".utf8) + [0, 0, 0, UInt8(61 + body.count)]
        record += [0xAB, 0xCD, 2, 0, 61, 0x03, 0x96, 0, 150, 0, 0x08, 0x02, 0x80, 0x01, 0xE0, 24, 1]
        record += deviceID + globalID + body
        let parsed = BiometricDataBlock(record, renderImages: false)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        #expect(parsed.images.map(\.image.bytes) == images.map { Data($0) })
        let irises = parsed.images.compactMap(\.iris)
        #expect(irises.map(\.eye) == [.right, .right, .left] && irises.map(\.sequenceNumber) == [1, 2, 1])
        #expect(irises.map(\.quality) == [90, 91, 92] && irises.map(\.declaredLength) == [4, 5, 6])
        #expect(irises.map(\.rotationAngle) == [300, 0xFFFF, 16])
        #expect(irises.map(\.rotationUncertainty) == [5, 0xFFFF, 2])
        let header = try #require(irises.first?.recordHeader)
        #expect(header.recordLength == record.count && header.captureDeviceID == 0xABCD)
        #expect(header.subtypeCount == 2 && header.headerLength == 61 && header.irisDiameter == 150)
        #expect(header.imageFormat == .rgbJPEG && header.rawWidth == 640 && header.rawHeight == 480)
        #expect(header.intensityDepth == 24 && header.imageTransformation == 1)
        #expect(header.deviceUniqueID == deviceID && header.globalUniqueID == globalID)
        // 0x0396: horizontal 2 (flipped), vertical 1, scan type 1, occlusions, filling, boundary set.
        #expect(header.horizontalOrientation == 2 && header.verticalOrientation == 1 && header.scanType == 1)
        #expect(header.irisOcclusions == 1 && header.occlusionFilling == 1 && header.boundaryExtraction == 1)
    }

    @Test func lyingAndTruncatedFingerRecordsAreWarnings() throws {
        let block = try #require(
            EncodedIdentificationFeatures(
                EncodedIdentificationFeatures.encodedFinger(image: Self.wsq, width: 8, height: 8, position: 1),
                kind: .dg3
            ).records.first.map { [UInt8]($0.data) })
        #expect(BiometricDataBlock(block).warnings.isEmpty)
        // The view claims more image than the record holds.
        var long = block
        long[32 + 3] = 0xF0
        let cut = BiometricDataBlock(long)
        #expect(cut.warnings.contains { $0.contains("declares 226 bytes, \(Self.wsq.count) present") })
        #expect(cut.images.first?.image.bytes == Data(Self.wsq))
        // A view shorter than its own header.
        var short = block
        short[32 + 3] = 5
        #expect(BiometricDataBlock(short).warnings.contains { $0.contains("less than its header") })
        // The record length lies.
        var lying = block
        lying[13] &+= 1
        #expect(BiometricDataBlock(lying).warnings.contains { $0.contains("record length") })
        // Two fingers announced, one present.
        var more = block
        more[18] = 2
        #expect(BiometricDataBlock(more).warnings.contains { $0.contains("2 of 2 is truncated") })
        // Every prefix parses, with a warning for each that lost bytes.
        for count in 4..<block.count {
            let prefix = BiometricDataBlock(Array(block.prefix(count)), renderImages: false)
            #expect(prefix.standard == .iso19794Finger && !prefix.warnings.isEmpty, "prefix \(count)")
        }
    }

    @Test func lyingAndTruncatedIrisRecordsAreWarnings() throws {
        let block = try #require(
            EncodedIdentificationFeatures(
                EncodedIdentificationFeatures.encodedIris(image: Self.jpeg, width: 8, height: 8, eye: 1), kind: .dg4
            ).records.first.map { [UInt8]($0.data) })
        var long = block
        long[45 + 3 + 7] = 0x01  // image length + 2^24
        let cut = BiometricDataBlock(long)
        #expect(cut.warnings.contains { $0.contains("declares \((1 << 24) + Self.jpeg.count) bytes") })
        #expect(cut.images.first?.image.bytes == Data(Self.jpeg))
        var header = block
        header[16] = 0xFF  // header length 0x00FF, past the record
        let past = BiometricDataBlock(header)
        #expect(past.warnings.contains { $0.contains("runs past the record") } && past.images.count == 1)
        var small = block
        small[16] = 20
        let below = BiometricDataBlock(small)
        #expect(below.warnings.contains { $0.contains("below the 45 bytes") } && below.images.count == 1)
        var subtypes = block
        subtypes[14] = 3
        #expect(BiometricDataBlock(subtypes).warnings.contains { $0.contains("subtype header 2 of 3") })
        var format = block
        format[22] = 0x07
        #expect(BiometricDataBlock(format).warnings.contains { $0.contains("image format 7 is not defined") })
        for count in 4..<block.count {
            let prefix = BiometricDataBlock(Array(block.prefix(count)), renderImages: false)
            #expect(prefix.standard == .iso19794Iris && !prefix.warnings.isEmpty, "prefix \(count)")
        }
    }

    /// A 39794-4 record built with the DER writer: codes as CHOICEs, a full capture time, a first
    /// quality block that is an error and a second with a score.
    @Test func handBuilt39794FingerRepresentation() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2]
        func choice(_ number: UInt64, _ code: UInt8) -> [UInt8] {
            DER.constructed(ASN1Tag(0xA0 + number), [DER.tlv(ASN1Tag(0x80), [code])])
        }
        let date = DER.constructed(
            ASN1Tag(0xA4),
            [
                DER.tlv(ASN1Tag(0x80), [0x07, 0xE9]), DER.tlv(ASN1Tag(0x81), [3]), DER.tlv(ASN1Tag(0x82), [14]),
                DER.tlv(ASN1Tag(0x83), [9]), DER.tlv(ASN1Tag(0x84), [26]), DER.tlv(ASN1Tag(0x85), [53]),
                DER.tlv(ASN1Tag(0x86), [0x02, 0x37]),
            ])
        let algorithm = DER.constructed(ASN1Tag(0xA0), [DER.tlv(ASN1Tag(0x80), [1]), DER.tlv(ASN1Tag(0x81), [2])])
        let failed = DER.constructed(
            ASN1Tag(0x30),
            [
                algorithm,
                DER.constructed(ASN1Tag(0xA1), [DER.constructed(ASN1Tag(0xA1), [DER.tlv(ASN1Tag(0x80), [0])])]),
            ])
        let scored = DER.constructed(
            ASN1Tag(0x30), [algorithm, DER.constructed(ASN1Tag(0xA1), [DER.tlv(ASN1Tag(0x80), [77])])])
        let representation = DER.constructed(
            ASN1Tag(0x30),
            [
                choice(0, 10), choice(1, 8), choice(2, 4), DER.tlv(ASN1Tag(0x83), png), date,
                DER.constructed(ASN1Tag(0xA6), [failed, scored]),
            ])
        let record = DER.constructed(
            ASN1Tag(0x64),
            [
                DER.constructed(ASN1Tag(0xA0), [DER.tlv(ASN1Tag(0x80), [1]), DER.tlv(ASN1Tag(0x81), [0x07, 0xE3])]),
                DER.constructed(ASN1Tag(0xA1), [representation]),
            ])
        let parsed = BiometricDataBlock(record)
        #expect(parsed.standard == .iso39794Finger && parsed.version == "1/2019" && parsed.warnings.isEmpty)
        let image = try #require(parsed.images.first)
        #expect(image.image.bytes == Data(png) && image.image.format == .png && image.position == 10)
        let finger = try #require(image.finger)
        #expect(finger.position == .leftLittleFinger && finger.impressionCode == 8 && finger.dataFormatCode == 4)
        #expect(finger.quality == 77 && finger.recordHeader == nil && finger.viewCount == nil)
        #expect(
            finger.captureDateTime
                == BiometricCaptureDateTime(
                    year: 2025, month: 3, day: 14, hour: 9, minute: 26, second: 53, millisecond: 567))
        // Image data outside [3] is still shown, untyped; no image at all is a warning.
        let elsewhere = DER.constructed(
            ASN1Tag(0x64),
            [
                DER.constructed(
                    ASN1Tag(0xA1), [DER.constructed(ASN1Tag(0x30), [choice(0, 1), DER.tlv(ASN1Tag(0x85), png)])])
            ])
        let untyped = BiometricDataBlock(elsewhere)
        #expect(untyped.images.map(\.image.bytes) == [Data(png)] && untyped.images.first?.finger == nil)
        let empty = DER.constructed(
            ASN1Tag(0x64), [DER.constructed(ASN1Tag(0xA1), [DER.constructed(ASN1Tag(0x30), [choice(0, 1)])])])
        let none = BiometricDataBlock(empty)
        #expect(none.images.isEmpty && none.warnings == ["39794 representation 1 holds no recognised image"])
    }

    @Test func handBuilt39794IrisRepresentation() throws {
        let jp2: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 9]
        let representation = DER.constructed(
            ASN1Tag(0x30),
            [
                DER.tlv(ASN1Tag(0x80), [2]), DER.constructed(ASN1Tag(0xA1), [DER.tlv(ASN1Tag(0x80), [3])]),
                DER.tlv(ASN1Tag(0x82), [16]), DER.constructed(ASN1Tag(0xA3), [DER.tlv(ASN1Tag(0x80), [4])]),
                DER.tlv(ASN1Tag(0x84), [1]), DER.tlv(ASN1Tag(0x85), [1]), DER.tlv(ASN1Tag(0x86), [2]),
                DER.constructed(
                    ASN1Tag(0xA7),
                    [DER.tlv(ASN1Tag(0x80), [0x07, 0xE8]), DER.tlv(ASN1Tag(0x81), [2]), DER.tlv(ASN1Tag(0x82), [29])]),
                DER.tlv(ASN1Tag(0x88), jp2),
                DER.constructed(ASN1Tag(0xAC), [DER.tlv(ASN1Tag(0x80), [0x01, 0x0E]), DER.tlv(ASN1Tag(0x81), [12])]),
            ])
        let record = DER.constructed(ASN1Tag(0x66), [DER.constructed(ASN1Tag(0xA1), [representation])])
        let parsed = BiometricDataBlock(record, renderImages: false)
        #expect(parsed.standard == .iso39794Iris && parsed.warnings.isEmpty, "\(parsed.warnings)")
        let image = try #require(parsed.images.first)
        #expect(image.image.bytes == Data(jp2) && image.image.format == .jpeg2000Codestream)
        let iris = try #require(image.iris)
        #expect(iris.eye == .left && iris.imageKind == 3 && iris.bitDepth == 16 && iris.dataFormatCode == 4)
        #expect(iris.rotationAngle == 270 && iris.rotationUncertainty == 12 && iris.quality == nil)
        #expect(iris.captureDateTime == BiometricCaptureDateTime(year: 2024, month: 2, day: 29))
    }

    /// JMRTD's 39794-4/-6 samples: a PNG right index finger (rolled, quality 44, captured
    /// 2018-12-30 13h) and a PNG right iris (VGA, 8 bits, captured 2019-09-18 13h).
    @Test func jmrtd39794Samples() throws {
        guard let fingerRecord = SharedData.file("jmrtd/iso39794/sample-39794-4-ed-1-v1.der"),
            let irisRecord = SharedData.file("jmrtd/iso39794/sample-39794-6-ed-1-v1.der")
        else { return }
        let finger = try #require(BiometricDataBlock(fingerRecord).images.first)
        #expect(finger.image.format == .png && finger.finger?.position == .rightIndexFinger)
        #expect(finger.finger?.impressionCode == 1 && finger.finger?.quality == 44)
        #expect(finger.finger?.captureDateTime == BiometricCaptureDateTime(year: 2018, month: 12, day: 30, hour: 13))
        let iris = try #require(BiometricDataBlock(irisRecord).images.first)
        #expect(iris.image.format == .png && iris.iris?.eye == .right && iris.iris?.imageKind == 2)
        #expect(iris.iris?.bitDepth == 8 && iris.iris?.dataFormatCode == 2)
        #expect(iris.iris?.captureDateTime == BiometricCaptureDateTime(year: 2019, month: 9, day: 18, hour: 13))
    }

    /// The BSI 2008 test passport: two WSQ fingers (right and left index, 500 ppi, 8 bits) and two
    /// JPEG 2000 irises (right, left) in 45-byte headers, RGB, 24 bits, diameter 150.
    @Test func bsi2008FingersAndIrises() throws {
        guard let dg3 = SharedData.file("jmrtd/bsi2008/Datagroup3.bin"),
            let dg4 = SharedData.file("jmrtd/bsi2008/Datagroup4.bin")
        else { return }
        let fingers = try EncodedIdentificationFeatures(dg3, kind: .dg3, renderImages: false)
        let fingerInfos = fingers.records.flatMap(\.dataBlock.images).compactMap(\.finger)
        #expect(fingerInfos.map(\.position) == [.rightIndexFinger, .leftIndexFinger])
        #expect(fingerInfos.allSatisfy { $0.quality == 100 && $0.width == 620 && $0.viewCount == 1 })
        #expect(fingerInfos.allSatisfy { $0.recordHeader?.compression == .wsq && $0.recordHeader?.pixelDepth == 8 })
        #expect(fingerInfos.allSatisfy { $0.recordHeader?.imageHorizontalResolution == 500 })
        let irises = try EncodedIdentificationFeatures(dg4, kind: .dg4, renderImages: false)
        let irisInfos = irises.records.flatMap(\.dataBlock.images).compactMap(\.iris)
        #expect(irisInfos.map(\.eye) == [.right, .left] && irisInfos.map(\.quality) == [51, 51])
        #expect(irisInfos.map { $0.recordHeader?.rawWidth } == [163, 160])
        #expect(irisInfos.allSatisfy { $0.recordHeader?.imageFormat == .rgbJPEG2000 })
        #expect(irisInfos.allSatisfy { $0.recordHeader?.intensityDepth == 24 && $0.recordHeader?.irisDiameter == 150 })
    }
}
