/// What a chip does with a READ BINARY whose Le exceeds the most it returns at once.
public enum OversizedReadAnswer: Sendable, Hashable {
    /// Returns what it can (a short answer, 9000).
    case truncate
    /// 6700 wrong length, no data.
    case wrongLength
    /// 6Cxx naming the length to ask for (xx = 00 for 256).
    case exactLength
}

/// What a chip without extended length answers an extended-length APDU (or, under secure
/// messaging, a 2-byte DO'97' asking for more than 256 bytes).
public enum ExtendedLengthRefusal: Sendable, Hashable {
    /// 6700 wrong length, the session kept: the reader can ask again with a short APDU.
    case wrongLength
    /// 6988 and the secure-messaging session ended, as some chips do with any command they
    /// cannot parse: every later command of the read fails.
    case endsSecureMessaging
}
