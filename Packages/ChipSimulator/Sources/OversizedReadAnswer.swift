/// What a chip does with a READ BINARY whose Le exceeds the most it returns at once.
public enum OversizedReadAnswer: Sendable, Hashable {
    /// Returns what it can (a short answer, 9000).
    case truncate
    /// 6700 wrong length, no data.
    case wrongLength
    /// 6Cxx naming the length to ask for (xx = 00 for 256).
    case exactLength
}
