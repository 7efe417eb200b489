import ICAO

/// One PACE protocol the chip offers (a PACEInfo of EF.CardAccess): the protocol and the
/// standardized domain parameters it runs on.
public struct PACEOffer: Sendable, Hashable, CustomStringConvertible {
    public let paceProtocol: PACEProtocol
    public let parameters: StandardizedDomainParameters

    /// Nil when the parameters do not suit the protocol's key agreement (a curve for DH, a MODP
    /// group for ECDH).
    public init?(_ paceProtocol: PACEProtocol, parameters: StandardizedDomainParameters) {
        guard paceProtocol.keyAgreement == parameters.keyAgreement else { return nil }
        self.paceProtocol = paceProtocol
        self.parameters = parameters
    }

    public var description: String { "\(paceProtocol) on \(parameters.name)" }
}
