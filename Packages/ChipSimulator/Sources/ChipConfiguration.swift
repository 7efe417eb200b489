import ICAO

/// How a simulated chip behaves: its files, its credentials (passwords and private keys), the
/// READ BINARY limits of its operating system, the link it sits behind and the faults it shows on
/// demand.
public struct ChipConfiguration: Sendable {
    public var files: ChipFiles
    /// The passwords, PACE offers and private keys. Without an MRZ password the chip takes it
    /// from the MRZ in DG1 (as a chip personalised from DG1 would).
    public var credentials: Credentials
    /// Whether files other than EF.CardAccess need BAC or PACE first (real chips: always).
    public var enforcesAccessControl: Bool
    /// Whether the chip runs BAC. A PACE-only chip answers GET CHALLENGE and EXTERNAL
    /// AUTHENTICATE with 6D00, as chips issued without BAC do.
    public var offersBasicAccessControl: Bool
    /// Whether the chip accepts extended Lc/Le (announced in its ATR).
    public var supportsExtendedLength: Bool
    /// How a chip without extended length refuses an extended APDU.
    public var extendedLengthRefusal: ExtendedLengthRefusal
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
    /// How long a PACE nonce the chip draws (one AES block by default, as chips in the field do).
    public var paceNonceLength: PACENonceLength
    /// Terminal Authentication (EAC): the trust point and date; nil for a chip without it, whose
    /// protected files stay closed. EF.CVCA is written for it unless the files hold one.
    public var terminalAuthentication: TerminalAuthenticationSetup?

    public init(
        files: ChipFiles,
        credentials: Credentials = Credentials(),
        enforcesAccessControl: Bool = true,
        offersBasicAccessControl: Bool = true,
        supportsExtendedLength: Bool = true,
        extendedLengthRefusal: ExtendedLengthRefusal = .wrongLength,
        maximumReadLength: Int = 65536,
        oversizedRead: OversizedReadAnswer = .truncate,
        signalsEndOfFile: Bool = false,
        protectedFiles: Set<UInt16> = [ChipFiles.dataGroupIdentifier(3), ChipFiles.dataGroupIdentifier(4)],
        link: LinkModel? = nil,
        faults: [ChipFault] = [],
        paceNonceLength: PACENonceLength = .oneBlock,
        terminalAuthentication: TerminalAuthenticationSetup? = nil
    ) {
        self.files = files
        self.credentials = credentials
        self.enforcesAccessControl = enforcesAccessControl
        self.offersBasicAccessControl = offersBasicAccessControl
        self.supportsExtendedLength = supportsExtendedLength
        self.extendedLengthRefusal = extendedLengthRefusal
        self.maximumReadLength = maximumReadLength
        self.oversizedRead = oversizedRead
        self.signalsEndOfFile = signalsEndOfFile
        self.protectedFiles = protectedFiles
        self.link = link
        self.faults = faults
        self.paceNonceLength = paceNonceLength
        self.terminalAuthentication = terminalAuthentication
    }

    /// Makes the chip offer these PACE protocols (its EF.CardAccess lists them) and, when `only`,
    /// refuse BAC. Each CAM offer whose parameters have no Chip Authentication key in the
    /// credentials gets a fresh one.
    public mutating func offerPACE(_ offers: [PACEOffer], only: Bool = false) throws(ChipSimulatorError) {
        guard !(only && offers.isEmpty) else { throw ChipSimulatorError("a PACE-only chip needs a PACE offer") }
        try credentials.offerPACE(offers)
        offersBasicAccessControl = !only
    }
}
