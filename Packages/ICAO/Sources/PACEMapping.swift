import JSON

/// How PACE maps the nonce onto the ephemeral domain parameters (ICAO 9303-11 §4.4.3.3). The
/// JSON names are the reference model's.
public enum PACEMapping: String, Sendable, Hashable, CaseIterable, JSONEnum {
    /// Generic Mapping: G' = s·G + H.
    case genericMapping
    /// Integrated Mapping: a point (or group element) derived from the nonces directly.
    case integratedMapping
    /// Chip Authentication Mapping: Generic Mapping whose chip also proves its static key.
    case chipAuthenticationMapping

    /// The short name of the protocol OIDs: `GM`, `IM`, `CAM`.
    public var abbreviation: String {
        switch self {
        case .genericMapping: "GM"
        case .integratedMapping: "IM"
        case .chipAuthenticationMapping: "CAM"
        }
    }
}
