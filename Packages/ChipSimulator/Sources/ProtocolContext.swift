import ICAO

/// What a protocol handler may know of the chip around it when answering a command.
struct ProtocolContext: Sendable {
    /// Nonces and key material: the system's secure random generator, or fixed bytes in tests
    /// that replay worked examples. Nil when no bytes could be had.
    let randomBytes: @Sendable (Int) -> [UInt8]?
    /// The cipher of the secure-messaging session that protected the command; nil for a plain one.
    let secureMessaging: BlockCipher?
    /// Whether the command had the chaining bit set (only handlers that interpret chaining see it).
    let isChained: Bool
}
