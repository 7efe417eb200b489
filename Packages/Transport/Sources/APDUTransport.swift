/// One link to a card, typed: sends one command APDU, returns its response. What the protocol
/// packages send through; the reference's raw-bytes `CardTransport`, which callers implement,
/// comes in through `CardTransportLink`.
///
/// Implementations: `PCSCTransport` (PC/SC readers), `ScriptedTransport` (tests),
/// `LoggingTransport`. Secure messaging is not one: `SecureMessaging`'s `SecureChannel` is a
/// `CommandChannel` that sends through one of these. Exchanges are blocking,
/// one at a time: a card answers one command before the next, and callers run the read on a
/// thread of their own. Transports are `Sendable` so a transport made on one thread can be used
/// on another and cancelled from a third; implementations guard their state with a lock.
public protocol APDUTransport: AnyObject, Sendable {
    /// Whether commands may use extended Lc/Le (both the reader and the card accept it).
    var supportsExtendedLength: Bool { get }

    /// Sends one command and waits for its response. Status words, errors included, come back
    /// as responses; only a failing link throws.
    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU
}
