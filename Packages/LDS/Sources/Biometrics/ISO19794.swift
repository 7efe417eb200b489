/// The binary records of ISO/IEC 19794-4, -5 and -6 (2005 editions, as ICAO 9303-10 profiles
/// them). Real chips get the lengths wrong: an image is taken up to its declared length or the
/// end of the block, whichever comes first, and the difference is a warning.
enum ISO19794 {
    /// ISO/IEC 19794-5: "FAC\0", version, record length (4), image count (2), then per image a
    /// facial record header (20), feature points (8 each), image information (12), image data.
    static func face(_ bytes: [UInt8], render: Bool) -> BiometricDataBlock {
        var reader = ByteReader(bytes, offset: 4)
        let version = reader.read(4).map(versionText)
        var warnings: [String] = []
        guard let recordLength = reader.uint(4), let count = reader.uint(2) else {
            return truncated(.iso19794Face, version, bytes, render: render)
        }
        if recordLength != bytes.count {
            warnings.append("19794-5 record length \(recordLength) differs from the data block's \(bytes.count)")
        }
        var images: [BiometricImage] = []
        for index in 0..<count {
            let start = reader.offset
            guard let blockLength = reader.uint(4), let pointCount = reader.uint(2),
                let gender = reader.uint(1), let eyes = reader.uint(1), let hair = reader.uint(1),
                let mask = reader.uint(3), let expression = reader.uint(2),
                let pose = reader.read(3), let uncertainty = reader.read(3),
                reader.skip(8 * pointCount),
                let faceType = reader.uint(1), let dataType = reader.uint(1), let width = reader.uint(2),
                let height = reader.uint(2), let colourSpace = reader.uint(1), let sourceType = reader.uint(1),
                let deviceType = reader.uint(2), let quality = reader.uint(2)
            else {
                warnings.append("19794-5 facial record \(index + 1) of \(count) is truncated")
                break
            }
            let declared = blockLength - (reader.offset - start)
            let data = reader.readUpTo(declared)
            if data.count < declared {
                warnings.append("19794-5 image \(index + 1) declares \(declared) bytes, \(data.count) present")
            }
            if data.isEmpty {
                warnings.append("19794-5 facial record \(index + 1) holds no image")
                continue
            }
            let info = FaceImageInfo(
                featurePointCount: pointCount, gender: gender, eyeColour: eyes, hairColour: hair,
                featureMask: mask, expression: expression, poseAngle: pose.map(Int.init),
                poseAngleUncertainty: uncertainty.map(Int.init), faceImageType: faceType, imageDataType: dataType,
                width: width, height: height, colourSpace: colourSpace, sourceType: sourceType,
                deviceType: deviceType, quality: quality)
            let declaredFormat: ImageFormat = dataType == 0 ? .jpeg : dataType == 1 ? .jpeg2000 : .unknown
            let image = DocumentImage(
                bytes: data, declaredFormat: declaredFormat, declaredWidth: width, declaredHeight: height,
                render: render)
            images.append(BiometricImage(image: image, quality: quality, face: info))
        }
        if reader.remaining > 0 {
            warnings.append("\(reader.remaining) bytes after the 19794-5 record")
        }
        return BiometricDataBlock(standard: .iso19794Face, version: version, images: images, warnings: warnings)
    }

    /// ISO/IEC 19794-4: the general record header (`FingerRecordHeader`), then per finger a
    /// finger image record of 14 header bytes and its image (`FingerImageInfo`).
    static func finger(_ bytes: [UInt8], render: Bool) -> BiometricDataBlock {
        var reader = ByteReader(bytes, offset: 4)
        let version = reader.read(4).map(versionText)
        guard let recordLength = reader.uint(6), let device = reader.uint(2), let level = reader.uint(2),
            let count = reader.uint(1), let scaleUnits = reader.uint(1), let scanHorizontal = reader.uint(2),
            let scanVertical = reader.uint(2), let imageHorizontal = reader.uint(2), let imageVertical = reader.uint(2),
            let depth = reader.uint(1), let compression = reader.uint(1), reader.skip(2)
        else { return truncated(.iso19794Finger, version, bytes, render: render) }
        let header = FingerRecordHeader(
            recordLength: recordLength, captureDeviceID: device, imageAcquisitionLevel: level, fingerCount: count,
            scaleUnits: scaleUnits, scanHorizontalResolution: scanHorizontal, scanVerticalResolution: scanVertical,
            imageHorizontalResolution: imageHorizontal, imageVerticalResolution: imageVertical, pixelDepth: depth,
            compressionCode: compression)
        var warnings: [String] = []
        if recordLength != bytes.count {
            warnings.append("19794-4 record length \(recordLength) differs from the data block's \(bytes.count)")
        }
        if header.compression == nil {
            warnings.append("19794-4 compression algorithm \(compression) is not defined by the standard")
        }
        let declaredFormat = header.compression?.imageFormat ?? .unknown
        var images: [BiometricImage] = []
        for index in 0..<count {
            guard let length = reader.uint(4), let position = reader.uint(1), let viewCount = reader.uint(1),
                let viewNumber = reader.uint(1), let quality = reader.uint(1), let impression = reader.uint(1),
                let width = reader.uint(2), let height = reader.uint(2), reader.skip(1)
            else {
                warnings.append("19794-4 finger record \(index + 1) of \(count) is truncated")
                break
            }
            guard length >= 14 else {
                warnings.append("19794-4 finger record \(index + 1) declares \(length) bytes, less than its header")
                break
            }
            let declared = length - 14
            let data = reader.readUpTo(declared)
            if data.count < declared {
                warnings.append("19794-4 image \(index + 1) declares \(declared) bytes, \(data.count) present")
            }
            if data.isEmpty {
                warnings.append("19794-4 finger record \(index + 1) holds no image")
                continue
            }
            let info = FingerImageInfo(
                positionCode: position, impressionCode: impression, quality: quality, viewCount: viewCount,
                viewNumber: viewNumber, width: width, height: height, declaredLength: length, recordHeader: header)
            let image = DocumentImage(
                bytes: data, declaredFormat: declaredFormat, declaredWidth: width, declaredHeight: height,
                render: render)
            images.append(BiometricImage(image: image, finger: info))
        }
        if reader.remaining > 0 {
            warnings.append("\(reader.remaining) bytes after the 19794-4 record")
        }
        return BiometricDataBlock(standard: .iso19794Finger, version: version, images: images, warnings: warnings)
    }

