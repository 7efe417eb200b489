import ASN1
import Arithmetic
import ICAO
import LDS
import Secrets

/// The domain parameters one PACE step runs on: a curve (ECDH) or a MODP group with a known
/// subgroup order (DH), with the generator in force — the static one until the mapping
/// (ICAO 9303-11 §4.4.3.3) replaces it with the ephemeral one.
enum PACEDomain: Sendable {
    case curve(EllipticCurve, generator: ECPoint)
    case group(DHGroup, generator: BigInt)

    /// The static parameters a PACEInfo's `parameterId` names: a standardized ID (0–31, 9303-11
    /// §9.5.1) or the chip's own, from the PACEDomainParameterInfo of EF.CardAccess with that ID
    /// (without an ID: the one PACEDomainParameterInfo that has none):
    ///
    /// ```
    /// PACEDomainParameterInfo ::= SEQUENCE { protocol OBJECT IDENTIFIER,
    ///     domainParameter AlgorithmIdentifier, parameterId INTEGER OPTIONAL }
    /// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY }
    ///   -- id-ecPublicKey with ECParameters, dhpublicnumber with DomainParameters { p, g, q, … },
    ///   -- or standardizedDomainParameters with the ID
    /// ```
    static func resolve(parameterId: Int?, for paceProtocol: PACEProtocol, in securityInfos: SecurityInfos)
        throws(PACEFailure) -> PACEDomain
    {
        let named = parameterId.map { "parameters \($0)" } ?? "the parameters without an ID"
        let domain: PACEDomain
        if let parameterId, (0...31).contains(parameterId) {
            domain = try standardized(parameterId)
        } else {
            let infos = securityInfos.paceDomainParameterInfos.filter { $0.id == parameterId }
            guard infos.count == 1, let info = infos.first else {
                throw .early(
                    .notSupported, "EF.CardAccess has \(infos.count) PACEDomainParameterInfos for \(named), not one")
            }
            domain = try explicit(info.domainParameter)
        }
        guard domain.keyAgreement == paceProtocol.keyAgreement else {
            throw .early(
                .notSupported,
                "\(named) are for \(domain.keyAgreement.abbreviation), the protocol is "
                    + paceProtocol.keyAgreement.abbreviation)
        }
        return domain
    }

    private static func standardized(_ id: Int) throws(PACEFailure) -> PACEDomain {
        guard let parameters = StandardizedDomainParameters(id: id) else {
            throw .early(.notSupported, "parameter ID \(id) is reserved")
        }
        if let curve = parameters.curve { return .curve(curve, generator: curve.generator) }
        if let group = parameters.group { return .group(group, generator: group.g) }
        throw .early(.notSupported, "parameter ID \(id) names neither a curve nor a group")
    }

    private static func explicit(_ algorithmIdentifier: [UInt8]) throws(PACEFailure) -> PACEDomain {
        do {
            var fields = try ASN1Node.parse(algorithmIdentifier).sequenceFields("AlgorithmIdentifier")
            let algorithm = try fields.next("algorithm").objectIdentifier()
            let parameters = try fields.next("parameters")
            switch algorithm {
            case ProtocolIdentifiers.standardizedDomainParameters:
                return try standardized(try parameters.intValue())
            case "1.2.840.10045.2.1":  // id-ecPublicKey
                let (_, _, _, id, explicit) = try SubjectPublicKeyInfo.ecParameters(parameters)
                if let id { return try standardized(id) }
                if let explicit {
                    let curve = try EllipticCurve(
                        p: explicit.prime, a: explicit.a, b: explicit.b, generator: explicit.generator,
                        order: explicit.order, cofactor: explicit.cofactor ?? [1])
                    return .curve(curve, generator: curve.generator)
                }
                if parameters.tag == .objectIdentifier,
                    let named = StandardizedDomainParameters(curveIdentifier: try parameters.objectIdentifier())
                {
                    return try standardized(named.id)
                }
                throw PACEFailure.early(.notSupported, "the domain parameters name no prime curve this reader knows")
            case "1.2.840.10046.2.1":  // dhpublicnumber: DomainParameters ::= SEQUENCE { p, g, q, … }
                var group = try parameters.sequenceFields("DomainParameters")
                let p = BigInt(bytes: try group.next("p").unsignedIntegerBytes())
                let g = BigInt(bytes: try group.next("g").unsignedIntegerBytes())
                let q = BigInt(bytes: try group.next("q").unsignedIntegerBytes())
                let dh = try DHGroup(p: p, g: g, subgroupOrder: q)
                return .group(dh, generator: dh.g)
            default:
                throw PACEFailure.early(.notSupported, "domain parameters of algorithm \(algorithm) are not PACE's")
            }
        } catch let failure as PACEFailure {
            throw failure
        } catch {
            throw .early(.notSupported, "the chip's PACE domain parameters cannot be used: \(error)")
        }
    }

