import Emrtd
import Files
import Foundation
import LDS
import MRZ

/// The dump layout `emrtd read --out` and `emrtd dump` write and `emrtd verify`, `emrtd report`
/// (`read`) and the simulator read back: each file read as `COM.bin`, `SOD.bin`, `DG1.bin`…, each image
/// as `face-1.jpg`… with `face-1.png` beside a JPEG 2000 one, and the CSCA that signed a
/// simulated document as `CSCA.der`.
///
/// A dump is written whole into a fresh directory beside its own (`StagedFolder`) and swapped in,
/// so a failure leaves the old dump as it was, and a replaced dump leaves none of its files
/// behind. What a dump may replace is `Replacing`'s rule; a directory holding anything emrtd did
/// not write is never replaced.
public enum DumpLayout {
    /// The CSCA's file name in a dump (`--csca DIR/CSCA.der` verifies the dump later).
    public static let countrySigningCertificateName = "CSCA.der"
    /// What the read proved beyond the files (`AcquisitionEvidence`, the schema in the README).
    public static let evidenceName = "evidence.json"
    /// The largest `evidence.json` read back: a few keys, signatures and certificate names.
    static let maximumEvidenceSize = 1 << 20

    /// The largest file of a dump, and of an LDS file read: an elementary file's size is at
    /// most a 3-byte BER length (16 MiB); real ones, fingerprints included, stay far below.
    public static let maximumFileSize = 16 << 20

    /// A file of a dump.
    public struct File: Sendable {
        public let name: String
        public let bytes: [UInt8]
        /// The new file's permissions (less the umask): `0o600` for private keys.
        public let mode: mode_t

        public init(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o666) {
            self.name = name
            self.bytes = bytes
            self.mode = mode
        }
    }

    /// Which dump already in the folder a new one may replace. A dump is "of the same
    /// document" when both DG1s name the same issuing state and document number.
    public enum Replacing: Sendable {
        /// A dump of the same document (a re-read), or an empty folder.
        case sameDocument
        /// Any dump (`--replace`).
        case anyDump
        /// Only an empty folder: the files of a failed read never replace a dump.
        case nothing
    }

    /// Writes every file read and every image of `document`, with `extraFiles` (the
    /// simulator's CSCA, its chip's keys), as the folder `directory`.
    public static func write(
        _ document: TravelDocument, to directory: String, extraFiles: [File] = [], replacing: Replacing
    ) throws(OutputError) {
        var files = files(of: document.ldsMasterFile)
        if let evidence = document.acquisitionEvidence { files.append(File(evidenceName, try encoded(evidence))) }
        for (name, image) in namedImages(document) {
            files.append(File("\(name).\(image.format.fileExtension)", [UInt8](image.bytes)))
            if let png = image.png { files.append(File("\(name).png", [UInt8](png))) }
        }
        try write(files + extraFiles, dataGroup1: document.ldsMasterFile[.dg1], to: directory, replacing: replacing)
    }

    /// Writes the files of `masterFile` as the folder `directory`: a failed read's files read
    /// before the failure (`ReadError.debugInfo.filesRead`), or a document's.
    public static func write(
        _ masterFile: LdsMasterFile, to directory: String, replacing: Replacing
    ) throws(OutputError) {
        try write(files(of: masterFile), dataGroup1: masterFile[.dg1], to: directory, replacing: replacing)
    }

    private static func files(of masterFile: LdsMasterFile) -> [File] {
        masterFile.filesRead.compactMap { kind in masterFile[kind].map { File(kind.dumpFileName, $0) } }
    }

    private static func write(
        _ files: [File], dataGroup1: [UInt8]?, to directory: String, replacing: Replacing
    ) throws(OutputError) {
        try checkReplaceable(directory, newDataGroup1: dataGroup1, replacing: replacing)
        do throws(FilesError) {
            let folder = try StagedFolder(for: directory)
            for file in files { try folder.write(file.bytes, named: file.name, mode: file.mode) }
            try folder.commit()
        } catch {
            throw OutputError(.cannotWrite, error.reason)
        }
    }

