/// The binary records of ISO/IEC 19794-4, -5 and -6 (2005 editions, as ICAO 9303-10 profiles
/// them). Real chips get the lengths wrong: an image is taken up to its declared length or the
/// end of the block, whichever comes first, and the difference is a warning.
enum ISO19794 {
    /// ISO/IEC 19794-5: "FAC\0", version, record length (4), image count (2), then per image a
    /// facial record header (20), feature points (8 each), image information (12), image data.
    static func face(_ bytes: [UInt8], render: Bool) -> BiometricRecord {
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
        return BiometricRecord(standard: .iso19794Face, version: version, images: images, warnings: warnings)
    }

    /// ISO/IEC 19794-4: "FIR\0", version, record length (6), device (2), acquisition level (2),
    /// finger count (1), scale units (1), resolutions (8), depth (1), compression (1), reserved
    /// (2); then per finger a view header (14) and its image.
    static func finger(_ bytes: [UInt8], render: Bool) -> BiometricRecord {
        var reader = ByteReader(bytes, offset: 4)
        let version = reader.read(4).map(versionText)
        guard reader.skip(6 + 2 + 2), let count = reader.uint(1), reader.skip(1 + 8 + 1),
            let compression = reader.uint(1), reader.skip(2)
        else { return truncated(.iso19794Finger, version, bytes, render: render) }
        let declaredFormat: ImageFormat =
            switch compression {
            case 2: .wsq
            case 3: .jpeg
            case 4: .jpeg2000
            case 5: .png
            default: .unknown
            }
        var warnings: [String] = []
        var images: [BiometricImage] = []
        for index in 0..<count {
            guard let length = reader.uint(4), let position = reader.uint(1), reader.skip(2),
                let quality = reader.uint(1), reader.skip(1), let width = reader.uint(2), let height = reader.uint(2),
                reader.skip(1)
            else {
                warnings.append("19794-4 finger record \(index + 1) of \(count) is truncated")
                break
            }
            let declared = length - 14
            let data = reader.readUpTo(declared)
            if data.count < declared {
                warnings.append("19794-4 image \(index + 1) declares \(declared) bytes, \(data.count) present")
            }
            let image = DocumentImage(
                bytes: data, declaredFormat: declaredFormat, declaredWidth: width, declaredHeight: height,
                render: render)
            images.append(BiometricImage(image: image, position: position, quality: quality))
        }
        return BiometricRecord(standard: .iso19794Finger, version: version, images: images, warnings: warnings)
    }

    /// ISO/IEC 19794-6: "IIR\0", version, record length (4), device (2), subtype count (1), header
    /// length (2), properties (2), diameter (2), image format (2), width (2), height (2), depth (1),
    /// transformation (1), device unique ID (16); per subtype its feature (1) and image count (2);
    /// per image sequence (2), quality (1), rotation (2), uncertainty (2), length (4), data.
    static func iris(_ bytes: [UInt8], render: Bool) -> BiometricRecord {
        var reader = ByteReader(bytes, offset: 4)
        let version = reader.read(4).map(versionText)
        guard reader.skip(4 + 2), let subtypes = reader.uint(1), let headerLength = reader.uint(2),
            reader.skip(2 + 2), let format = reader.uint(2), let width = reader.uint(2), let height = reader.uint(2)
        else { return truncated(.iso19794Iris, version, bytes, render: render) }
        var warnings: [String] = []
        guard headerLength >= 27, reader.skip(headerLength - 27) else {
            return truncated(.iso19794Iris, version, bytes, render: render)
        }
        let declaredFormat: ImageFormat =
            switch format {
            case 0x06, 0x08: .jpeg
            case 0x0E, 0x10: .jpeg2000
            default: .unknown
            }
        var images: [BiometricImage] = []
        subtypeLoop: for _ in 0..<subtypes {
            guard let feature = reader.uint(1), let count = reader.uint(2) else {
                warnings.append("19794-6 subtype header is truncated")
                break
            }
            for index in 0..<count {
                guard reader.skip(2), let quality = reader.uint(1), reader.skip(4), let length = reader.uint(4) else {
                    warnings.append("19794-6 image header \(index + 1) is truncated")
                    break subtypeLoop
                }
                let data = reader.readUpTo(length)
                if data.count < length {
                    warnings.append("19794-6 image \(index + 1) declares \(length) bytes, \(data.count) present")
                }
                let image = DocumentImage(
                    bytes: data, declaredFormat: declaredFormat, declaredWidth: width, declaredHeight: height,
                    render: render)
                images.append(BiometricImage(image: image, position: feature, quality: quality))
            }
        }
        return BiometricRecord(standard: .iso19794Iris, version: version, images: images, warnings: warnings)
    }

    /// A record whose header is cut short: any image inside it is still shown.
    private static func truncated(_ standard: BiometricStandard, _ version: String?, _ bytes: [UInt8], render: Bool)
        -> BiometricRecord
    {
        let found =
            embeddedImage(in: bytes).map { [BiometricImage(image: DocumentImage(bytes: $0, render: render))] } ?? []
        return BiometricRecord(
            standard: standard, version: version, images: found, warnings: ["\(standard.rawValue) header is truncated"])
    }

    private static func versionText(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
