import Files
import Foundation
import LDS

/// The files a simulated chip holds: EF.CardAccess and EF.CardSecurity in the master file, EF.COM,
/// EF.SOD and DG1–DG16 in the eMRTD application. Contents are served exactly as given (a chip is
/// BER, and tests feed it malformed files on purpose).
public struct ChipFiles: Sendable, Hashable {
    /// Application files by file identifier (EF.COM 011E, EF.SOD 011D, DGn 0100+n).
    public var application: [UInt16: [UInt8]]
    /// Master-file files by file identifier (EF.CardAccess 011C, EF.CardSecurity 011D).
    public var masterFile: [UInt16: [UInt8]]

    public init(application: [UInt16: [UInt8]] = [:], masterFile: [UInt16: [UInt8]] = [:]) {
        self.application = application
        self.masterFile = masterFile
    }

    /// The file identifier of EF.COM in the eMRTD application.
    public static let comIdentifier: UInt16 = 0x011E
    /// The file identifier of EF.SOD in the eMRTD application.
    public static let sodIdentifier: UInt16 = 0x011D
    /// The file identifier of EF.CVCA in the eMRTD application (SFI 1C): the chip's trust points.
    public static let cvcaIdentifier: UInt16 = 0x011C
    /// The file identifier of EF.CardAccess in the master file.
    public static let cardAccessIdentifier: UInt16 = 0x011C
    /// The file identifier of EF.CardSecurity in the master file.
    public static let cardSecurityIdentifier: UInt16 = 0x011D

    /// The file identifier of data group `number` (1–16).
    public static func dataGroupIdentifier(_ number: Int) -> UInt16 { 0x0100 + UInt16(number) }

    /// The short file identifier (SFI) of an application file: the low five bits of its FID
    /// (DGn → n, EF.SOD → 1D, EF.COM → 1E), as 9303-10 assigns them.
    static func shortIdentifier(of fileIdentifier: UInt16) -> UInt8 { UInt8(fileIdentifier & 0x1F) }

    public var com: [UInt8]? {
        get { application[Self.comIdentifier] }
        set { application[Self.comIdentifier] = newValue }
    }

    public var sod: [UInt8]? {
        get { application[Self.sodIdentifier] }
        set { application[Self.sodIdentifier] = newValue }
    }

    public var cardAccess: [UInt8]? {
        get { masterFile[Self.cardAccessIdentifier] }
        set { masterFile[Self.cardAccessIdentifier] = newValue }
    }

    /// EF.CardSecurity (PACE-CAM's signed SecurityInfos), in the MF beside EF.CardAccess.
    public var cardSecurity: [UInt8]? {
        get { masterFile[Self.cardSecurityIdentifier] }
        set { masterFile[Self.cardSecurityIdentifier] = newValue }
    }

    public subscript(dataGroup number: Int) -> [UInt8]? {
        get { application[Self.dataGroupIdentifier(number)] }
        set { application[Self.dataGroupIdentifier(number)] = newValue }
    }

    /// The names files have in a `dump` directory (LDS's `dumpFileName`), with where each one
    /// lives on the chip.
    static let dumpLayout: [(name: String, inMasterFile: Bool, fileIdentifier: UInt16)] =
        ([.cardAccess, .cardSecurity, .com, .sod] + (1...16).compactMap(LDSFileKind.dataGroup)).map { kind in
            (kind.dumpFileName, kind == .cardAccess || kind == .cardSecurity, kind.fileIdentifier)
        }

    /// Loads the files of a directory in the `emrtd dump` layout (`COM.bin`, `SOD.bin`,
    /// `DG1.bin`…`DG16.bin`, `CardAccess.bin`, `CardSecurity.bin`); absent files are absent on
    /// the chip. A directory holding none of them is an error, so a wrong path is not a blank chip.
    public init(directory: URL) throws(ChipSimulatorError) {
        self.init()
        for entry in Self.dumpLayout {
            let url = directory.appendingPathComponent(entry.name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let contents: [UInt8]
            do throws(FilesError) {
                contents = try CappedFile.read(
                    url.path, as: CappedFile.Kind("a chip file", limit: Self.maximumFileSize))
            } catch {
                throw ChipSimulatorError(error.reason)
            }
            if entry.inMasterFile {
                masterFile[entry.fileIdentifier] = contents
            } else {
                application[entry.fileIdentifier] = contents
            }
        }
        guard !(application.isEmpty && masterFile.isEmpty) else {
            throw ChipSimulatorError(
                "\(directory.path) holds no chip files (expected COM.bin, SOD.bin, DG1.bin, … as `emrtd dump` writes)")
        }
    }

    /// Writes the files in the `dump` layout (the inverse of `init(directory:)`), each through
    /// `AtomicFile`.
    public func write(to directory: URL) throws(ChipSimulatorError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ChipSimulatorError("cannot write chip files to \(directory.path): \(error.localizedDescription)")
        }
        do throws(FilesError) {
            for entry in Self.dumpLayout {
                let contents = entry.inMasterFile ? masterFile[entry.fileIdentifier] : application[entry.fileIdentifier]
                if let contents {
                    try AtomicFile.write(contents, to: directory.appendingPathComponent(entry.name).path)
                }
            }
        } catch {
            throw ChipSimulatorError(error.reason)
        }
    }

    /// Writes the files in the `dump` layout into `folder`, which the caller commits with
    /// whatever else it holds (a specimen's CSCA and keys).
    public func write(into folder: StagedFolder) throws(FilesError) {
        for entry in Self.dumpLayout {
            if let contents = entry.inMasterFile ? masterFile[entry.fileIdentifier] : application[entry.fileIdentifier]
            {
                try folder.write(contents, named: entry.name)
            }
        }
    }

    /// READ BINARY addresses at most 15 bits of offset with B0 and 32 bits with B1; files larger
    /// than an extended read's reach are far beyond any real chip.
    static let maximumFileSize = 16 * 1024 * 1024
}