    /// A dump folder read back: its file set (`LdsMasterFile`, the first half of `emrtd verify`,
    /// `verify --batch` and `report`, whose second half is the same as a chip read's), and what the
    /// folder holds that is not in the layout (a misnamed `dg1.bin` is named, never silently left
    /// out). Each file is read to `maximumFileSize`; a file the layout names that is missing is
    /// absent from the set (the assembly says which mandatory one).
    public static func read(_ directory: String) throws(OutputError) -> (files: LdsMasterFile, notes: [String]) {
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw OutputError(
                .cannotRead, "\(directory) is not a directory (a dump folder, the layout `emrtd dump` writes)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw OutputError(.cannotRead, "cannot list \(directory): \(error.localizedDescription)")
        }
        var named: [String: [UInt8]] = [:]
        for kind in LDSFileKind.allCases where names.contains(kind.dumpFileName) {
            do throws(FilesError) {
                named[kind.dumpFileName] = try CappedFile.read(
                    directory + "/" + kind.dumpFileName, as: CappedFile.Kind("an LDS file", limit: maximumFileSize))
            } catch {
                throw OutputError(error.code == .tooLarge ? .tooLarge : .cannotRead, error.reason)
            }
        }
        return files(named: named, otherNames: names.filter { named[$0] == nil })
    }

