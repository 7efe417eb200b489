import Arithmetic
import ICAO
import Secrets

/// The group one PACE step works in: a curve or a MODP group with the generator of that step (the
/// static one for the mapping, the mapped one for the key agreement); Chip Authentication's key
/// agreement runs in the static key's domain. The chip's side of the key agreements and mappings
/// is written once here for ECDH and DH; the mathematics is Arithmetic's.
struct PACEDomain: Sendable {
    enum Group: Sendable {
        case curve(EllipticCurve)
        case modp(DHGroup)
    }

    /// A public key or generator: a point, or an integer mod p.
    enum Element: Sendable, Equatable {
        case point(ECPoint)
        case integer(BigInt)
    }

    let group: Group
    let generator: Element

    /// The standardized parameters with their own generator; nil for IDs Arithmetic does not have.
    init?(_ parameters: StandardizedDomainParameters) {
        if let curve = parameters.curve {
            self.init(group: .curve(curve), generator: .point(curve.generator))
        } else if let modp = parameters.group {
            self.init(group: .modp(modp), generator: .integer(modp.g))
        } else {
            return nil
        }
    }

    /// The domain of a static key (Chip Authentication): its parameters with their own generator.
    init(_ parameters: DomainParameters) {
        switch parameters {
        case .ellipticCurve(let curve): self.init(group: .curve(curve), generator: .point(curve.generator))
        case .dhGroup(let modp): self.init(group: .modp(modp), generator: .integer(modp.g))
        }
    }

    init(group: Group, generator: Element) {
        self.group = group
        self.generator = generator
    }

    /// The order of the generator: private keys and CAM's chip authentication data live mod this.
    var order: BigInt {
        switch group {
        case .curve(let curve): curve.order
        case .modp(let modp): modp.subgroupOrder ?? (modp.p - BigInt(1))
        }
    }

    /// Bits of the field prime, which sets how much output the IM pseudo-random function gives.
    var fieldBits: Int {
        switch group {
        case .curve(let curve): curve.p.bitWidth
        case .modp(let modp): modp.p.bitWidth
        }
    }

    /// The tag of the public key in a public key data object (9303-11 §9.4.5): 86 for a point,
    /// 84 for a DH value.
    var publicKeyTag: UInt8 {
        switch group {
        case .curve: 0x86
        case .modp: 0x84
        }
    }

    /// A fresh key pair on this step's generator, the private key uniform in [1, order).
    func generateKeyPair(random: RandomSource) throws -> (privateKey: BigInt, publicKey: Element) {
        switch (group, generator) {
        case (.curve(let curve), .point(let base)):
            let pair = try curve.generateKeyPair(generator: base, random: random)
            return (pair.privateKey, .point(pair.publicKey))
        case (.modp(let modp), .integer(let base)):
            let pair =
                base == modp.g
                ? try modp.generateKeyPair(random: random) : try modp.generateKeyPair(generator: base, random: random)
            return (pair.privateKey, .integer(pair.publicKey))
        default:
            throw ArithmeticError(.invalidDomainParameters, "a generator of the wrong kind")
        }
    }

    /// The public key `privateKey` gives on this step's generator.
    func publicKey(for privateKey: BigInt) throws -> Element {
        switch (group, generator) {
        case (.curve(let curve), .point(let base)): .point(try curve.publicKey(for: privateKey, generator: base))
        case (.modp(let modp), .integer(let base)): .integer(try modp.powerSecret(base, privateKey))
        default: throw ArithmeticError(.invalidDomainParameters, "a generator of the wrong kind")
        }
    }

    /// A terminal's public key, decoded and validated: an uncompressed point on the curve and in
    /// its subgroup (not infinity), or a DH value in (1, p − 1) whose order is q. Shorter DH
    /// encodings (leading zeros left out) are accepted, longer ones are not.
    func decodePublicKey(_ bytes: some Collection<UInt8>) throws -> Element {
        let bytes = Array(bytes)
        switch group {
        case .curve(let curve):
            guard bytes.first == 0x04 else {
                throw ArithmeticError(.malformedEncoding, "PACE public keys are uncompressed points")
            }
            return .point(try curve.decodePoint(bytes))
        case .modp(let modp):
            guard !bytes.isEmpty else { throw ArithmeticError(.malformedEncoding, "an empty DH public value") }
            return .integer(try modp.decodePublicValue(bytes))
        }
    }

    /// The encoding a public key travels in: `04‖x‖y`, or the DH value in the length of p.
    func encode(_ element: Element) throws -> [UInt8] {
        switch (group, element) {
        case (.curve(let curve), .point(let point)): try curve.encode(point)
        case (.modp(let modp), .integer(let value)): try modp.encodePublicValue(value)
        default: throw ArithmeticError(.invalidDomainParameters, "an element of the wrong kind")
        }
    }

    /// The shared element of Generic Mapping: H = SK·PK_peer (a point) or h = PK_peer^SK mod p.
    func sharedElement(privateKey: BigInt, peer: Element) throws -> Element {
        switch (group, peer) {
        case (.curve(let curve), .point(let point)):
            return .point(try curve.sharedPoint(privateKey: privateKey, peerPublicKey: point))
        case (.modp(let modp), .integer(let value)):
            try modp.validatePublicValue(value)
            return .integer(try modp.powerSecret(value, privateKey))
        default:
            throw ArithmeticError(.invalidDomainParameters, "an element of the wrong kind")
        }
    }

    /// The key agreement's shared secret K: the x-coordinate of SK·PK_peer, or PK_peer^SK mod p,
    /// in the field's length.
    func sharedSecret(privateKey: BigInt, peer: Element) throws -> SecretBytes {
        var secret: [UInt8]
        switch (group, peer) {
        case (.curve(let curve), .point(let point)):
            secret = try curve.sharedSecret(privateKey: privateKey, peerPublicKey: point)
        case (.modp(let modp), .integer(let value)):
            secret = try modp.sharedSecret(privateKey: privateKey, peerPublicValue: value)
        default:
            throw ArithmeticError(.invalidDomainParameters, "an element of the wrong kind")
        }
        return SecretBytes(consuming: &secret)
    }

    /// Generic Mapping: the domain with generator s·G + H (or g^s·h mod p).
    func genericallyMapped(nonce: BigInt, shared: Element) throws -> PACEDomain {
        switch (group, shared) {
        case (.curve(let curve), .point(let point)):
            return PACEDomain(
                group: group, generator: .point(try curve.genericMapping(nonce: nonce, sharedPoint: point)))
        case (.modp(let modp), .integer(let value)):
            return PACEDomain(
                group: group, generator: .integer(try modp.genericMapping(nonce: nonce, sharedSecret: value)))
        default:
            throw ArithmeticError(.invalidDomainParameters, "an element of the wrong kind")
        }
    }

    /// Integrated Mapping: the domain whose generator is f_G(R_p(s, t)) (or R_p(s, t)^((p−1)/q) mod p).
    func integrallyMapped(pseudoRandom: [UInt8]) throws -> PACEDomain {
        switch group {
        case .curve(let curve):
            PACEDomain(group: group, generator: .point(try curve.integratedMapping(pseudoRandom: pseudoRandom)))
        case .modp(let modp):
            PACEDomain(group: group, generator: .integer(try modp.integratedMapping(pseudoRandom: pseudoRandom)))
        }
    }
}
