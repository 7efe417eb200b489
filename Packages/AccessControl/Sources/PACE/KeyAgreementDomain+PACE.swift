import ASN1
import Arithmetic
import ICAO
import LDS
import Secrets

/// What PACE adds to a key agreement's domain parameters: the static parameters a PACEInfo names
/// and the mappings (ICAO 9303-11 §4.4.3.3) that replace the static generator with the ephemeral
/// one.
extension KeyAgreementDomain {
    /// The static parameters a PACEInfo's `parameterId` names: a standardized ID (0–31, 9303-11
    /// §9.5.1) or the chip's own, from the PACEDomainParameterInfo of EF.CardAccess with that ID
    /// (without an ID: the one PACEDomainParameterInfo that has none):
    ///
    /// ```
    /// PACEDomainParameterInfo ::= SEQUENCE { protocol OBJECT IDENTIFIER,
    ///     domainParameter AlgorithmIdentifier, parameterId INTEGER OPTIONAL }
    /// ```
    static func resolve(parameterId: Int?, for paceProtocol: PACEProtocol, in securityInfos: SecurityOptions)
        throws(PACEFailure) -> KeyAgreementDomain
    {
        let named = parameterId.map { "parameters \($0)" } ?? "the parameters without an ID"
        var info: DomainParameterInfo?
        if parameterId == nil || !(0...31).contains(parameterId ?? 0) {
            let infos = securityInfos.paceDomainParameterInfos.filter { $0.id == parameterId }
            guard infos.count == 1 else {
                throw .early(
                    .notSupported, "EF.CardAccess has \(infos.count) PACEDomainParameterInfos for \(named), not one")
            }
            info = infos.first
        }
        let domain: KeyAgreementDomain
        do throws(ArithmeticError) {
            if let info {
                domain = try KeyAgreementDomain(algorithmIdentifier: info.domainParameter)
            } else {
                domain = try KeyAgreementDomain(standardized: parameterId ?? -1)
            }
        } catch {
            throw .early(.notSupported, "the chip's PACE domain parameters cannot be used: \(error.reason)")
        }
        guard domain.keyAgreement == paceProtocol.keyAgreement else {
            throw .early(
                .notSupported,
                "\(named) are for \(domain.keyAgreement.abbreviation), the protocol is "
                    + paceProtocol.keyAgreement.abbreviation)
        }
        return domain
    }

    /// The tag of a public key in a public key data object (9303-11 §9.4.5): 86 for an elliptic
    /// curve point, 84 for a DH value.
    var publicKeyTag: UInt64 {
        switch self {
        case .curve: 0x86
        case .group: 0x84
        }
    }

    /// Generic Mapping (9303-11 §4.4.3.3.1): Ĝ = s·G + H with H = SK_Map,IFD·PK_Map,IC, or
    /// ĝ = g^s·h with h = PK_Map,IC^SK_Map,IFD. The mapped generator is never the identity.
    func genericMapping(nonce: BigInt, mappingKey: EphemeralKeyPair, chipMappingKey: KeyAgreementPublicKey) throws
        -> KeyAgreementDomain
    {
        switch (self, chipMappingKey.value) {
        case (.curve(let curve, _), .point(let point)):
            let shared = try curve.sharedPoint(privateKey: mappingKey.privateKey, peerPublicKey: point)
            return .curve(curve, generator: try curve.genericMapping(nonce: nonce, sharedPoint: shared))
        case (.group(let group, _), .groupElement(let value)):
            let shared = try group.powerSecret(value, mappingKey.privateKey)
            return .group(group, generator: try group.genericMapping(nonce: nonce, sharedSecret: shared))
        default:
            throw ArithmeticError(.invalidPoint, "a public key of the other key agreement")
        }
    }

    /// Integrated Mapping (9303-11 §4.4.3.3.2): Ĝ = f_G(R_p(s, t)), or ĝ = R_p(s, t)^((p−1)/q).
    func integratedMapping(pseudoRandom: SecretBytes) throws -> KeyAgreementDomain {
        var bytes = pseudoRandom.withUnsafeBytes { Array($0) }
        defer { bytes.wipe() }
        switch self {
        case .curve(let curve, _): return .curve(curve, generator: try curve.integratedMapping(pseudoRandom: bytes))
        case .group(let group, _): return .group(group, generator: try group.integratedMapping(pseudoRandom: bytes))
        }
    }
}