    /// ISO/IEC 19794-6: the general header (`IrisRecordHeader`), then per biometric subtype (eye)
    /// its header and images, each with an 11-byte image header (`IrisImageInfo`).
    static func iris(_ bytes: [UInt8], render: Bool) -> BiometricDataBlock {
        var reader = ByteReader(bytes, offset: 4)
        let version = reader.read(4).map(versionText)
        guard let recordLength = reader.uint(4), let device = reader.uint(2), let subtypes = reader.uint(1),
            let headerLength = reader.uint(2), let properties = reader.uint(2), let diameter = reader.uint(2),
            let format = reader.uint(2), let width = reader.uint(2), let height = reader.uint(2),
            let depth = reader.uint(1), let transformation = reader.uint(1), let deviceID = reader.read(16)
        else { return truncated(.iso19794Iris, version, bytes, render: render) }
        var warnings: [String] = []
        if headerLength < 45 {
            // The fields above are at fixed offsets: a smaller declared length is a writer's slip.
            warnings.append("19794-6 record header length \(headerLength) is below the 45 bytes of its fields")
        } else if !reader.skip(headerLength - 45) {
            warnings.append("19794-6 record header length \(headerLength) runs past the record")
            return truncated(.iso19794Iris, version, bytes, render: render, warnings: warnings)
        }
        let globalID = headerLength >= 61 ? Array(bytes[45..<61]) : nil
        let header = IrisRecordHeader(
            recordLength: recordLength, captureDeviceID: device, subtypeCount: subtypes, headerLength: headerLength,
            imagePropertyBits: properties, irisDiameter: diameter, imageFormatCode: format, rawWidth: width,
            rawHeight: height, intensityDepth: depth, imageTransformation: transformation, deviceUniqueID: deviceID,
            globalUniqueID: globalID)
        if recordLength != bytes.count {
            warnings.append("19794-6 record length \(recordLength) differs from the data block's \(bytes.count)")
        }
        if header.imageFormat == nil {
            warnings.append("19794-6 image format \(format) is not defined by the standard")
        }
        let declaredFormat = header.imageFormat?.imageFormat ?? .unknown
        var images: [BiometricImage] = []
        subtypeLoop: for subtype in 0..<subtypes {
            guard let feature = reader.uint(1), let count = reader.uint(2) else {
                warnings.append("19794-6 subtype header \(subtype + 1) of \(subtypes) is truncated")
                break
            }
            for index in 0..<count {
                guard let sequence = reader.uint(2), let quality = reader.uint(1), let rotation = reader.uint(2),
                    let uncertainty = reader.uint(2), let length = reader.uint(4)
                else {
                    warnings.append("19794-6 image header \(index + 1) is truncated")
                    break subtypeLoop
                }
                let data = reader.readUpTo(length)
                if data.count < length {
                    warnings.append("19794-6 image \(index + 1) declares \(length) bytes, \(data.count) present")
                }
                if data.isEmpty {
                    warnings.append("19794-6 image \(index + 1) holds no image")
                    continue
                }
                let info = IrisImageInfo(
                    eyeCode: feature, quality: quality, sequenceNumber: sequence, rotationAngle: rotation,
                    rotationUncertainty: uncertainty, declaredLength: length, recordHeader: header)
                let image = DocumentImage(
                    bytes: data, declaredFormat: declaredFormat, declaredWidth: width, declaredHeight: height,
                    render: render)
                images.append(BiometricImage(image: image, iris: info))
            }
        }
        if reader.remaining > 0 {
            warnings.append("\(reader.remaining) bytes after the 19794-6 record")
        }
        return BiometricDataBlock(standard: .iso19794Iris, version: version, images: images, warnings: warnings)
    }

    /// A record whose header is cut short: any image inside it is still shown.
    private static func truncated(
        _ standard: BiometricStandard, _ version: String?, _ bytes: [UInt8], render: Bool, warnings: [String] = []
    ) -> BiometricDataBlock {
        let found =
            embeddedImage(in: bytes).map { [BiometricImage(image: DocumentImage(bytes: $0, render: render))] } ?? []
        return BiometricDataBlock(
            standard: standard, version: version, images: found,
            warnings: warnings + ["\(standard.rawValue) header is truncated"])
    }

    private static func versionText(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
