/// A way the chip's side of Chip Authentication breaks secure messaging after the re-key
/// (`ChipFault.chipAuthentication`), as a cloned chip without the private key, or a faulty one,
/// would: the reader must then find the chip unauthenticated.
public enum ChipAuthenticationFault: Sendable, Hashable {
    /// The chip answers Chip Authentication but keeps its old session keys: the reader's next
    /// command, under the new keys, fails the chip's MAC check (a bare 6988, the session ended).
    case keepsOldKeys
    /// The chip re-keys, but its first answer under the new keys carries a wrong MAC.
    case wrongMACAfterRekey
}
