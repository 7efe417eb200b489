import LDS

/// One target per LDS file that has a parser of its own (DG6 and DG8–DG10 stay raw), fed as the
/// reader feeds it: the lenient parse (a model, or nil and a warning), then the JSON it prints.
/// Images are not rendered here: decoding a face costs a hundred times its data group's parse,
/// and the `jpeg2000` target fuzzes rendering on its own.
let ldsFileTargets: [FuzzTarget] = [
    LDSFileKind.com, .dg1, .dg2, .dg3, .dg4, .dg5, .dg7, .dg11, .dg12, .dg13, .dg14, .dg15, .dg16, .cardAccess,
    .cardSecurity,
].map { kind in
    FuzzTarget(name: kind.rawValue) { input in
        let result = LDSFileParser.parseLeniently(input, as: kind, renderImages: false)
        fuzzCheck(result.model != nil || !result.warnings.isEmpty, "\(kind) failed without a warning")
        _ = result.json.serialized()
    }
}

/// A biometric data block on its own (ISO/IEC 19794-4/5/6, 39794-4/5/6, a bare image): the
/// record, its image headers and images, as DG2–DG4 hand them over (not rendered, as above).
let biometricTarget = FuzzTarget(name: "biometric") { input in
    _ = BiometricDataBlock(input, renderImages: false).json.serialized()
}

/// An image as a chip stores it: format detection, the header's pixel size and, for JPEG 2000,
/// decoding through OpenJPEG and encoding the PNG rendering.
let jpeg2000Target = FuzzTarget(name: "jpeg2000") { input in
    let image = DocumentImage(bytes: input)
    fuzzCheck(
        !image.format.isJPEG2000 || image.png != nil || image.renderingFailure != nil,
        "JPEG 2000 neither rendered nor refused")
    _ = image.json.serialized()
}
