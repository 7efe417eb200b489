import JSON

/// The entry points that pick a file's model by its kind.
public enum LDSFileParser {
    /// Parses a file as `kind`. EF.SOD is refused (`.unsupported`): the CMS package models it.
    /// JPEG 2000 images are rendered to PNG unless `renderImages` is false: rendering a face costs
    /// far more than parsing its data group, and a caller keeping the chip's bytes may not want it.
    public static func parse(_ bytes: [UInt8], as kind: LDSFileKind, renderImages: Bool = true) throws(LDSError)
        -> any LDSFileModel
    {
        switch kind {
        case .com: return try CommonFile(bytes)
        case .dg1: return try MRZDataGroup(bytes)
        case .dg2: return try EncodedIdentificationFeaturesFace(bytes, renderImages: renderImages)
        case .dg3, .dg4: return try EncodedIdentificationFeatures(bytes, kind: kind, renderImages: renderImages)
        case .dg5: return try DisplayedPortrait(bytes, renderImages: renderImages)
        case .dg7: return try DisplayedSignatureOrUsualMark(bytes, renderImages: renderImages)
        case .dg6, .dg8, .dg9, .dg10: return try RawDataGroup(bytes, kind: kind)
        case .dg11: return try AdditionalPersonalDetails(bytes, renderImages: renderImages)
        case .dg12: return try AdditionalDocumentDetails(bytes, renderImages: renderImages)
        case .dg13: return try OptionalDetails(bytes)
        case .dg14, .cardAccess: return try SecurityOptions(bytes, kind: kind)
        case .dg15: return try ActiveAuthenticationPublicKey(bytes)
        case .dg16: return try PersonsToNotify(bytes)
        case .cardSecurity: return try CardSecurity(bytes)
        case .sod: throw LDSError(.unsupported, "EF.SOD is modelled by the CMS package")
        }
    }

    /// Parses a file without throwing: a file that cannot be parsed gives a nil model and a
    /// warning (for optional data groups, which never fail a read).
    public static func parseLeniently(_ bytes: [UInt8], as kind: LDSFileKind, renderImages: Bool = true)
        -> LDSParseResult
    {
        do {
            let model = try parse(bytes, as: kind, renderImages: renderImages)
            return LDSParseResult(kind: kind, model: model, warnings: model.warnings.map { "\(kind.rawValue): \($0)" })
        } catch {
            return LDSParseResult(kind: kind, model: nil, warnings: [failureWarning(kind, error)])
        }
    }

    /// Runs a typed parse (e.g. `AdditionalPersonalDetails.init`) without throwing: the model and
    /// its warnings, or nil and a warning saying why.
    public static func leniently<Model: LDSFileModel>(
        _ kind: LDSFileKind, _ parse: () throws(LDSError) -> Model
    ) -> (model: Model?, warnings: [String]) {
        do {
            let model = try parse()
            return (model, model.warnings.map { "\(kind.rawValue): \($0)" })
        } catch {
            return (nil, [failureWarning(kind, error)])
        }
    }

    private static func failureWarning(_ kind: LDSFileKind, _ error: LDSError) -> String {
        "\(kind.rawValue) not parsed (\(error.code.rawValue)): \(error.reason)"
    }
}

/// A file's model, or nil and the warning saying why not.
public struct LDSParseResult: Sendable, JSONRepresentable {
    public let kind: LDSFileKind
    public let model: (any LDSFileModel)?
    public let warnings: [String]

    public var json: JSONValue {
        [
            "kind": kind.json,
            "model": model?.json ?? .null,
            "warnings": .array(warnings.map(JSONValue.string)),
        ]
    }
}
