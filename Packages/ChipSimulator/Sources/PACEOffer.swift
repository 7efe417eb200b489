import Arithmetic
import ICAO

/// One PACE protocol the chip offers (a PACEInfo of EF.CardAccess): the protocol and the
/// standardized domain parameters it runs on.
public struct PACEOffer: Sendable, Hashable, CustomStringConvertible {
    public let paceProtocol: PACEProtocol
    public let parameters: StandardizedDomainParameters

    /// Nil when the parameters do not suit the protocol's key agreement (a curve for DH, a MODP
    /// group for ECDH), or for ECDH Integrated Mapping on a curve whose prime is not 3 mod 4
    /// (secp224r1), where the point encoding of 9303-11 App. B is undefined.
    public init?(_ paceProtocol: PACEProtocol, parameters: StandardizedDomainParameters) {
        guard paceProtocol.keyAgreement == parameters.keyAgreement else { return nil }
        if paceProtocol.mapping == .integratedMapping, let curve = parameters.curve,
            curve.p.modulo(BigInt(4)) != BigInt(3)
        {
            return nil
        }
        self.paceProtocol = paceProtocol
        self.parameters = parameters
    }

    /// An offer by the short name a command line gives, `KEYAGREEMENT-MAPPING-CIPHER[:PARAMETERS]`:
    /// `ECDH-GM-AES-128:13`, `DH-IM-3DES:0`, `ECDH-CAM-AES-256:brainpoolP384r1` (case does not
    /// matter). Without parameters ECDH runs on brainpoolP256r1 (13) and DH on the 1024-bit MODP
    /// group (0), the parameters of ICAO's worked examples.
    public init(named text: String) throws(ChipSimulatorError) {
        let parts = text.split(separator: ":", maxSplits: 1).map { String($0).uppercased() }
        let fields = (parts.first ?? "").split(separator: "-", maxSplits: 2).map(String.init)
        let expected = "KEYAGREEMENT-MAPPING-CIPHER[:PARAMETERS], e.g. ECDH-GM-AES-128:13"
        guard fields.count == 3,
            let keyAgreement = KeyAgreement.allCases.first(where: { $0.abbreviation == fields[0] }),
            let mapping = PACEMapping.allCases.first(where: { $0.abbreviation == fields[1] }),
            let cipher = Self.ciphersByName[fields[2]]
        else { throw ChipSimulatorError("\(text) is no PACE protocol (\(expected))") }
        guard let paceProtocol = PACEProtocol(mapping: mapping, keyAgreement: keyAgreement, cipher: cipher) else {
            throw ChipSimulatorError("\(text): 9303-11 defines no such PACE protocol (CAM is ECDH with AES only)")
        }
        let parameters = try Self.parameters(named: parts.count == 2 ? parts[1] : nil, for: keyAgreement, in: text)
        guard let offer = PACEOffer(paceProtocol, parameters: parameters) else {
            throw ChipSimulatorError("\(text): \(paceProtocol) does not run on \(parameters.name)")
        }
        self = offer
    }

    /// Standardized domain parameters by ID or name (`13`, `brainpoolP256r1`, any case); without
    /// a name, the parameters of ICAO's worked examples: brainpoolP256r1 (13) for ECDH, the
    /// 1024-bit MODP group (0) for DH.
    static func parameters(named name: String?, for keyAgreement: KeyAgreement, in text: String)
        throws(ChipSimulatorError) -> StandardizedDomainParameters
    {
        guard let name else { return keyAgreement == .ecdh ? .brainpoolP256r1 : .modp1024Subgroup160 }
        let wanted = name.uppercased()
        guard
            let named = Int(wanted).flatMap(StandardizedDomainParameters.init(id:))
                ?? StandardizedDomainParameters.allCases.first(where: { "\($0)".uppercased() == wanted })
        else { throw ChipSimulatorError("\(text): no standardized domain parameters \(name) (IDs 0–2, 8–18)") }
        guard named.keyAgreement == keyAgreement else {
            throw ChipSimulatorError("\(text): \(named.name) is not for \(keyAgreement.abbreviation)")
        }
        return named
    }

    static let ciphersByName: [String: BlockCipher] = [
        "3DES": .tripleDES, "AES-128": .aes128, "AES-192": .aes192, "AES-256": .aes256,
    ]

    public var description: String { "\(paceProtocol) on \(parameters.name)" }
}
