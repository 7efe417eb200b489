import JSON

/// The elementary files of the LDS: which one a file is, its outer tag, identifiers and the
/// size cap applied before its bytes are read or parsed.
public enum LDSFileKind: String, Sendable, CaseIterable, JSONEnum {
    case com
    case sod
    case dg1, dg2, dg3, dg4, dg5, dg6, dg7, dg8, dg9, dg10, dg11, dg12, dg13, dg14, dg15, dg16
    case cardAccess
    case cardSecurity

    /// The data group number (1…16), nil for the other files.
    public var dataGroupNumber: Int? {
        guard rawValue.hasPrefix("dg") else { return nil }
        return Int(rawValue.dropFirst(2))
    }

    /// The data group with `number` (1…16).
    public static func dataGroup(_ number: Int) -> LDSFileKind? {
        LDSFileKind(rawValue: "dg\(number)")
    }

    /// The first byte of the file (ICAO 9303-10 Table 34; EF.CardAccess is a SET, EF.CardSecurity
    /// a ContentInfo SEQUENCE).
    public var outerTag: UInt8 {
        switch self {
        case .com: 0x60
        case .sod: 0x77
        case .dg1: 0x61
        case .dg2: 0x75
        case .dg3: 0x63
        case .dg4: 0x76
        case .dg5: 0x65
        case .dg6: 0x66
        case .dg7: 0x67
        case .dg8: 0x68
        case .dg9: 0x69
        case .dg10: 0x6A
        case .dg11: 0x6B
        case .dg12: 0x6C
        case .dg13: 0x6D
        case .dg14: 0x6E
        case .dg15: 0x6F
        case .dg16: 0x70
        case .cardAccess: 0x31
        case .cardSecurity: 0x30
        }
    }

    /// The file identifier (EF.CardAccess and EF.CardSecurity live in the master file; the others
    /// in the eMRTD application).
    public var fileIdentifier: UInt16 {
        switch self {
        case .com: 0x011E
        case .sod: 0x011D
        case .cardAccess: 0x011C
        case .cardSecurity: 0x011D
        default: 0x0100 + UInt16(dataGroupNumber ?? 0)
        }
    }

    /// The short EF identifier used with READ BINARY (ICAO 9303-10 Table 34).
    public var shortFileIdentifier: UInt8 {
        switch self {
        case .com: 0x1E
        case .sod: 0x1D
        case .cardAccess: 0x1C
        case .cardSecurity: 0x1D
        default: UInt8(dataGroupNumber ?? 0)
        }
    }

    /// The most bytes accepted for this file: 10 MB for the image data groups (DG2–DG7), 64 KB
    /// for the rest. Chips declare lengths; nothing above these is read or parsed.
    public var maximumSize: Int {
        switch self {
        case .dg2, .dg3, .dg4, .dg5, .dg6, .dg7: 10 * 1024 * 1024
        default: 64 * 1024
        }
    }

    /// The file a chip would have given these bytes, from their first byte (nil when no LDS file
    /// starts with it).
    public static func guess(from bytes: some Collection<UInt8>) -> LDSFileKind? {
        guard let first = bytes.first else { return nil }
        return allCases.first { $0.outerTag == first }
    }
}
