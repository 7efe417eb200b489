import ASN1
import JSON

/// DG2 (face), DG3 (fingerprints), DG4 (irises): a biometric information group template of
/// ISO/IEC 7816-11 holding one template per biometric, each a header and a data block.
///
/// ```
/// 75|63|76 { 7F61 { 02 count, 7F60 { A1 header { 80 version, 81 type, 82 subtype, 83 creation date,
///     85 validity, 86 creator, 87 format owner, 88 format type }, 5F2E|7F2E biometric data block }, … } }
/// ```
public struct BiometricDataGroup: LDSFileModel, Equatable {
    public let kind: LDSFileKind
    public let rawBytes: [UInt8]
    public let templates: [BiometricTemplate]
    public let warnings: [String]

    /// Every image of every template, in order.
    public var images: [DocumentImage] { templates.flatMap { $0.record.images.map(\.image) } }

    /// `kind` is `.dg2`, `.dg3` or `.dg4`; `renderImages: false` skips the PNG renderings.
    public init(_ bytes: [UInt8], kind: LDSFileKind, renderImages: Bool = true) throws(LDSError) {
        guard [.dg2, .dg3, .dg4].contains(kind) else {
            throw LDSError(.unsupported, "\(kind.rawValue) is not a biometric data group")
        }
        let outer: ASN1Node
        var warnings: [String]
        do {
            (outer, warnings) = try OuterTLV.parse(bytes, kind: kind)
        } catch  where error.code == .malformed {
            // Real chips write BER lengths that are off by a few bytes; the record inside is
            // still found by its signature rather than losing the face.
            guard let template = BiometricTemplate(recoveringFrom: bytes, renderImages: renderImages) else {
                throw error
            }
            self.kind = kind
            rawBytes = bytes
            templates = [template]
            self.warnings =
                ["\(kind.rawValue) TLV structure is malformed (\(error.reason)); record found by its signature"]
                + template.record.warnings
            return
        }
        let group = outer.child(ASN1Tag(0x7F61)) ?? outer
        let templateNodes = group.children(ASN1Tag(0x7F60))
        if templateNodes.isEmpty { warnings.append("\(kind.rawValue) holds no biometric template (7F60)") }
        if let count = group.child(.integer).flatMap({ try? $0.intValue() }), count != templateNodes.count {
            warnings.append("\(kind.rawValue) announces \(count) templates, holds \(templateNodes.count)")
        }
        var templates: [BiometricTemplate] = []
        for node in templateNodes {
            let template = try BiometricTemplate(node, renderImages: renderImages)
            warnings += template.record.warnings
            templates.append(template)
        }
        self.kind = kind
        rawBytes = bytes
        self.templates = templates
        self.warnings = warnings
    }

    /// The reference's `EncodedIdentificationFeaturesFace` for DG2 (`faceImage`: the first image
    /// of the first record, and `records`) or `EncodedIdentificationFeatures` for DG3 and DG4
    /// (`records`). The file's bytes are in `ldsMasterFile`, not repeated here.
    public var json: JSONValue {
        var members = [JSONMember("records", .array(templates))]
        if kind == .dg2 {
            members.insert(JSONMember("faceImage", .optional(templates.first?.record.images.first?.image)), at: 0)
        }
        return .object(members)
    }
}

/// One biometric information template (7F60): its header and its record.
public struct BiometricTemplate: Sendable, Equatable, JSONRepresentable {
    public let header: BiometricHeader
    /// The biometric data block (5F2E content, or 7F2E content as read).
    public let dataBlock: [UInt8]
    public let record: BiometricRecord

    init(_ node: ASN1Node, renderImages: Bool) throws(LDSError) {
        let headerNode = node.children.first { $0.tag.tagClass == .contextSpecific && $0.isConstructed }
        header = BiometricHeader(headerNode)
        guard let block = node.child(ASN1Tag(0x5F2E)) ?? node.child(ASN1Tag(0x7F2E)) else {
            throw LDSError(.malformed, "biometric template without a data block (5F2E/7F2E)")
        }
        dataBlock = block.bytes
        record = BiometricRecord(dataBlock: dataBlock, renderImages: renderImages)
    }

    /// A template for the record found by its signature in a file whose TLVs do not parse: the
    /// data block runs from the signature to the end of the file, the header is unknown.
    init?(recoveringFrom bytes: [UInt8], renderImages: Bool) {
        let signatures: [[UInt8]] =
            [Array("FAC\0".utf8), Array("FIR\0".utf8), Array("IIR\0".utf8)] + imageSignatures
        guard let start = firstOccurrence(of: signatures, in: bytes) else { return nil }
        header = BiometricHeader(nil)
        dataBlock = Array(bytes[start...])
        record = BiometricRecord(dataBlock: dataBlock, renderImages: renderImages)
        if record.images.isEmpty { return nil }
    }

    /// The reference's `BiometricRecord`: the header's type, subtype and format, the images, the
    /// data block (`data`). Added: `standard` and `version` of the record, `imageDetails` (what
    /// the record says of each image, in `images` order) and the rest of the header.
    public var json: JSONValue {
        [
            "biometricType": .optional(header.biometricType), "biometricSubtype": .optional(header.biometricSubtype),
            "formatOwner": .optional(header.formatOwner), "formatType": .optional(header.formatType),
            "images": .array(record.images.map(\.image)), "data": .bytes(dataBlock),
            "standard": record.standard.json, "version": .optional(record.version),
            "imageDetails": .array(record.images),
            "header": header.json,
        ]
    }
}

/// The biometric header template (A1) of ISO/IEC 7816-11 as ICAO 9303-10 uses it.
public struct BiometricHeader: Sendable, Equatable, JSONRepresentable {
    /// 80: patron header version, e.g. 01 01.
    public let version: [UInt8]?
    /// 81: biometric type (2 face, 8 finger, 16 iris).
    public let biometricType: Int?
    /// 82: biometric subtype (finger or eye position bits).
    public let biometricSubtype: Int?
    /// 83: creation date and time (7 bytes, BCD).
    public let creationDateTime: [UInt8]?
    /// 85: validity period (8 bytes, BCD from/to).
    public let validityPeriod: [UInt8]?
    /// 86: creator (PID).
    public let creator: [UInt8]?
    /// 87: format owner (0x0101 ISO/IEC JTC 1/SC 37).
    public let formatOwner: Int?
    /// 88: format type (0x0008 face 19794-5, 0x0007 finger 19794-4, 0x0009 iris 19794-6, …).
    public let formatType: Int?

    init(_ node: ASN1Node?) {
        func bytes(_ number: UInt32) -> [UInt8]? {
            node?.child(.contextSpecific(number, constructed: false))?.bytes
        }
        func integer(_ number: UInt32) -> Int? {
            bytes(number).flatMap { $0.count <= 4 ? $0.reduce(0) { $0 << 8 | Int($1) } : nil }
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
