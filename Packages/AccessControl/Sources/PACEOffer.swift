import ICAO
import LDS

/// One way EF.CardAccess says the chip runs PACE: a PACEInfo whose protocol 9303-11 defines,
/// with the domain parameters its `parameterId` names.
public struct PACEOffer: Sendable, Hashable, CustomStringConvertible {
    public let paceProtocol: PACEProtocol
    /// The PACEInfo's parameterId: standardized (0–18) or the chip's own (then a
    /// PACEDomainParameterInfo with this ID holds the parameters). Nil when the PACEInfo names none.
    public let parameterId: Int?

    public init(paceProtocol: PACEProtocol, parameterId: Int?) {
        self.paceProtocol = paceProtocol
        self.parameterId = parameterId
    }

    /// The offers of `securityInfos` whose mapping `preferences` allows, in the order to try them:
    /// by the preferences' order of mappings, then the strongest cipher, then the strongest domain
    /// parameters (`securityBits`: a 1024-bit DH group below P-256), then as the chip lists them.
    /// PACEInfos of protocols 9303-11 does not define are left out.
    public static func offers(in securityInfos: SecurityOptions, preferences: ChipAccessPreferences) -> [PACEOffer] {
        let offers = securityInfos.paceInfos.compactMap { info in
            info.paceProtocol.map { PACEOffer(paceProtocol: $0, parameterId: info.parameterId) }
        }
        let rank = { (offer: PACEOffer) in [offer.paceProtocol.cipher.strength, offer.securityBits] }
        return preferences.paceMappings.flatMap { mapping in
            offers.enumerated().filter { $0.element.paceProtocol.mapping == mapping }
                .sorted { a, b in
                    let (rankA, rankB) = (rank(a.element), rank(b.element))
                    return rankA == rankB ? a.offset < b.offset : rankA.lexicographicallyPrecedes(rankB, by: >)
                }
                .map(\.element)
        }
    }

    /// The standardized domain parameters' security level in bits (NIST SP 800-57: a curve of n
    /// bits gives n/2, a 1024-bit DH group 80, a 2048-bit one 112); 0 for the chip's own
    /// parameters or none named, which are tried after every standardized group.
    var securityBits: Int {
        guard let parameters = parameterId.flatMap(StandardizedDomainParameters.init(id:)) else { return 0 }
        switch parameters.keyAgreement {
        case .dh: return parameters.fieldBits >= 2048 ? 112 : 80
        case .ecdh: return parameters.fieldBits / 2
        }
    }

    /// `id-PACE-ECDH-GM-AES-CBC-CMAC-128, parameters 13 (brainpoolP256r1)`.
    public var description: String {
        guard let parameterId else { return "\(paceProtocol), no parameter ID" }
        let name = StandardizedDomainParameters(id: parameterId)?.name ?? "the chip's own"
        return "\(paceProtocol), parameters \(parameterId) (\(name))"
    }
}

extension BlockCipher {
    /// The order offers are tried in: AES-256 first, 3DES last.
    fileprivate var strength: Int {
        switch self {
        case .tripleDES: 0
        case .aes128: 1
        case .aes192: 2
        case .aes256: 3
        }
    }
}
