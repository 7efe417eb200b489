import ICAO
import Secrets

/// What a protocol handler may know of the chip around it when answering a command.
struct ProtocolContext: Sendable {
    /// Nonces, challenges and ephemeral keys: the system's generator, or fixed bytes in tests
    /// that replay worked examples. Its bytes are secret (wiped when released).
    let random: RandomSource
    /// The cipher of the secure-messaging session that protected the command; nil for a plain one.
    let secureMessaging: BlockCipher?
    /// Whether the command had the chaining bit set (only handlers that interpret chaining see it).
    let isChained: Bool
    /// How many plain response bytes the command's Le leaves room for once secure messaging wraps
    /// them; nil when there is no limit (a plain command, or no Le). A handler whose answer does
    /// not fit answers 6700, as a chip must when a reader asks for too little.
    var responseBudget: Int? = nil
}
