import ICAO

/// Which protocol opened the chip, with what the later steps need from it: the read reports the
/// protocol and mapping, and PACE-CAM's verification needs the chip's data from the PACE run.
public enum EstablishedAccess: Sendable, Hashable {
    /// Basic Access Control (3DES secure messaging).
    case bac
    case pace(PACEResult)

    public var accessControlProtocol: AccessControlProtocol {
        switch self {
        case .bac: .bac
        case .pace: .pace
        }
    }

    /// The PACE run; nil for BAC.
    public var paceResult: PACEResult? {
        if case .pace(let result) = self { return result }
        return nil
    }

    /// The PACE mapping; nil for BAC.
    public var paceMapping: PACEMapping? {
        if case .pace(let result) = self { return result.paceProtocol.mapping }
        return nil
    }
}

/// A PACE run that reached mutual authentication (ICAO 9303-11 §4.4).
public struct PACEResult: Sendable, Hashable {
    /// Mapping, key agreement and cipher.
    public let paceProtocol: PACEProtocol
    /// The parameter ID sent in MSE:Set AT's tag 84: a standardized one (0–18) or the chip's own
    /// from a PACEDomainParameterInfo. Nil when the PACEInfo names none: then the chip's one
    /// PACEDomainParameterInfo without an ID holds the parameters, and MSE:Set AT has no tag 84.
    public let parameterId: Int?
    /// The password the keys came from.
    public let password: PACEPassword
    /// PACE-CAM only: what the chip sent to prove its static key, verified after DG14 or
    /// EF.CardSecurity is read.
    public let chipAuthenticationMapping: ChipAuthenticationMappingData?
    /// PK_PICC, the chip's ephemeral key of step 3 as it sent it (a point 04‖x‖y, or a DH value):
    /// Terminal Authentication after PACE signs its compressed form as the chip's identifier.
    public let chipEphemeralPublicKey: [UInt8]

    public init(
        paceProtocol: PACEProtocol, parameterId: Int?, password: PACEPassword,
        chipAuthenticationMapping: ChipAuthenticationMappingData? = nil, chipEphemeralPublicKey: [UInt8] = []
    ) {
        self.paceProtocol = paceProtocol
        self.parameterId = parameterId
        self.password = password
        self.chipAuthenticationMapping = chipAuthenticationMapping
        self.chipEphemeralPublicKey = chipEphemeralPublicKey
    }

    /// The standardized parameters `parameterId` names; nil for a chip's own.
    public var standardizedDomainParameters: StandardizedDomainParameters? {
        parameterId.flatMap(StandardizedDomainParameters.init(id:))
    }
}

/// The PACE passwords a reader can hold, by their MSE:Set AT key reference (9303-11 §4.4.3.1.1).
public enum PACEPassword: UInt8, Sendable, Hashable {
    /// The MRZ information (SHA-1 of document number, birth and expiry with check digits).
    case mrz = 0x01
    /// The card access number printed on the document.
    case can = 0x02
}

/// PACE-CAM's evidence (9303-11 §4.4.3.5.1): the chip authentication data CA_IC, decrypted from
/// the chip's last GENERAL AUTHENTICATE answer, and the chip's ephemeral mapping key PK_Map,IC.
/// The chip is genuine when PK_Map,IC = KA(CA_IC, PK_IC) for its static key PK_IC from a
/// document Passive Authentication has verified.
public struct ChipAuthenticationMappingData: Sendable, Hashable {
    public let authenticationData: [UInt8]
    public let chipMappingPublicKey: [UInt8]

    public init(authenticationData: [UInt8], chipMappingPublicKey: [UInt8]) {
        self.authenticationData = authenticationData
        self.chipMappingPublicKey = chipMappingPublicKey
    }
}
