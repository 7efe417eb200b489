import ASN1
import Foundation
import JSON

/// DG3 (fingerprints) and DG4 (irises), the reference's `EncodedIdentificationFeatures`: a
/// biometric information group template of ISO/IEC 7816-11 holding one CBEFF record per
/// biometric, each a header and a data block. DG2 is `EncodedIdentificationFeaturesFace`, read
/// the same way.
///
/// ```
/// 75|63|76 { 7F61 { 02 count, 7F60 { A1 header { 80 version, 81 type, 82 subtype, 83 creation date,
///     85 validity, 86 creator, 87 format owner, 88 format type }, 5F2E|7F2E biometric data block }, … } }
/// ```
public struct EncodedIdentificationFeatures: LDSFileModel, Equatable {
    /// `.dg3` or `.dg4`.
    public let kind: LDSFileKind
    public let rawBytes: [UInt8]
    /// Fingerprint (DG3) or iris (DG4) records.
    public let records: [BiometricRecord]
    public let warnings: [String]

    /// Every image of every record, in order.
    public var images: [DocumentImage] { records.flatMap(\.images) }

    /// `kind` is `.dg3` or `.dg4`; `renderImages: false` skips the PNG renderings.
    public init(_ bytes: [UInt8], kind: LDSFileKind, renderImages: Bool = true) throws(LDSError) {
        guard [.dg3, .dg4].contains(kind) else {
            throw LDSError(
                .unsupported,
                kind == .dg2
                    ? "dg2 is EncodedIdentificationFeaturesFace" : "\(kind.rawValue) is not a biometric data group")
        }
        self.kind = kind
        rawBytes = bytes
        (records, warnings) = try BiometricGroupTemplate.records(bytes, kind: kind, renderImages: renderImages)
    }

    /// The reference's `EncodedIdentificationFeatures`: `records`. The file's bytes are in
    /// `ldsMasterFile`, not repeated here.
    public var json: JSONValue { ["records": .array(records)] }
}

/// DG2, the reference's `EncodedIdentificationFeaturesFace`: the face records (read as DG3 and
/// DG4 are) and the face image.
public struct EncodedIdentificationFeaturesFace: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    /// All face records.
    public let records: [BiometricRecord]
    public let warnings: [String]

    /// The first image of the first record, which ICAO requires to be the interoperable one.
    public var faceImage: DocumentImage? { records.first?.dataBlock.images.first?.image }

    /// Every image of every record, in order.
    public var images: [DocumentImage] { records.flatMap(\.images) }

    /// `renderImages: false` skips the PNG renderings.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        rawBytes = bytes
        (records, warnings) = try BiometricGroupTemplate.records(bytes, kind: .dg2, renderImages: renderImages)
    }

    private init(rawBytes: [UInt8], records: [BiometricRecord], warnings: [String]) {
        self.rawBytes = rawBytes
        self.records = records
        self.warnings = warnings
    }

    /// No record: the `TravelDocument`'s face when DG2 could not be parsed (the reference's
    /// property is always present; the warning says why it is empty).
    public static let empty = EncodedIdentificationFeaturesFace(rawBytes: [], records: [], warnings: [])

    /// The reference's `EncodedIdentificationFeaturesFace`: `faceImage`, `records`. The file's
    /// bytes are in `ldsMasterFile`, not repeated here.
    public var json: JSONValue { ["faceImage": .optional(faceImage), "records": .array(records)] }
}

/// The ISO/IEC 7816-11 group template DG2, DG3 and DG4 share.
enum BiometricGroupTemplate {
    /// The records of a DG2, DG3 or DG4 and the warnings met reading them.
    static func records(_ bytes: [UInt8], kind: LDSFileKind, renderImages: Bool) throws(LDSError)
        -> (records: [BiometricRecord], warnings: [String])
    {
        let outer: ASN1Node
        var warnings: [String]
        do {
            (outer, warnings) = try OuterTLV.parse(bytes, kind: kind)
        } catch  where error.code == .malformed {
            // Real chips write BER lengths that are off by a few bytes; the record inside is
            // still found by its signature rather than losing the face.
            guard let record = BiometricRecord(recoveringFrom: bytes, renderImages: renderImages) else {
                throw error
            }
            return (
                [record],
                ["\(kind.rawValue) TLV structure is malformed (\(error.reason)); record found by its signature"]
                    + record.dataBlock.warnings
            )
        }
        let group = outer.child(ASN1Tag(0x7F61)) ?? outer
        let recordNodes = group.children(ASN1Tag(0x7F60))
        if recordNodes.isEmpty { warnings.append("\(kind.rawValue) holds no biometric template (7F60)") }
        if let count = group.child(.integer).flatMap({ try? $0.intValue() }), count != recordNodes.count {
            warnings.append("\(kind.rawValue) announces \(count) templates, holds \(recordNodes.count)")
        }
        var records: [BiometricRecord] = []
        for node in recordNodes {
            let record = try BiometricRecord(node, renderImages: renderImages)
            warnings += record.dataBlock.warnings
            records.append(record)
        }
        return (records, warnings)
    }
}

