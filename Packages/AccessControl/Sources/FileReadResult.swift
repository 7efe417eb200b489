/// What reading (part of) one file gave: what the chip answered, as `FileReader.outcome(of:)`
/// says it and the read (`Emrtd`'s `ElementaryFileReader`) takes it. A link failure is no
/// outcome: it throws.
public enum FileReadResult<Value: Sendable & Hashable>: Sendable, Hashable {
    case success(Value)
    /// 6A82: the chip has no such file.
    case notFound
    /// 6982: the chip refuses it (DG3/DG4 without Extended Access Control).
    case denied
    /// The chip ended secure messaging (or broke the session) while this file was read: the
    /// read stops, keeping what was read before.
    case sessionEnded(String)
    /// Another status word or malformed content; the reason says which.
    case failed(String)
}
