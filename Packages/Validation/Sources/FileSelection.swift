import Connector
import Emrtd
import LDS
import MRZ
import Transport

/// The read's chip access with the data groups narrowed to a `FilesToRead` selection: a data
/// group outside it is reported absent without an APDU, so `EmrtdReader` reads, verifies and
/// reports exactly the selection (EF.COM and EF.SOD are always read).
struct SelectedFileAccess: ChipAccessProcedure {
    let base: any ChipAccessProcedure
    let selection: FilesToRead

    func open(
        _ transport: any APDUTransport, accessKey: AccessKey, observer: (any PlainAPDUObserver)?,
        log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip {
        var opened = try base.open(transport, accessKey: accessKey, observer: observer, log: log)
        if let wanted = selection.dataGroups {
            opened.files = SelectedFiles(base: opened.files, wanted: wanted)
        }
        return opened
    }
}

/// The file reader of an opened chip that skips data groups outside `wanted`.
private struct SelectedFiles: ElementaryFileReader {
    let base: any ElementaryFileReader
    let wanted: Set<LDSFileKind>

    private func skipped(_ kind: LDSFileKind) -> Bool { kind.dataGroupNumber != nil && !wanted.contains(kind) }

    func read(_ kind: LDSFileKind) throws(ReadError) -> FileReadResult<[UInt8]> {
        skipped(kind) ? .notFound : try base.read(kind)
    }
}

extension FilesToRead {
    /// The data groups to read, nil for every one.
    var dataGroups: Set<LDSFileKind>? {
        switch self {
        // DG2 is mandatory (a read without it fails), so the smallest selection still reads it.
        case .minimal: [.dg1, .dg2, .dg14, .dg15]
        case .minimalKYC: [.dg1, .dg2, .dg14, .dg15]
        case .standard: Set((1...16).compactMap(LDSFileKind.dataGroup)).subtracting([.dg3, .dg4])
        case .all: nil
        }
    }
}