    /// `evidence.json` as written: keys sorted, two-space indent, bytes in base64.
    static func encoded(_ evidence: AcquisitionEvidence) throws(OutputError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(evidence))
        } catch {
            throw OutputError(.cannotWrite, "the read's evidence cannot be written: \(error.localizedDescription)")
        }
    }

    /// A dump's `evidence.json`; nil when the folder has none (older dumps, other tools' dumps).
    /// One of a newer schema, or not this schema at all, is refused with a reason.
    public static func readEvidence(_ directory: String) throws(OutputError) -> AcquisitionEvidence? {
        let path = directory + "/" + evidenceName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes: [UInt8]
        do throws(FilesError) {
            bytes = try CappedFile.read(path, as: CappedFile.Kind("the read's evidence", limit: maximumEvidenceSize))
        } catch {
            throw OutputError(error.code == .tooLarge ? .tooLarge : .cannotRead, error.reason)
        }
        return try decodedEvidence(bytes)
    }

    /// `evidence.json`'s bytes as evidence (a folder's, or a host's through the C ABI).
    public static func decodedEvidence(_ bytes: [UInt8]) throws(OutputError) -> AcquisitionEvidence {
        struct Version: Decodable { let version: Int }
        let decoder = JSONDecoder()
        guard let version = try? decoder.decode(Version.self, from: Data(bytes)).version else {
            throw OutputError(.cannotRead, "\(evidenceName) holds no schema version: it is not a read's evidence")
        }
        guard version <= AcquisitionEvidence.currentVersion else {
            throw OutputError(
                .cannotRead,
                "\(evidenceName) is of schema version \(version), newer than this reader's "
                    + "\(AcquisitionEvidence.currentVersion): update emrtd to check it")
        }
        do {
            return try decoder.decode(AcquisitionEvidence.self, from: Data(bytes))
        } catch {
            throw OutputError(.cannotRead, "\(evidenceName) does not follow its schema: \(error)")
        }
    }

    /// The file set of files named as a dump names them (`SOD.bin`, `DG1.bin` …: a folder's, or a
    /// host's files in memory through the C ABI), and a note for each other `.bin` name.
    public static func files(named: [String: [UInt8]], otherNames: [String] = []) -> (
        files: LdsMasterFile, notes: [String]
    ) {
        var files = LdsMasterFile()
        for kind in LDSFileKind.allCases {
            if let bytes = named[kind.dumpFileName] { files[kind] = bytes }
        }
        let layout = Set(LDSFileKind.allCases.map(\.dumpFileName))
        let others = Set(otherNames + named.keys.filter { !layout.contains($0) })
        let notes = others.filter { $0.lowercased().hasSuffix(".bin") }.sorted().map {
            "\($0) is not a file name of the dump layout (COM.bin, SOD.bin, DG1.bin … DG16.bin) and was not checked"
        }
        return (files, notes)
    }

    /// Refuses a destination no dump may replace, whatever it is of: anything but a directory
    /// (a symbolic link included), or a directory holding files emrtd did not write. A caller
    /// checks it before a read, so as not to read a chip for nothing. Returns whether a dump (or
    /// anything) is there.
    @discardableResult
    public static func checkDestination(_ directory: String) throws(OutputError) -> Bool {
        do throws(FilesError) {
            guard try StagedFolder.existsAsDirectory(directory) else { return false }
        } catch {
            throw OutputError(.cannotWrite, error.reason)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw OutputError(.cannotRead, "cannot list \(directory): \(error.localizedDescription)")
        }
        let foreign = names.filter { !isDumpFileName($0) }
        guard foreign.isEmpty else {
            throw OutputError(
                .occupied,
                "\(directory) holds files emrtd did not write (\(foreign.prefix(3).joined(separator: ", "))"
                    + (foreign.count > 3 ? ", …" : "") + "): not replaced; give a new or empty directory")
        }
        return !names.isEmpty
    }

    /// Refuses to replace a directory holding anything emrtd did not write, or a dump that
    /// `replacing` does not allow.
    static func checkReplaceable(
        _ directory: String, newDataGroup1: [UInt8]?, replacing: Replacing
    ) throws(OutputError) {
        guard try checkDestination(directory) else { return }
        switch replacing {
        case .anyDump:
            return
        case .nothing:
            throw OutputError(.occupied, "\(directory) holds a dump already, kept as it was")
        case .sameDocument:
            let old = try? CappedFile.read(
                directory + "/" + LDSFileKind.dg1.dumpFileName,
                as: CappedFile.Kind("an LDS file", limit: maximumFileSize))
            let (oldDocument, newDocument) = (old.flatMap(documentName), newDataGroup1.flatMap(documentName))
            if let oldDocument, oldDocument == newDocument { return }
            throw OutputError(
                .occupied,
                "\(directory) holds the dump of "
                    + (oldDocument.map { "another document (\($0), this one is \(newDocument ?? "unnamed"))" }
                        ?? "a document without a readable DG1")
                    + ", not replaced: --replace replaces it")
        }
    }

    /// The document a DG1 names: its issuing state and document number ("UTO L898902C").
    static func documentName(_ dataGroup1: [UInt8]) -> String? {
        guard let fields = try? MRZDataGroup(dataGroup1).machineReadableZone.fields else { return nil }
        return "\(fields.issuingState) \(fields.documentNumber)"
    }

    /// The names emrtd writes into a dump's folder: the layout's files, the images, the
    /// simulator's `.der` files (its CSCA, its chip's keys) and reports (`report.html`).
    static func isDumpFileName(_ name: String) -> Bool {
        if LDSFileKind.allCases.contains(where: { $0.dumpFileName == name }) || name == evidenceName { return true }
        if name.hasSuffix(".der") || name.hasSuffix(".html") { return !name.hasPrefix(".") }
        let parts = name.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let dash = parts[0].lastIndex(of: "-") else { return false }
        let (prefix, number) = (parts[0][..<dash], parts[0][parts[0].index(after: dash)...])
        return imagePrefixes.contains(String(prefix)) && !number.isEmpty
            && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The dump names' prefixes of the images, in `namedImages`' order.
    private static let imagePrefixes = ["face", "fingerprint", "iris", "portrait", "signature"]

    /// Every image of the document with its dump name (`face-1`, `fingerprint-1`, `iris-1`,
    /// `portrait-1`, `signature-1`).
    static func namedImages(_ document: TravelDocument) -> [(String, DocumentImage)] {
        let groups: [[DocumentImage]] = [
            document.encodedIdentificationFeaturesFace.images,
            document.encodedIdentificationFeaturesFinger?.images ?? [],
            document.encodedIdentificationFeaturesIris?.images ?? [],
            document.displayedPortrait?.images ?? [],
            document.displayedSignatureOrUsualMark?.images ?? [],
        ]
        return zip(imagePrefixes, groups).flatMap { prefix, images in
            images.enumerated().map { ("\(prefix)-\($0.offset + 1)", $0.element) }
        }
    }
}
