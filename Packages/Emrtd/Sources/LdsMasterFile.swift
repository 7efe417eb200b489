import Foundation
import JSON
import LDS

/// The file set of one document, the seam between the read's two halves: acquiring (a chip read,
/// or a dump folder, `DumpLayout.read`) gives it, `assembleTravelDocument` makes the document of
/// it. The raw bytes of every file, exactly as the chip sent them (hash these, never a
/// re-encoding): EF.CardAccess and EF.CardSecurity from the master file, EF.COM, EF.SOD and
/// DG1–DG16 from the eMRTD application. A file not read is nil; one the chip refused is also in
/// `deniedFiles`.
public struct LdsMasterFile: Sendable, Hashable, JSONRepresentable {
    /// EF.CardAccess (the PACE parameters), when the chip has one.
    public var cardAccess: Data?
    /// EF.CardSecurity, read for PACE-CAM.
    public var cardSecurity: Data?
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
            case .cardAccess: cardAccess.map { [UInt8]($0) }
            case .cardSecurity: cardSecurity.map { [UInt8]($0) }
            case .com: com
            case .sod: sod
            default: file.dataGroupNumber.flatMap { dataGroups[$0] }
            }
        }
        set {
            switch file {
            case .cardAccess: cardAccess = newValue.map { Data($0) }
            case .cardSecurity: cardSecurity = newValue.map { Data($0) }
            case .com: com = newValue
            case .sod: sod = newValue
            default: if let number = file.dataGroupNumber { dataGroups[number] = newValue }
            }
        }
    }

    /// The eMRTD application's files as the reference model has them: each `ElementaryFile` with
    /// its bytes, `bytes` nil for a file the chip refused, the file nil when the chip has none.
    /// The four mandatory files are always there in a document (a read without them fails); in
    /// the partial file set of a failed read, one not read has nil bytes.
    public var lds1EmrtdApplication: Lds1EmrtdApplication {
        func file(_ id: ElementaryFileId) -> ElementaryFile? {
            let bytes = self[id]
            guard bytes != nil || deniedFiles.contains(id) else { return nil }
            return ElementaryFile(id: id, bytes: bytes.map { Data($0) })
        }
        func mandatory(_ id: ElementaryFileId) -> ElementaryFile { file(id) ?? ElementaryFile(id: id, bytes: nil) }
        return Lds1EmrtdApplication(
            com: mandatory(.com), sod: mandatory(.sod), dg1: mandatory(.dg1), dg2: mandatory(.dg2),
            dg3: file(.dg3), dg4: file(.dg4), dg5: file(.dg5), dg7: file(.dg7), dg8: file(.dg8),
            dg9: file(.dg9), dg10: file(.dg10), dg11: file(.dg11), dg12: file(.dg12), dg13: file(.dg13),
            dg14: file(.dg14), dg15: file(.dg15), dg16: file(.dg16))
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
            "cardAccess": .optional(self[.cardAccess]),
            "cardSecurity": .optional(self[.cardSecurity]),
        ]
    }

    /// The reference's `ElementaryFileId`s: EF.COM, EF.SOD and the data groups but DG6.
    static let applicationFiles: [LDSFileKind] =
        [.com, .sod] + (1...16).filter { $0 != 6 }.compactMap(LDSFileKind.dataGroup)
}
