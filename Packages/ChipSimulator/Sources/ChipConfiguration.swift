/// How a simulated chip behaves: its files, its credentials (passwords and private keys), the
/// READ BINARY limits of its operating system, the link it sits behind and the faults it shows on
/// demand.
public struct ChipConfiguration: Sendable {
    public var files: ChipFiles
    /// The passwords, PACE offers and private keys. Without an MRZ password the chip takes it
    /// from the MRZ in DG1 (as a chip personalised from DG1 would).
    public var credentials: Credentials
    /// Whether files other than EF.CardAccess need BAC first (real chips: always).
    public var enforcesAccessControl: Bool
    /// Whether the chip accepts extended Lc/Le (announced in its ATR).
    public var supportsExtendedLength: Bool
    /// The most response bytes one READ BINARY returns (plain data, before secure messaging).
    public var maximumReadLength: Int
    /// What the chip answers when Le asks for more than `maximumReadLength`.
    public var oversizedRead: OversizedReadAnswer
    /// Whether a read that hits the end of the file before Ne bytes ends with 6282 (ISO 7816-4)
    /// rather than 9000 (what most chips answer).
    public var signalsEndOfFile: Bool
    /// Files whose READ BINARY is refused with 6982 (DG3/DG4 need Extended Access Control).
    public var protectedFiles: Set<UInt16>
    /// The link's speed, for the bench and slow-answer tests. Nil answers at once.
    public var link: LinkModel?
    public var faults: [ChipFault]

    public init(
        files: ChipFiles,
        credentials: Credentials = Credentials(),
        enforcesAccessControl: Bool = true,
        supportsExtendedLength: Bool = true,
        maximumReadLength: Int = 65536,
        oversizedRead: OversizedReadAnswer = .truncate,
        signalsEndOfFile: Bool = false,
        protectedFiles: Set<UInt16> = [ChipFiles.dataGroupIdentifier(3), ChipFiles.dataGroupIdentifier(4)],
        link: LinkModel? = nil,
        faults: [ChipFault] = []
    ) {
        self.files = files
        self.credentials = credentials
        self.enforcesAccessControl = enforcesAccessControl
        self.supportsExtendedLength = supportsExtendedLength
        self.maximumReadLength = maximumReadLength
        self.oversizedRead = oversizedRead
        self.signalsEndOfFile = signalsEndOfFile
        self.protectedFiles = protectedFiles
        self.link = link
        self.faults = faults
    }
}

/// What a chip does with a READ BINARY whose Le exceeds the most it returns at once.
public enum OversizedReadAnswer: Sendable, Hashable {
    /// Returns what it can (a short answer, 9000).
    case truncate
    /// 6700 wrong length, no data.
    case wrongLength
    /// 6Cxx naming the length to ask for (xx = 00 for 256).
    case exactLength
}

/// The contactless link: a bit rate plus a fixed per-APDU latency (frame overheads, chip
/// processing). The chip waits this long before answering when `waits` is true, and always adds
/// it to its statistics, so the bench can compare a read to the least time the link allows.
public struct LinkModel: Sendable, Hashable {
    public var bitsPerSecond: Int
    public var latencyPerExchange: Duration
    /// Whether answers are really delayed (slow-answer tests) or only accounted (bench).
    public var waits: Bool

    public init(bitsPerSecond: Int = 424_000, latencyPerExchange: Duration = .milliseconds(3), waits: Bool = false) {
        self.bitsPerSecond = bitsPerSecond
        self.latencyPerExchange = latencyPerExchange
        self.waits = waits
    }

    /// The time one exchange of `bytes` (command plus response) takes on this link.
    public func duration(bytes: Int) -> Duration {
        latencyPerExchange + .nanoseconds(Int64(bytes) * 8 * 1_000_000_000 / Int64(max(bitsPerSecond, 1)))
    }
}

/// A fault the chip shows on demand, for tests of the reader's tolerance. Lost cards, bare status
/// words and slow answers strike plain commands too; the others concern secure messaging.
public enum ChipFault: Sendable, Hashable {
    /// The response to the triggering command carries a wrong MAC.
    case wrongResponseMAC(FaultTrigger)
    /// The triggering command gets `status` as a bare status word (no secure messaging).
    case bareStatusWord(UInt16, FaultTrigger)
    /// Any READ BINARY asking for more than this many bytes gets 6700.
    case wrongLengthAbove(Int)
    /// The chip forgets its session keys at the trigger (as after a power glitch): that command
    /// and every later one under secure messaging get a bare 6988.
    case dropSession(FaultTrigger)
    /// The link breaks at the trigger: the exchange throws `TransportError.tagLost`.
    case tagLost(FaultTrigger)
    /// Secure-messaging responses come without DO'99' (as the vsmartcard ePass answers).
    case omitStatusWordObject
    /// The triggering command is answered only after this delay.
    case slowAnswer(Duration, FaultTrigger)
}

/// When a fault strikes.
public enum FaultTrigger: Sendable, Hashable {
    /// The n-th command (1-based) sent under secure messaging.
    case secureCommand(Int)
    /// Every READ BINARY of the file with this identifier (in the current application).
    case readOf(UInt16)
    /// READ BINARY of the file at a non-zero offset: past the header a reader reads first, so a
    /// reader that sizes files before reading them meets the fault in the middle of the file.
    case readPastHeaderOf(UInt16)
    /// Every command.
    case always
}