    var keyAgreement: KeyAgreement {
        switch self {
        case .curve: .ecdh
        case .group: .dh
        }
    }

    /// Bits of the field prime (the modulus): the Integrated Mapping's pseudo-random output covers
    /// them and 64 more.
    var primeBits: Int {
        switch self {
        case .curve(let curve, _): curve.p.bitWidth
        case .group(let group, _): group.p.bitWidth
        }
    }

    /// The tag of a public key in a public key data object (9303-11 §9.4.5): 86 for an elliptic
    /// curve point, 84 for a DH value.
    var publicKeyTag: UInt64 {
        switch self {
        case .curve: 0x86
        case .group: 0x84
        }
    }

    /// A key pair on the generator in force, the private key from `random`.
    func generateKeyPair(random: RandomSource) throws -> PACEKeyPair {
        switch self {
        case .curve(let curve, let generator):
            let (privateKey, point) = try curve.generateKeyPair(generator: generator, random: random)
            return PACEKeyPair(
                privateKey: privateKey,
                publicKey: PACEPublicKey(value: .point(point), encoded: try curve.encode(point)))
        case .group(let group, let generator):
            let (privateKey, value) = try group.generateKeyPair(generator: generator, random: random)
            return PACEKeyPair(
                privateKey: privateKey,
                publicKey: PACEPublicKey(value: .groupElement(value), encoded: try group.encodePublicValue(value)))
        }
    }

    /// The chip's public key, validated: an uncompressed point on the curve, in the subgroup of
    /// order n, not the point at infinity; a DH value with 1 < y < p − 1 and y^q = 1.
    func chipPublicKey(_ bytes: [UInt8]) throws -> PACEPublicKey {
        switch self {
        case .curve(let curve, _):
            guard bytes.first == 0x04 else {
                throw ArithmeticError(.malformedEncoding, "not an uncompressed point (9303-11 uses no other)")
            }
            return PACEPublicKey(value: .point(try curve.decodePoint(bytes)), encoded: bytes)
        case .group(let group, _):
            return PACEPublicKey(value: .groupElement(try group.decodePublicValue(bytes)), encoded: bytes)
        }
    }

    /// The key agreement's shared secret K: the x-coordinate of SK·PK, or PK^SK mod p, each as long
    /// as the field.
    func sharedSecret(_ keyPair: PACEKeyPair, _ chipKey: PACEPublicKey) throws -> SecretBytes {
        var secret: [UInt8]
        switch (self, chipKey.value) {
        case (.curve(let curve, _), .point(let point)):
            secret = try curve.sharedSecret(privateKey: keyPair.privateKey, peerPublicKey: point)
        case (.group(let group, _), .groupElement(let value)):
            secret = try group.sharedSecret(privateKey: keyPair.privateKey, peerPublicValue: value)
        default:
            throw ArithmeticError(.invalidPoint, "a public key of the other key agreement")
        }
        return SecretBytes(consuming: &secret)
    }

    /// Generic Mapping (9303-11 §4.4.3.3.1): Ĝ = s·G + H with H = SK_Map,IFD·PK_Map,IC, or
    /// ĝ = g^s·h with h = PK_Map,IC^SK_Map,IFD. The mapped generator is never the identity.
    func genericMapping(nonce: BigInt, mappingKey: PACEKeyPair, chipMappingKey: PACEPublicKey) throws -> PACEDomain {
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
    func integratedMapping(pseudoRandom: SecretBytes) throws -> PACEDomain {
        var bytes = pseudoRandom.withUnsafeBytes { Array($0) }
        defer { bytes.wipe() }
        switch self {
        case .curve(let curve, _): return .curve(curve, generator: try curve.integratedMapping(pseudoRandom: bytes))
        case .group(let group, _): return .group(group, generator: try group.integratedMapping(pseudoRandom: bytes))
        }
    }
}
