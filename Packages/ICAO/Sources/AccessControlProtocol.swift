import JSON

/// The protocol that opened the chip (ICAO 9303-11 §4). The JSON names are the reference
/// model's: `bac`, `pace`.
public enum AccessControlProtocol: String, Sendable, Hashable, CaseIterable, JSONEnum {
    /// Basic Access Control (§4.3).
    case bac
    /// Password Authenticated Connection Establishment (§4.4).
    case pace

    /// The name users know it by: `BAC`, `PACE`.
    public var displayName: String { rawValue.uppercased() }
}
