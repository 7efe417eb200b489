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
    /// The link breaks at the trigger: the exchange throws `TransportError.TagLost`.
    case tagLost(FaultTrigger)
    /// Secure-messaging responses come without DO'99' (as the vsmartcard ePass answers).
    case omitStatusWordObject
    /// The triggering command is answered only after this delay.
    case slowAnswer(Duration, FaultTrigger)
    /// The chip's side of PACE misbehaves this way whenever it runs.
    case pace(PACEFault)
    /// The chip's side of Chip Authentication breaks secure messaging after the re-key.
    case chipAuthentication(ChipAuthenticationFault)
    /// Active Authentication signs another challenge than the terminal's (its last byte flipped).
    case activeAuthenticationOverOtherChallenge
    /// A clone: the chip's private keys (Chip Authentication and PACE-CAM, Active Authentication)
    /// are fresh keys of the same kind, so the keys in DG14, DG15 and EF.CardSecurity, signed by
    /// the issuer, are not its own.
    case clonedKeys
    /// EF.CardSecurity is served with one bit of its signature flipped.
    case forgedCardSecurity
}

extension ChipFault {
    /// The faults a command line names (`emrtd simulate --chip-fault NAME`), those that make a
    /// chip fail to prove itself genuine.
    public static let byName: [(name: String, fault: ChipFault)] = [
        ("clone", .clonedKeys),
        ("wrong-cam-data", .pace(.wrongChipAuthenticationData)),
        ("forged-card-security", .forgedCardSecurity),
        ("aa-other-challenge", .activeAuthenticationOverOtherChallenge),
        ("ca-keeps-old-keys", .chipAuthentication(.keepsOldKeys)),
        ("ca-wrong-mac", .chipAuthentication(.wrongMACAfterRekey)),
    ]

    /// The fault with this name in `byName`.
    public init(named name: String) throws(ChipSimulatorError) {
        guard let entry = Self.byName.first(where: { $0.name == name.lowercased() }) else {
            throw ChipSimulatorError(
                "\(name) is no chip fault (\(Self.byName.map(\.name).joined(separator: ", ")))")
        }
        self = entry.fault
    }
}
