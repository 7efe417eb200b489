import ICAO

/// What the chip access procedure may try, for a terminal that knows its documents (a kiosk that
/// must never fall back to BAC, a test that forces one mapping).
public struct ChipAccessPreferences: Sendable, Hashable {
    /// The PACE mappings to try, in this order; within a mapping the strongest cipher first
    /// (AES-256, 192, 128, then 3DES). Empty: never PACE.
    public var paceMappings: [PACEMapping]
    /// Whether BAC may open the chip when it offers no PACE, or when every PACE offer failed
    /// before mutual authentication (9303-11 §4.2 lets a chip keep BAC beside PACE).
    public var allowsBACFallback: Bool

    /// By strength, as 9303-11 orders them: CAM (also proves the chip), GM, IM; BAC allowed.
    public init(
        paceMappings: [PACEMapping] = [.chipAuthenticationMapping, .genericMapping, .integratedMapping],
        allowsBACFallback: Bool = true
    ) {
        self.paceMappings = paceMappings
        self.allowsBACFallback = allowsBACFallback
    }
}
