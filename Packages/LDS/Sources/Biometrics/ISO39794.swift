import ASN1

/// ISO/IEC 39794-4/-5/-6 records: DER, under [APPLICATION 4|5|6] (in DG2 wrapped in a [1]
/// choice). Every record's version and every representation's image are read; finger (-4) and
/// iris (-6) representations are also read into `FingerImageInfo` and `IrisImageInfo` (their
/// docs say which blocks are not modelled). A face's image data is the first primitive element
/// of a representation whose bytes are an image file.
///
/// ```
/// FaceImageDataBlock ::= [APPLICATION 5] SEQUENCE { versionBlock [0] { generation [0], year [1] },
///     representationBlocks [1] SEQUENCE OF RepresentationBlock, … }
/// ```
///
/// Codes are CHOICEs of a code and an extension block (`position [0] { code [0] INTEGER }`); an
/// extension block, whose meaning the standard leaves to later editions, reads as no code.
enum ISO39794 {
    static func record(_ block: ASN1Node, render: Bool) -> BiometricDataBlock? {
        guard let record = find(block) else { return nil }
        let standard: BiometricStandard =
            switch record.tag.number {
            case 4: .iso39794Finger
            case 5: .iso39794Face
            default: .iso39794Iris
            }
        let versionBlock = record.child(.contextSpecific(0, constructed: true))
        let generation = versionBlock?.child(.contextSpecific(0, constructed: false)).flatMap(unsignedValue)
        let year = versionBlock?.child(.contextSpecific(1, constructed: false)).flatMap(unsignedValue)
        let version = generation.map { "\($0)/\(year.map(String.init) ?? "?")" }
        let representations = record.child(.contextSpecific(1, constructed: true))?.children ?? []
        var warnings: [String] = []
        var images: [BiometricImage] = []
        for (index, representation) in representations.enumerated() {
            // A finger or iris without its image data element still shows any image it holds.
            let typed: BiometricImage? =
                switch standard {
                case .iso39794Finger: finger(representation, render: render)
                case .iso39794Iris: iris(representation, render: render)
                default: nil
                }
            let image =
                typed
                ?? imageData(in: representation).map { BiometricImage(image: DocumentImage(bytes: $0, render: render)) }
            if let image {
                images.append(image)
            } else {
                warnings.append("39794 representation \(index + 1) holds no recognised image")
            }
        }
        return BiometricDataBlock(standard: standard, version: version, images: images, warnings: warnings)
    }

    /// A 39794-4 representation: position [0], impression [1], imageDataFormat [2] (0 PGM, 1 WSQ,
    /// 2/3 JPEG 2000, 4 PNG), imageData [3], captureDateTimeBlock [4], qualityBlocks [6].
    private static func finger(_ representation: ASN1Node, render: Bool) -> BiometricImage? {
        guard let data = element(3, of: representation), !data.isConstructed, !data.content.isEmpty,
            let position = code(0, of: representation)
        else { return nil }
        let format = code(2, of: representation)
        let declaredFormat: ImageFormat =
            switch format {
            case 1: .wsq
            case 2, 3: .jpeg2000
            case 4: .png
            default: .unknown
            }
        let info = FingerImageInfo(
            positionCode: position, impressionCode: code(1, of: representation) ?? 0,
            quality: qualityScore(element(6, of: representation)), dataFormatCode: format,
            captureDateTime: captureDateTime(element(4, of: representation)))
        let image = DocumentImage(bytes: data.bytes, declaredFormat: declaredFormat, render: render)
        return BiometricImage(image: image, finger: info)
    }

    /// A 39794-6 representation: eyeLabelCode [0], irisImageKind [1], bitDepth [2],
    /// imageDataFormat [3] (0 PGM, 1 PPM, 2 PNG, 3/4 JPEG 2000), captureDateTimeBlock [7],
    /// irisImageData [8], qualityBlocks [11], rollAngleBlock [12] { angle [0], uncertainty [1] }.
    private static func iris(_ representation: ASN1Node, render: Bool) -> BiometricImage? {
        guard let data = element(8, of: representation), !data.isConstructed, !data.content.isEmpty else {
            return nil
        }
        let format = code(3, of: representation)
        let declaredFormat: ImageFormat =
            switch format {
            case 2: .png
            case 3, 4: .jpeg2000
            default: .unknown
            }
        let roll = element(12, of: representation)
        let info = IrisImageInfo(
            eyeCode: code(0, of: representation) ?? 0, quality: qualityScore(element(11, of: representation)),
            rotationAngle: roll.flatMap { code(0, of: $0) }, rotationUncertainty: roll.flatMap { code(1, of: $0) },
            imageKind: code(1, of: representation), bitDepth: code(2, of: representation), dataFormatCode: format,
            captureDateTime: captureDateTime(element(7, of: representation)))
        let image = DocumentImage(bytes: data.bytes, declaredFormat: declaredFormat, render: render)
        return BiometricImage(image: image, iris: info)
    }

    /// The [number] element of a SEQUENCE of context-tagged elements, primitive or constructed.
    private static func element(_ number: UInt32, of node: ASN1Node) -> ASN1Node? {
        node.children.first { $0.tag.tagClass == .contextSpecific && $0.tag.number == number }
    }

    /// An element's integer: its own value when primitive, else its code [0] (a CHOICE of a code
    /// and an extension block).
    private static func code(_ number: UInt32, of node: ASN1Node) -> Int? {
        guard let element = element(number, of: node) else { return nil }
        if !element.isConstructed { return unsignedValue(element) }
        return element.child(.contextSpecific(0, constructed: false)).flatMap(unsignedValue)
    }

    /// CaptureDateTimeBlock: year [0], month [1], day [2], then optional hour … millisecond.
    private static func captureDateTime(_ node: ASN1Node?) -> BiometricCaptureDateTime? {
        guard let node, node.isConstructed, let year = code(0, of: node), let month = code(1, of: node),
            let day = code(2, of: node)
        else { return nil }
        return BiometricCaptureDateTime(
            year: year, month: month, day: day, hour: code(3, of: node), minute: code(4, of: node),
            second: code(5, of: node), millisecond: code(6, of: node))
    }

    /// The first score of QualityBlocks ::= SEQUENCE OF SEQUENCE { algorithm [0],
    /// scoreOrError [1] CHOICE { score [0] INTEGER, error [1] … } }; nil when none has a score.
    private static func qualityScore(_ node: ASN1Node?) -> Int? {
        node?.children.lazy.compactMap { block in element(1, of: block).flatMap { code(0, of: $0) } }.first
    }

    /// An IMPLICIT-tagged INTEGER's value (small, non-negative ones as 39794 uses them).
    private static func unsignedValue(_ node: ASN1Node) -> Int? {
        guard !node.isConstructed, !node.content.isEmpty, node.content.count <= 4 else { return nil }
        return node.content.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The [APPLICATION 4|5|6] node: the block itself, or a child of it (DG2's [1] wrapper).
    private static func find(_ node: ASN1Node) -> ASN1Node? {
        func isRecord(_ node: ASN1Node) -> Bool {
            node.tag.tagClass == .application && node.isConstructed && (4...6).contains(node.tag.number)
        }
        if isRecord(node) { return node }
        if let direct = node.children.first(where: isRecord) { return direct }
        return node.children.lazy.flatMap(\.children).first(where: isRecord)
    }

    private static func imageData(in node: ASN1Node) -> [UInt8]? {
        if !node.isConstructed {
            return ImageFormat.detect(node.content) == .unknown ? nil : node.bytes
        }
        return node.children.lazy.compactMap(imageData).first
    }
}
