import ASN1
import CryptoPrimitives

/// The signature algorithms of Terminal Authentication (TR-03110 A.6.4, id-TA): the OID a CV
/// certificate's public key carries, which also says how that key signs.
public enum TerminalAuthenticationAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// ECDSA with the signature plain r‖s (TR-03111).
    case ecdsa(HashAlgorithm)
    /// RSASSA-PKCS1-v1_5.
    case rsaPKCS1(HashAlgorithm)
    /// RSASSA-PSS, MGF1 with the same hash, salt as long as the digest.
    case rsaPSS(HashAlgorithm)

    private static let table: [(TerminalAuthenticationAlgorithm, [UInt64])] = [
        (.rsaPKCS1(.sha1), [1, 1]), (.rsaPKCS1(.sha256), [1, 2]), (.rsaPSS(.sha1), [1, 3]),
        (.rsaPSS(.sha256), [1, 4]), (.rsaPKCS1(.sha512), [1, 5]), (.rsaPSS(.sha512), [1, 6]),
        (.ecdsa(.sha1), [2, 1]), (.ecdsa(.sha224), [2, 2]), (.ecdsa(.sha256), [2, 3]),
        (.ecdsa(.sha384), [2, 4]), (.ecdsa(.sha512), [2, 5]),
    ]

    /// Every algorithm TR-03110 defines.
    public static var allCases: [TerminalAuthenticationAlgorithm] { table.map(\.0) }

    /// The algorithm of an id-TA OID, nil for any other.
    public init?(objectIdentifier: ASN1ObjectIdentifier) {
        let arcs = objectIdentifier.arcs
        guard objectIdentifier.hasPrefix(.terminalAuthentication),
            arcs.count == ASN1ObjectIdentifier.terminalAuthentication.arcs.count + 2,
            let entry = Self.table.first(where: { $0.1 == Array(arcs.suffix(2)) })
        else { return nil }
        self = entry.0
    }

    public var objectIdentifier: ASN1ObjectIdentifier {
        let suffix = Self.table.first { $0.0 == self }?.1 ?? []
        return ASN1ObjectIdentifier.terminalAuthentication.appending(contentsOf: suffix)
    }

    public var hash: HashAlgorithm {
        switch self {
        case .ecdsa(let hash), .rsaPKCS1(let hash), .rsaPSS(let hash): hash
        }
    }

    public var isECDSA: Bool { if case .ecdsa = self { true } else { false } }

    /// The padding of an RSA algorithm (nil for ECDSA).
    public var rsaPadding: RSASignaturePadding? {
        switch self {
        case .ecdsa: nil
        case .rsaPKCS1(let hash): .pkcs1v15(hash: hash)
        case .rsaPSS(let hash): .pss(hash: hash, mgf1Hash: hash, saltLength: hash.digestLength)
        }
    }

    /// `ecdsa-sha256`, `rsa-v1_5-sha256`, `rsa-pss-sha512`: the names `emrtd cvc` takes.
    public var name: String {
        switch self {
        case .ecdsa(let hash): "ecdsa-\(hash.rawValue)"
        case .rsaPKCS1(let hash): "rsa-v1_5-\(hash.rawValue)"
        case .rsaPSS(let hash): "rsa-pss-\(hash.rawValue)"
        }
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    public var description: String { name }
}
