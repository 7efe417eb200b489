import CryptoPrimitives

/// The trailer of an ISO/IEC 9796-2 message representative, which names its hash (9303-11 §6.1):
/// the implicit trailer `BC` means SHA-1; an explicit trailer is the hash's ISO/IEC 10118
/// identifier followed by `CC`.
public enum ISO9796Trailer: Sendable, Hashable, CustomStringConvertible {
    /// `BC`, SHA-1.
    case implicit
    /// `xx CC` with the hash identifier xx: 33 SHA-1, 38 SHA-224, 34 SHA-256, 36 SHA-384, 35 SHA-512.
    case explicit(HashAlgorithm)

    public var hash: HashAlgorithm {
        switch self {
        case .implicit: .sha1
        case .explicit(let hash): hash
        }
    }

    /// The trailer's bytes, last in the representative.
    var bytes: [UInt8] {
        switch self {
        case .implicit: [0xBC]
        case .explicit(let hash): [Self.identifier(hash), 0xCC]
        }
    }

    /// The ISO/IEC 10118 hash identifier.
    static func identifier(_ hash: HashAlgorithm) -> UInt8 {
        switch hash {
        case .sha1: 0x33
        case .sha224: 0x38
        case .sha256: 0x34
        case .sha384: 0x36
        case .sha512: 0x35
        }
    }

    public var description: String {
        switch self {
        case .implicit: "BC (SHA-1)"
        case .explicit(let hash): "explicit \(hash.rawValue.uppercased())"
        }
    }
}
