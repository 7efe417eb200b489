import JSON
import LDS

/// The file set of one document, the seam between the read's two halves: acquiring (a chip read,
/// or a dump folder, `DumpLayout.read`) gives it, `assembleTravelDocument` makes the document of
/// it. The raw bytes of every file, exactly as the chip sent them (hash these, never a
/// re-encoding): EF.CardAccess and EF.CardSecurity from the master file, EF.COM, EF.SOD and
/// DG1–DG16 from the eMRTD application. A file not read is nil; one the chip refused is also in
/// `deniedFiles`.
public struct LdsMasterFile: Sendable, Hashable, JSONRepresentable {
    public var cardAccess: [UInt8]?
    public var cardSecurity: [UInt8]?
    public var com: [UInt8]?
    public var sod: [UInt8]?
    /// DG1…DG16 by number.
    public var dataGroups: [Int: [UInt8]]
    /// The files the chip refused (6982: DG3/DG4 without Extended Access Control), in the order
    /// it refused them.
    public var deniedFiles: [LDSFileKind]

    public init() {
        dataGroups = [:]
        deniedFiles = []
    }

    public subscript(file: LDSFileKind) -> [UInt8]? {
        get {
            switch file {
            case .cardAccess: cardAccess
            case .cardSecurity: cardSecurity
            case .com: com
            case .sod: sod
            default: file.dataGroupNumber.flatMap { dataGroups[$0] }
            }
        }
        set {
            switch file {
            case .cardAccess: cardAccess = newValue
            case .cardSecurity: cardSecurity = newValue
            case .com: com = newValue
            case .sod: sod = newValue
            default: if let number = file.dataGroupNumber { dataGroups[number] = newValue }
            }
        }
    }

    /// The files that were read, in `LDSFileKind` order (EF.COM, EF.SOD, DG1…DG16, EF.CardAccess,
    /// EF.CardSecurity).
    public var filesRead: [LDSFileKind] { LDSFileKind.allCases.filter { self[$0] != nil } }

    /// The reference's `LdsMasterFile`: `lds1EmrtdApplication` (`com`, `sod`, `dg1`…`dg16`
    /// without `dg6`, each an `ElementaryFile` `{"id", "bytes"}`), `cardAccess`, `cardSecurity`.
    /// A file the chip refused (6982) is `{"id", "bytes": null}`; a file not on the chip is
    /// `null` (a document always has the mandatory four: a read without them fails).
    public var json: JSONValue {
        let application = Self.applicationFiles.map { file -> JSONMember in
            let bytes = self[file]
            let present = bytes != nil || deniedFiles.contains(file)
            return JSONMember(
                file.rawValue, present ? ["id": file.json, "bytes": .optional(bytes)] : .null)
        }
        return [
            "lds1EmrtdApplication": .object(application),
            "cardAccess": .optional(cardAccess),
            "cardSecurity": .optional(cardSecurity),
        ]
    }

    /// The reference's `ElementaryFileId`s: EF.COM, EF.SOD and the data groups but DG6.
    static let applicationFiles: [LDSFileKind] =
        [.com, .sod] + (1...16).filter { $0 != 6 }.compactMap(LDSFileKind.dataGroup)
}
