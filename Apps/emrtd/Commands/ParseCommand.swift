import CMS
import Files
import Foundation
import JSON
import LDS

/// `emrtd parse`: one LDS file (EF.COM, EF.SOD, a data group, EF.CardAccess, EF.CardSecurity) as JSON.
enum ParseCommand: Command {
    static let name = "parse"
    static let printsOnlyJSON = true
    static let summary = "parse an LDS file (EF.COM, EF.SOD, DG1–DG16, EF.CardAccess, EF.CardSecurity) as JSON"
    static let usage = """
        usage: emrtd parse FILE [--as KIND] [--images DIR] [--no-render]

        Prints the file's model as JSON: {"kind", "model", "warnings"}. The kind is guessed from
        the first byte (60 COM, 61 DG1, 75 DG2 … 70 DG16, 77 SOD, 31 CardAccess, 30 CardSecurity)
        unless --as gives it: com, sod, dg1 … dg16, cardAccess (or cardaccess), cardSecurity.
        --images DIR writes every image of the file into DIR (.jpg, .jp2, .j2k, .wsq, …) and,
        for JPEG 2000, its PNG rendering next to it. --no-render leaves JPEG 2000 images
        unrendered ("png": null): the image's bytes, format and size are kept.
        Exit status: 0 parsed, 1 unreadable or not parseable, 2 wrong command line.
        """

    /// What a parsed file prints and writes.
    struct Parsed {
        let json: JSONValue
        let warnings: [String]
        let images: [DocumentImage]
    }

    /// How each kind is parsed: the one dispatch table. EF.SOD is the CMS package's (its
    /// signature is `emrtd verify`'s business; this shows what it holds).
    static func parser(for kind: LDSFileKind, renderImages: Bool) -> ([UInt8]) throws -> Parsed {
        switch kind {
        case .sod:
            { bytes in Parsed(json: try DocumentSecurityObject(bytes: bytes).json, warnings: [], images: []) }
        default:
            { bytes in
                let model = try LDSFileParser.parse(bytes, as: kind, renderImages: renderImages)
                return Parsed(json: model.json, warnings: model.warnings, images: model.images)
            }
        }
    }

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let kindName = try arguments.option("--as")
        let imageDirectory = try arguments.option("--images")
        let renderImages = !arguments.flag("--no-render")
        guard let path = try arguments.positionals(atMost: 1).first else { throw UsageError("give one FILE") }
        let bytes = try readFile(path, limit: InputLimit.ldsFile, what: "an LDS file")
        let kind: LDSFileKind
        if let kindName {
            guard let named = LDSFileKind.allCases.first(where: { $0.rawValue.lowercased() == kindName.lowercased() })
            else { throw UsageError("unknown kind '\(kindName)'") }
            kind = named
        } else {
            guard let guessed = LDSFileKind.guess(from: bytes) else {
                let first = bytes.first.map { String(format: "%02X", $0) } ?? "nothing"
                throw CommandFailure("\(path): no LDS file starts with \(first); give --as KIND")
            }
            kind = guessed
        }
        let parsed: Parsed
        do {
            parsed = try parser(for: kind, renderImages: renderImages)(bytes)
        } catch let error as LDSError {
            throw CommandFailure(
                "\(path) is not a readable \(kind.dumpName): \(error.reason)" + found(bytes, not: kind))
        } catch let error as CMSError {
            throw CommandFailure(
                "\(path) is not a readable \(kind.dumpName): \(error.reason)" + found(bytes, not: kind))
        }
        if let imageDirectory {
            try write(parsed.images, kind: kind, to: imageDirectory)
        }
        let output: JSONValue = [
            "kind": kind.json, "model": parsed.json, "warnings": .array(parsed.warnings.map(JSONValue.string)),
        ]
        print(output.serialized(pretty: true))
        return 0
    }

    /// What the file looks like when it is not the kind it was parsed as, for the error message.
    private static func found(_ bytes: [UInt8], not kind: LDSFileKind) -> String {
        guard let other = LDSFileKind.guess(from: bytes), other != kind else { return "" }
        return " (its first tag is \(other.dumpName)'s: try --as \(other.rawValue))"
    }

    /// Writes the images as `<kind>-<n>.<ext>` and JPEG 2000 renderings as `<kind>-<n>.png`, each
    /// through `AtomicFile`.
    private static func write(_ images: [DocumentImage], kind: LDSFileKind, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(directory): \(fileSystemWords(error))")
        }
        let folder = URL(fileURLWithPath: directory)
        do throws(FilesError) {
            for (index, image) in images.enumerated() {
                let base = folder.appendingPathComponent("\(kind.rawValue)-\(index + 1)").path
                try AtomicFile.write([UInt8](image.bytes), to: "\(base).\(image.format.fileExtension)")
                if let png = image.png { try AtomicFile.write([UInt8](png), to: "\(base).png") }
            }
        } catch {
            throw CommandFailure(error.reason)
        }
    }
}
