import LDS

/// The `emrtd dump` layout, one file per elementary file, named in one place: `dump` and
/// `read --out` write it, `verify --dir` reads it (as does the simulator, with its own copy of
/// these names in ChipSimulator's `ChipFiles`).
extension LDSFileKind {
    /// `COM`, `SOD`, `DG1` … `DG16`, `CardAccess`, `CardSecurity`: the file's name without `.bin`,
    /// as `dump` prints it beside each outcome.
    var dumpName: String {
        switch self {
        case .com: "COM"
        case .sod: "SOD"
        case .cardAccess: "CardAccess"
        case .cardSecurity: "CardSecurity"
        default: rawValue.uppercased()
        }
    }

    /// The file holding this elementary file, outer tag and length included.
    var dumpFileName: String { dumpName + ".bin" }
}
