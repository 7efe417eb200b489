import ICAO
import LDS

/// One way to run Chip Authentication that a SecurityInfos set (DG14) offers: the protocol of a
/// ChipAuthenticationInfo and the static public key of the ChipAuthenticationPublicKeyInfo with
/// the same key ID (ICAO 9303-11 §6.2, §9.2.5–9.2.6):
///
/// ```
/// ChipAuthenticationInfo ::= SEQUENCE { protocol id-CA-<KA>-<cipher>, version INTEGER, keyId INTEGER OPTIONAL }
/// ChipAuthenticationPublicKeyInfo ::= SEQUENCE { protocol id-PK-DH | id-PK-ECDH,
///     chipAuthenticationPublicKey SubjectPublicKeyInfo, keyId INTEGER OPTIONAL }
/// ```
public struct ChipAuthenticationOffer: Sendable, Hashable, CustomStringConvertible {
    public let chipAuthenticationProtocol: ChipAuthenticationProtocol
    /// The chip's static key.
    public let publicKey: PublicKeyInfo
    /// Sent in DO'84' when the chip has several keys.
    public let keyId: Int?
    /// The protocol was inferred from the key because DG14 has no ChipAuthenticationInfo for it.
    public let isInferred: Bool

    public init(
        chipAuthenticationProtocol: ChipAuthenticationProtocol, publicKey: PublicKeyInfo, keyId: Int?,
        isInferred: Bool = false
    ) {
        self.chipAuthenticationProtocol = chipAuthenticationProtocol
        self.publicKey = publicKey
        self.keyId = keyId
        self.isInferred = isInferred
    }

    public var description: String {
        "\(chipAuthenticationProtocol)\(keyId.map { " with key ID \($0)" } ?? "")"
            + (publicKey.curve.map { " on \($0)" } ?? "")
    }

    /// The Chip Authentication version 1 offers of `securityInfos`, strongest first (ECDH before
    /// DH, then AES-256, 192, 128, 3DES), with a warning for each thing tolerated or skipped.
    ///
    /// A ChipAuthenticationInfo is paired with the public key of the same key ID (or, without key
    /// IDs, the one key of its key agreement). A key that no ChipAuthenticationInfo names is used
    /// with 3DES, as documents issued before ChipAuthenticationInfo was required expect (BSI
    /// TR-03110 v1), and a warning says so. Other versions (2, which needs Terminal
    /// Authentication first) are not run.
    public static func offers(in securityInfos: SecurityOptions) -> (
        offers: [ChipAuthenticationOffer], warnings: [String]
    ) {
        var offers: [ChipAuthenticationOffer] = []
        var warnings: [String] = []
        let keys = securityInfos.chipAuthenticationPublicKeyInfos
        var pairedKeys: Set<Int> = []
        for info in securityInfos.chipAuthenticationInfos {
            guard let chipProtocol = ChipAuthenticationProtocol(info.protocolIdentifier) else {
                warnings.append("DG14 names an unknown Chip Authentication protocol \(info.protocolIdentifier.dotted)")
                continue
            }
            guard info.version == 1 else {
                warnings.append(
                    "DG14 offers Chip Authentication version \(info.version), which needs Terminal Authentication; "
                        + "this reader runs version 1")
                continue
            }
            let candidates = keys.indices.filter { index in
                keys[index].keyAgreement == chipProtocol.keyAgreement
                    && (info.keyId == nil ? true : keys[index].keyId == info.keyId)
            }
            guard let index = candidates.first, candidates.count == 1 || info.keyId != nil else {
                warnings.append(
                    candidates.isEmpty
                        ? "DG14 has no \(chipProtocol.keyAgreement.abbreviation) public key"
                            + "\(info.keyId.map { " with key ID \($0)" } ?? "") for \(chipProtocol)"
                        : "DG14 has several \(chipProtocol.keyAgreement.abbreviation) keys and no key ID to tell "
                            + "which one \(chipProtocol) uses")
                continue
            }
            pairedKeys.insert(index)
            offers.append(
                ChipAuthenticationOffer(
                    chipAuthenticationProtocol: chipProtocol, publicKey: keys[index].publicKey, keyId: info.keyId))
        }
        for (index, key) in keys.enumerated() where !pairedKeys.contains(index) {
            guard securityInfos.chipAuthenticationInfos.isEmpty, let keyAgreement = key.keyAgreement else { continue }
            let inferred = ChipAuthenticationProtocol(keyAgreement: keyAgreement, cipher: .tripleDES)
            warnings.append(
                "DG14 has a Chip Authentication key\(key.keyId.map { " (key ID \($0))" } ?? "") but no "
                    + "ChipAuthenticationInfo: \(inferred) was inferred from the key")
            offers.append(
                ChipAuthenticationOffer(
                    chipAuthenticationProtocol: inferred, publicKey: key.publicKey, keyId: key.keyId, isInferred: true))
        }
        return (offers.sorted { $0.strength > $1.strength }, warnings)
    }

    /// ECDH over DH, then AES-256, 192, 128, 3DES.
    private var strength: Int {
        let cipherRank =
            switch chipAuthenticationProtocol.cipher {
            case .tripleDES: 0
            case .aes128: 1
            case .aes192: 2
            case .aes256: 3
            }
        return (chipAuthenticationProtocol.keyAgreement == .ecdh ? 10 : 0) + cipherRank
    }
}
