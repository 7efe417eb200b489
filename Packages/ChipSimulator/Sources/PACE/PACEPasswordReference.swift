/// The password MSE:Set AT names in its DO'83' (ICAO 9303-11 §4.4.4.1).
public enum PACEPasswordReference: UInt8, Sendable, Hashable, CaseIterable {
    /// The MRZ information (π = SHA-1 of document number, birth and expiry dates with check digits).
    case mrz = 0x01
    /// The card access number (π = its digits).
    case can = 0x02
}
