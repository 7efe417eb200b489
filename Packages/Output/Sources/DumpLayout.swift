import Emrtd
import Foundation
import LDS

/// The dump layout `emrtd read --out` and `emrtd dump` write and `emrtd verify`, `emrtd report`
/// and the simulator read back: each file read as `COM.bin`, `SOD.bin`, `DG1.bin`…, each image
/// as `face-1.jpg`… with `face-1.png` beside a JPEG 2000 one, and the CSCA that signed a
/// simulated document as `CSCA.der`.
public enum DumpLayout {
    /// The CSCA's file name in a dump (`--csca DIR/CSCA.der` verifies the dump later).
    public static let countrySigningCertificateName = "CSCA.der"

    /// Writes every file read and every image of `document` into `directory` (created), and
    /// `countrySigningCertificate` when given.
    public static func write(
        _ document: TravelDocument, to directory: URL, countrySigningCertificate: [UInt8]? = nil
    ) throws(OutputError) {
        try write(document.ldsMasterFile, to: directory)
        do {
            for (name, image) in namedImages(document) {
                try Data(image.bytes).write(
                    to: directory.appendingPathComponent("\(name).\(image.format.fileExtension)"))
                if let png = image.png { try Data(png).write(to: directory.appendingPathComponent("\(name).png")) }
            }
            if let countrySigningCertificate {
                try Data(countrySigningCertificate).write(
                    to: directory.appendingPathComponent(countrySigningCertificateName))
            }
        } catch {
            throw OutputError(.cannotWrite, "cannot write to \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Writes the files of `files` into `directory` (created): a failed read's files read before
    /// the failure (`ReadError.debugInfo.filesRead`), or a document's.
    public static func write(_ files: LdsMasterFile, to directory: URL) throws(OutputError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for kind in files.filesRead {
                guard let bytes = files[kind] else { continue }
                try Data(bytes).write(to: directory.appendingPathComponent(kind.dumpFileName))
            }
        } catch {
            throw OutputError(.cannotWrite, "cannot write to \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Every image of the document with its dump name (`face-1`, `fingerprint-1`, `iris-1`,
    /// `portrait-1`, `signature-1`).
    static func namedImages(_ document: TravelDocument) -> [(String, DocumentImage)] {
        let groups: [(String, [DocumentImage])] = [
            ("face", document.encodedIdentificationFeaturesFace?.images ?? []),
            ("fingerprint", document.encodedIdentificationFeaturesFinger?.images ?? []),
            ("iris", document.encodedIdentificationFeaturesIris?.images ?? []),
            ("portrait", document.displayedPortrait?.images ?? []),
            ("signature", document.displayedSignatureOrUsualMark?.images ?? []),
        ]
        return groups.flatMap { prefix, images in
            images.enumerated().map { ("\(prefix)-\($0.offset + 1)", $0.element) }
        }
    }
}