/// One CBEFF biometric record (ISO/IEC 7816-11 biometric information template 7F60) of DG2, DG3
/// or DG4, the reference's `BiometricRecord`: its header and its data block, raw (`data`) and
/// parsed (`dataBlock`).
public struct BiometricRecord: Sendable, Equatable, JSONRepresentable {
    /// The whole header template (A1); `biometricType`… are its tags 81, 82, 87 and 88.
    public let header: BiometricHeader
    /// The raw biometric data block (5F2E content, or 7F2E content as read).
    public let data: Data
    /// The data block parsed: its ISO/IEC 19794 or 39794 record, the images with what it says of
    /// each.
    public let dataBlock: BiometricDataBlock

    /// Biometric type (header tag 81: 2 face, 8 finger, 16 iris).
    public var biometricType: UInt32? { header.biometricType }
    /// Biometric subtype (tag 82).
    public var biometricSubtype: UInt32? { header.biometricSubtype }
    /// Format owner (tag 87).
    public var formatOwner: UInt32? { header.formatOwner }
    /// Format type (tag 88).
    public var formatType: UInt32? { header.formatType }
    /// The images found in the data block, in order.
    public var images: [DocumentImage] { dataBlock.images.map(\.image) }

    init(_ node: ASN1Node, renderImages: Bool) throws(LDSError) {
        let headerNode = node.children.first { $0.tag.tagClass == .contextSpecific && $0.isConstructed }
        header = BiometricHeader(headerNode)
        guard let block = node.child(ASN1Tag(0x5F2E)) ?? node.child(ASN1Tag(0x7F2E)) else {
            throw LDSError(.malformed, "biometric template without a data block (5F2E/7F2E)")
        }
        let bytes = block.bytes
        data = Data(bytes)
        dataBlock = BiometricDataBlock(bytes, renderImages: renderImages)
    }

    /// A record for the data block found by its signature in a file whose TLVs do not parse: the
    /// data block runs from the signature to the end of the file, the header is unknown.
    init?(recoveringFrom bytes: [UInt8], renderImages: Bool) {
        let signatures: [[UInt8]] =
            [Array("FAC\0".utf8), Array("FIR\0".utf8), Array("IIR\0".utf8)] + imageSignatures
        guard let start = firstOccurrence(of: signatures, in: bytes) else { return nil }
        header = BiometricHeader(nil)
        let block = Array(bytes[start...])
        data = Data(block)
        dataBlock = BiometricDataBlock(block, renderImages: renderImages)
        if dataBlock.images.isEmpty { return nil }
    }

    /// The reference's `BiometricRecord`: the header's type, subtype and format, the images, the
    /// data block (`data`). Added: `standard` and `version` of the record, `imageDetails` (what
    /// the record says of each image, in `images` order) and the rest of the header.
    public var json: JSONValue {
        [
            "biometricType": .optional(biometricType.map(Int.init)),
            "biometricSubtype": .optional(biometricSubtype.map(Int.init)),
            "formatOwner": .optional(formatOwner.map(Int.init)), "formatType": .optional(formatType.map(Int.init)),
            "images": .array(images), "data": .bytes([UInt8](data)),
            "standard": dataBlock.standard.json, "version": .optional(dataBlock.version),
            "imageDetails": .array(dataBlock.images),
            "header": header.json,
        ]
    }
}

/// The biometric header template (A1) of ISO/IEC 7816-11 as ICAO 9303-10 uses it.
public struct BiometricHeader: Sendable, Equatable, JSONRepresentable {
    /// 80: patron header version, e.g. 01 01.
    public let version: [UInt8]?
    /// 81: biometric type (2 face, 8 finger, 16 iris).
    public let biometricType: UInt32?
    /// 82: biometric subtype (finger or eye position bits).
    public let biometricSubtype: UInt32?
    /// 83: creation date and time (7 bytes, BCD).
    public let creationDateTime: [UInt8]?
    /// 85: validity period (8 bytes, BCD from/to).
    public let validityPeriod: [UInt8]?
    /// 86: creator (PID).
    public let creator: [UInt8]?
    /// 87: format owner (0x0101 ISO/IEC JTC 1/SC 37).
    public let formatOwner: UInt32?
    /// 88: format type (0x0008 face 19794-5, 0x0007 finger 19794-4, 0x0009 iris 19794-6, …).
    public let formatType: UInt32?

    init(_ node: ASN1Node?) {
        func bytes(_ number: UInt32) -> [UInt8]? {
            node?.child(.contextSpecific(number, constructed: false))?.bytes
        }
        func integer(_ number: UInt32) -> UInt32? {
            bytes(number).flatMap { $0.count <= 4 ? $0.reduce(0) { $0 << 8 | UInt32($1) } : nil }
        }
        version = bytes(0)
        biometricType = integer(1)
        biometricSubtype = integer(2)
        creationDateTime = bytes(3)
        validityPeriod = bytes(5)
        creator = bytes(6)
        formatOwner = integer(7)
        formatType = integer(8)
    }

    /// The header fields the record's JSON does not already carry, as hexadecimal (BCD dates and
    /// identifiers read as hex).
    public var json: JSONValue {
        [
            "version": .optional(version.map { Hex.encode($0) }),
            "creationDateTime": .optional(creationDateTime.map { Hex.encode($0) }),
            "validityPeriod": .optional(validityPeriod.map { Hex.encode($0) }),
            "creator": .optional(creator.map { Hex.encode($0) }),
        ]
    }
}
