import LDS

/// Bytes read against bytes to read, with no READ BINARY of its own: a file's size is known once
/// it is read (the first answer of the file reader carries its header and usually the whole
/// file), so until then each file counts for a typical size of its kind. Sizing every file first
/// would cost a SELECT and a header read per file, a third of a read's APDUs.
///
/// The percentage never goes back: a file read (its real size added to what is done) or found
/// absent (its estimate removed from what is left) only raises done ÷ (done + left).
struct ReadProgress {
    private(set) var done: Int
    /// The estimates of the files not read yet.
    private var remaining: [LDSFileKind: Int]

    init(done: Int, remaining files: [LDSFileKind]) {
        self.done = done
        remaining = Dictionary(files.map { ($0, Self.typicalSize(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// `kind` is read (`size` bytes) or not there (0).
    mutating func finished(_ kind: LDSFileKind, size: Int) {
        remaining[kind] = nil
        done += size
    }

    var percentage: Int {
        let left = remaining.values.reduce(0, +)
        return done + left == 0 ? 100 : min(100, done * 100 / (done + left))
    }

    /// What a file of this kind usually holds on issued documents: a face image of about 15 KB,
    /// displayed images of a few KB, the rest a few hundred bytes or less. DG3/DG4 are usually
    /// refused (Extended Access Control), so they count for little.
    static func typicalSize(of kind: LDSFileKind) -> Int {
        switch kind {
        case .dg2: 15_000
        case .dg5, .dg6, .dg7: 4_000
        case .dg1: 93
        case .dg14, .dg15: 400
        default: 200
        }
    }
}
