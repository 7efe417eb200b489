/// The `emrtd dump` layout, one file per elementary file, named in one place: `emrtd dump` and
/// `read --out` write it, `verify --dir` and the simulator's `ChipFiles(directory:)` read it.
extension LDSFileKind {
    /// `COM`, `SOD`, `DG1` … `DG16`, `CardAccess`, `CardSecurity`: the file's name without `.bin`,
    /// as `dump` prints it beside each outcome.
    public var dumpName: String {
        switch self {
        case .com: "COM"
        case .sod: "SOD"
        case .cardAccess: "CardAccess"
        case .cardSecurity: "CardSecurity"
        default: rawValue.uppercased()
        }
    }

    /// The file holding this elementary file, outer tag and length included.
    public var dumpFileName: String { dumpName + ".bin" }
}
