import ASN1
import JSON

/// Which standard a biometric data block follows.
public enum BiometricStandard: String, Sendable, JSONEnum {
    /// ISO/IEC 19794-5:2005 face ("FAC").
    case iso19794Face
    /// ISO/IEC 19794-4:2005 finger image ("FIR").
    case iso19794Finger
    /// ISO/IEC 19794-6:2005 iris image ("IIR").
    case iso19794Iris
    /// ISO/IEC 39794-5 face ([APPLICATION 5]).
    case iso39794Face
    /// ISO/IEC 39794-4 finger image ([APPLICATION 4]).
    case iso39794Finger
    /// ISO/IEC 39794-6 iris image ([APPLICATION 6]).
    case iso39794Iris
    /// An image file with no biometric record around it (seen on real chips).
    case rawImage
    case unknown
}

/// A biometric data block parsed: the ISO/IEC 19794 or 39794 record inside one CBEFF record's
/// 5F2E (`BiometricRecord.data`), its standard and the images it holds, with what it says of each.
public struct BiometricDataBlock: Sendable, Equatable, JSONRepresentable {
    public let standard: BiometricStandard
    /// The record's version ("010" for 19794:2005, "generation/year" for 39794).
    public let version: String?
    public let images: [BiometricImage]
    public let warnings: [String]

    init(standard: BiometricStandard, version: String?, images: [BiometricImage], warnings: [String]) {
        self.standard = standard
        self.version = version
        self.images = images
        self.warnings =
            warnings
            + images.enumerated().flatMap { index, image in
                let kind = image.face != nil ? "face" : image.finger != nil ? "finger" : image.iris != nil ? "iris" : ""
                return image.image.warnings(
                    name: "\(kind.isEmpty ? "" : kind + " ")image \(index + 1) of \(images.count)")
            }
    }

    /// Reads a biometric data block (or a bare record file): 19794 by its magic, 39794 by its
    /// APPLICATION tag, a bare image by its signature; a block of none of these keeps any image
    /// found inside it. Never fails: what cannot be read is a warning. `renderImages: false` skips
    /// the JPEG 2000 → PNG rendering (the costly part) when only the record is wanted.
    public init(_ bytes: [UInt8], renderImages: Bool = true) {
        let magic = Array(bytes.prefix(4))
        if magic == Array("FAC\0".utf8) {
            self = ISO19794.face(bytes, render: renderImages)
        } else if magic == Array("FIR\0".utf8) {
            self = ISO19794.finger(bytes, render: renderImages)
        } else if magic == Array("IIR\0".utf8) {
            self = ISO19794.iris(bytes, render: renderImages)
        } else if ImageFormat.detect(bytes) != .unknown {
            self.init(
                standard: .rawImage, version: nil,
                images: [BiometricImage(image: DocumentImage(bytes: bytes, render: renderImages))],
                warnings: ["biometric data block is a bare image without an ISO 19794/39794 record"])
        } else if let nodes = try? ASN1Node.parseAll(bytes, rules: .ber, maxDepth: OuterTLV.maximumDepth),
            let record = nodes.lazy.compactMap({ ISO39794.record($0, render: renderImages) }).first
        {
            self = record
        } else {
            let found =
                embeddedImage(in: bytes).map { [BiometricImage(image: DocumentImage(bytes: $0, render: renderImages))] }
                ?? []
            self.init(
                standard: .unknown, version: nil, images: found,
                warnings: ["biometric data block in an unknown format (\(found.count) embedded image found)"])
        }
    }

    public var json: JSONValue {
        ["standard": standard.json, "version": .optional(version), "images": .array(images)]
    }
}

/// One image of a biometric record with what the record says about it (in JSON, what the record
/// says only: the image itself is in the record's `images`, once).
public struct BiometricImage: Sendable, Equatable, JSONRepresentable {
    public let image: DocumentImage
    /// Finger position code (19794-4, 39794-4) or eye code (19794-6 feature identifier, 39794-6
    /// eye label), when given; `finger` and `iris` name them.
    public let position: Int?
    /// Quality as the record states it.
    public let quality: Int?
    /// The facial information of a 19794-5 record.
    public let face: FaceImageInfo?
    /// The finger image information of a 19794-4 or 39794-4 record.
    public let finger: FingerImageInfo?
    /// The iris image information of a 19794-6 or 39794-6 record.
    public let iris: IrisImageInfo?

