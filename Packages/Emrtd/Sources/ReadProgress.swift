import LDS
import Synchronization
import Transport

/// Bytes read against bytes to read, with no READ BINARY of its own: a file's size is known once
/// it is read (the first answer of the file reader carries its header and usually the whole
/// file), so until then each file counts for a typical size of its kind. Sizing every file first
/// would cost a SELECT and a header read per file, a third of a read's APDUs.
///
/// The percentage never goes back: a file read (its real size added to what is done), its bytes
/// arriving (counted as done, its estimate shrinking by as much) or a file found absent (its
/// estimate removed from what is left) only raises done ÷ (done + left).
struct ReadProgress {
    private(set) var done: Int
    /// The estimates of the files not read yet.
    private var remaining: [LDSFileKind: Int]
    /// The bytes of the file being read that have arrived so far.
    private var partial: (kind: LDSFileKind, bytes: Int)?

    init(done: Int, remaining files: [LDSFileKind]) {
        self.done = done
        remaining = Dictionary(files.map { ($0, Self.typicalSize(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// `bytes` more of `kind` arrived.
    mutating func receiving(_ kind: LDSFileKind, bytes: Int) {
        let before = partial?.kind == kind ? partial?.bytes ?? 0 : 0
        partial = (kind, before + bytes)
    }

    /// `kind` is read (`size` bytes) or not there (0).
    mutating func finished(_ kind: LDSFileKind, size: Int) {
        remaining[kind] = nil
        if partial?.kind == kind { partial = nil }
        done += size
    }

    var percentage: Int {
        var left = remaining.values.reduce(0, +)
        var done = self.done
        if let partial, let estimate = remaining[partial.kind] {
            done += partial.bytes
            left -= min(estimate, partial.bytes)
        }
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

/// Tells the listener how far the reading is, as the reference does: once EF.COM and EF.SOD are
/// in (id `sod`), as each READ BINARY answer of a data group arrives (the secure channel's plain
/// answers, which it observes, also passing them to the debug log), when a file is read, and 100
/// at the end. Everything runs on the reading thread; the lock only satisfies `Sendable`.
final class ProgressReporter: PlainAPDUObserver {
    private struct State {
        var progress = ReadProgress(done: 0, remaining: [])
        /// The data group being read; nil outside data-group reads (access, chip protocols).
        var reading: LDSFileKind?
        var last: (id: LDSFileKind, percentage: Int) = (.sod, -1)
    }

    private let listener: (any ReadListener)?
    private let recorder: DebugRecorder?
    private let state = Mutex(State())

    init(listener: (any ReadListener)?, recorder: DebugRecorder?) {
        self.listener = listener
        self.recorder = recorder
    }

    /// EF.COM and EF.SOD are in (`done` bytes); `remaining` are to be read.
    func begin(done: Int, remaining: [LDSFileKind]) {
        update(.sod) { $0.progress = ReadProgress(done: done, remaining: remaining) }
    }

    func reading(_ kind: LDSFileKind) {
        state.withLock { $0.reading = kind }
    }

    /// `kind` was read (`size` bytes; 0 when it was not), reported when it was.
    func finished(_ kind: LDSFileKind, size: Int) {
        update(kind, reporting: size > 0) {
            $0.progress.finished(kind, size: size)
            $0.reading = nil
        }
    }

    /// The last call: 100, naming the file read last (once more if it was reported below 100).
    func complete() {
        let last = state.withLock { $0.last }
        if last.percentage != 100 || last.id == .sod {
            listener?.onElementaryFilesReadingProgressUpdated(id: last.id, totalProgressPercentage: 100)
        }
    }

    /// Applies `change` and tells the listener about `id` unless nothing it would see changed.
    private func update(_ id: LDSFileKind, reporting: Bool = true, _ change: (inout State) -> Void) {
        let percentage: Int? = state.withLock { state in
            change(&state)
            let percentage = state.progress.percentage
            guard reporting, state.last.id != id || state.last.percentage != percentage else { return nil }
            state.last = (id, percentage)
            return percentage
        }
        if let percentage {
            listener?.onElementaryFilesReadingProgressUpdated(id: id, totalProgressPercentage: Int32(percentage))
        }
    }

    func willProtect(_ command: CommandAPDU) { recorder?.willProtect(command) }

    func didUnprotect(_ response: ResponseAPDU, of command: CommandAPDU) {
        recorder?.didUnprotect(response, of: command)
        guard [0xB0, 0xB1].contains(command.ins), !response.data.isEmpty,
            [StatusWord.success, .endOfFileReached].contains(response.statusWord),
            let kind = state.withLock({ $0.reading })
        else { return }
        update(kind) { $0.progress.receiving(kind, bytes: response.data.count) }
    }
}
