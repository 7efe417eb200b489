import JSON

/// The block ciphers of secure messaging, PACE and Chip Authentication (ICAO 9303-11 §9.8): the
/// last arc of a PACE or CA protocol OID names one, with its MAC (3DES with ISO/IEC 9797-1 MAC
/// algorithm 3, AES with CMAC). CryptoPrimitives implements them.
public enum BlockCipher: String, Sendable, Hashable, CaseIterable, JSONEnum {
    /// Two-key triple DES (EDE, K1 K2 K1), 16-byte keys.
    case tripleDES
    case aes128, aes192, aes256

    public var keyLength: Int {
        switch self {
        case .tripleDES, .aes128: 16
        case .aes192: 24
        case .aes256: 32
        }
    }

    public var blockSize: Int { self == .tripleDES ? 8 : 16 }

    /// AES keyed by `keyLength` bytes (16, 24 or 32); nil for another length.
    public init?(aesKeyLength keyLength: Int) {
        switch keyLength {
        case 16: self = .aes128
        case 24: self = .aes192
        case 32: self = .aes256
        default: return nil
        }
    }

    /// The last arc of a PACE or CA protocol OID: 1 3DES-CBC-CBC, 2–4 AES-CBC-CMAC-128/192/256.
    public init?(protocolArc: UInt64) {
        switch protocolArc {
        case 1: self = .tripleDES
        case 2: self = .aes128
        case 3: self = .aes192
        case 4: self = .aes256
        default: return nil
        }
    }

    public var protocolArc: UInt64 {
        switch self {
        case .tripleDES: 1
        case .aes128: 2
        case .aes192: 3
        case .aes256: 4
        }
    }

    /// As the protocol OIDs spell it: `3DES-CBC-CBC`, `AES-CBC-CMAC-128`…
    public var protocolName: String {
        switch self {
        case .tripleDES: "3DES-CBC-CBC"
        case .aes128: "AES-CBC-CMAC-128"
        case .aes192: "AES-CBC-CMAC-192"
        case .aes256: "AES-CBC-CMAC-256"
        }
    }
}