    init(
        image: DocumentImage, position: Int? = nil, quality: Int? = nil, face: FaceImageInfo? = nil,
        finger: FingerImageInfo? = nil, iris: IrisImageInfo? = nil
    ) {
        self.image = image
        self.position = position
        self.quality = quality
        self.face = face
        self.finger = finger
        self.iris = iris
    }

    /// A finger image: its position and quality are the finger record's.
    init(image: DocumentImage, finger: FingerImageInfo) {
        self.init(image: image, position: finger.positionCode, quality: finger.quality, finger: finger)
    }

    /// An iris image: its position is the eye, its quality the iris record's.
    init(image: DocumentImage, iris: IrisImageInfo) {
        self.init(image: image, position: iris.eyeCode, quality: iris.quality, iris: iris)
    }

    public var json: JSONValue {
        [
            "position": .optional(position), "quality": .optional(quality), "face": .optional(face),
            "finger": .optional(finger), "iris": .optional(iris),
        ]
    }
}

/// The facial record header and image information of ISO/IEC 19794-5:2005 (§5.5, §5.7).
public struct FaceImageInfo: Sendable, Equatable, JSONRepresentable {
    public let featurePointCount: Int
    /// 0 unspecified, 1 male, 2 female, 3 unknown.
    public let gender: Int
    public let eyeColour: Int
    public let hairColour: Int
    public let featureMask: Int
    public let expression: Int
    /// Yaw, pitch, roll (encoded as the standard does: 0 unspecified, 1–181).
    public let poseAngle: [Int]
    public let poseAngleUncertainty: [Int]
    /// 0 basic, 1 full frontal, 2 token frontal.
    public let faceImageType: Int
    /// 0 JPEG, 1 JPEG 2000.
    public let imageDataType: Int
    public let width: Int
    public let height: Int
    public let colourSpace: Int
    public let sourceType: Int
    public let deviceType: Int
    public let quality: Int

    public var json: JSONValue {
        [
            "featurePointCount": .integer(featurePointCount), "gender": .integer(gender),
            "eyeColour": .integer(eyeColour), "hairColour": .integer(hairColour),
            "featureMask": .integer(featureMask), "expression": .integer(expression),
            "poseAngle": .array(poseAngle.map(JSONValue.integer)),
            "poseAngleUncertainty": .array(poseAngleUncertainty.map(JSONValue.integer)),
            "faceImageType": .integer(faceImageType), "imageDataType": .integer(imageDataType),
            "width": .integer(width), "height": .integer(height), "colourSpace": .integer(colourSpace),
            "sourceType": .integer(sourceType), "deviceType": .integer(deviceType), "quality": .integer(quality),
        ]
    }
}

/// The leading bytes of JP2, JPEG and JPEG 2000 codestream files.
let imageSignatures: [[UInt8]] = [
    [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20], [0xFF, 0xD8, 0xFF], [0xFF, 0x4F, 0xFF, 0x51],
]

/// The image file inside some bytes: from the first JPEG, JP2 or codestream signature to the end.
func embeddedImage(in bytes: [UInt8]) -> [UInt8]? {
    firstOccurrence(of: imageSignatures, in: bytes).map { Array(bytes[$0...]) }
}

/// Where the earliest of `signatures` starts in `bytes`: one pass, stopping at the first match
/// (a malformed DG2 is searched whole, up to its 10 MB cap).
func firstOccurrence(of signatures: [[UInt8]], in bytes: [UInt8]) -> Int? {
    bytes.indices.first { start in
        signatures.contains { signature in
            signature.first == bytes[start] && bytes.count - start >= signature.count
                && bytes[start..<start + signature.count].elementsEqual(signature)
        }
    }
}
