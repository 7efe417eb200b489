import Arithmetic
import ICAO
import Secrets

/// A static ECDH or DH key pair of the chip on some domain parameters: Chip Authentication's key
/// (its public half goes into DG14 and EF.CardSecurity) and PACE-CAM's. The private key is a
/// `BigInt`, whose limbs are wiped when released; descriptions never show it.
public struct KeyAgreementKeyPair: Sendable, CustomStringConvertible, CustomReflectable {
    public let domainParameters: DomainParameters
    let privateKey: BigInt
    /// The public key as it travels: an uncompressed point `04‖x‖y`, or g^x mod p in the
    /// group's length.
    public let publicKey: [UInt8]

    public var keyAgreement: KeyAgreement {
        switch domainParameters {
        case .ellipticCurve: .ecdh
        case .dhGroup: .dh
        }
    }

    /// The curve's or group's name ("brainpoolP256r1", "MODP-1024-160"…), or "explicit".
    public var parametersName: String {
        switch domainParameters {
        case .ellipticCurve(let curve): curve.name ?? "explicit"
        case .dhGroup(let group): group.name ?? "explicit"
        }
    }

    /// A fresh key pair on standardized parameters.
    public static func generate(
        on parameters: StandardizedDomainParameters, random: RandomSource = .system
    ) throws(ChipSimulatorError) -> KeyAgreementKeyPair {
        try generate(in: try Self.domainParameters(parameters), random: random)
    }

    /// A fresh key pair on any domain parameters (a clone's key beside the genuine one).
    static func generate(in domain: DomainParameters, random: RandomSource = .system) throws(ChipSimulatorError)
        -> KeyAgreementKeyPair
    {
        let privateKey: BigInt
        do {
            switch domain {
            case .ellipticCurve(let curve): privateKey = try curve.generateKeyPair(random: random).privateKey
            case .dhGroup(let group): privateKey = try group.generateKeyPair(random: random).privateKey
            }
        } catch {
            throw ChipSimulatorError("cannot generate a key pair: \(error)")
        }
        return try KeyAgreementKeyPair(privateKey: privateKey, domainParameters: domain)
    }

    /// A key pair from its private key (big-endian bytes) on standardized parameters; the private
    /// key must be in [1, order).
    public init(privateKey: [UInt8], on parameters: StandardizedDomainParameters) throws(ChipSimulatorError) {
        try self.init(privateKey: BigInt(bytes: privateKey), domainParameters: try Self.domainParameters(parameters))
    }

    /// A key pair from its private key on any domain parameters.
    public init(privateKey: BigInt, domainParameters: DomainParameters) throws(ChipSimulatorError) {
        let order: BigInt
        switch domainParameters {
        case .ellipticCurve(let curve): order = curve.order
        case .dhGroup(let group): order = group.subgroupOrder ?? (group.p - BigInt(1))
        }
        guard privateKey.signum > 0, privateKey < order else {
            throw ChipSimulatorError("a private key must lie in [1, order)")
        }
        do {
            switch domainParameters {
            case .ellipticCurve(let curve):
                publicKey = try curve.encode(curve.publicKey(for: privateKey))
            case .dhGroup(let group):
                publicKey = try group.encodePublicValue(group.generatorPower(privateKey))
            }
        } catch {
            throw ChipSimulatorError("cannot compute the public key: \(error)")
        }
        self.privateKey = privateKey
        self.domainParameters = domainParameters
    }

    public var description: String {
        "KeyAgreementKeyPair(\(keyAgreement.abbreviation) on \(parametersName), private key redacted)"
    }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    private static func domainParameters(
        _ parameters: StandardizedDomainParameters
    ) throws(ChipSimulatorError) -> DomainParameters {
        guard let entry = StandardDomainParameters.parameters(id: parameters.id) else {
            throw ChipSimulatorError("no domain parameters with ID \(parameters.id)")
        }
        return entry.parameters
    }
}
