import ASN1

/// ISO/IEC 39794-4/-5/-6 records: DER, under [APPLICATION 4|5|6] (in DG2 wrapped in a [1]
/// choice). Enough is read to expose the version and every representation's image: the image
/// data is the first primitive element of a representation whose bytes are an image file.
///
/// ```
/// FaceImageDataBlock ::= [APPLICATION 5] SEQUENCE { versionBlock [0] { generation [0], year [1] },
///     representationBlocks [1] SEQUENCE OF RepresentationBlock, … }
/// ```
enum ISO39794 {
    static func record(_ block: ASN1Node, render: Bool) -> BiometricRecord? {
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
            if let data = imageData(in: representation) {
                images.append(BiometricImage(image: DocumentImage(bytes: data, render: render)))
            } else {
                warnings.append("39794 representation \(index + 1) holds no recognised image")
            }
        }
        return BiometricRecord(standard: standard, version: version, images: images, warnings: warnings)
    }

    /// An IMPLICIT-tagged INTEGER's value (small, non-negative ones as 39794 uses them).
    private static func unsignedValue(_ node: ASN1Node) -> Int? {
        guard !node.content.isEmpty, node.content.count <= 4 else { return nil }
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
