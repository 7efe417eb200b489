import Connector
import LDS

extension FilesToRead {
    /// The data groups to read (the read plan's selection, `EmrtdReader(dataGroups:)`), nil for
    /// every one.
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
