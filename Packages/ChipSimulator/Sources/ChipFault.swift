/// A fault the chip shows on demand, for tests of the reader's tolerance. Lost cards, bare status
/// words and slow answers strike plain commands too; the others concern secure messaging.
public enum ChipFault: Sendable, Hashable {
    /// The response to the triggering command carries a wrong MAC.
    case wrongResponseMAC(FaultTrigger)
    /// The triggering command gets `status` as a bare status word (no secure messaging).
    case bareStatusWord(UInt16, FaultTrigger)
    /// Any READ BINARY asking for more than this many bytes gets 6700.
    case wrongLengthAbove(Int)
    /// Any READ BINARY asking for more than this many bytes gets 9000 and no data, as chips that
    /// cannot serve an Le answer with nothing (an extended Le on some chips, 256 on others).
    case emptyAnswerAbove(Int)
    /// A READ BINARY whose offset + Ne passes the file's end gets 6B00 and no data, rather than the
    /// bytes that are left.
    case refusesReadPastEnd
    /// A READ BINARY that reaches the file's end gets 6282 with three stray bytes (`00 00 80`)
    /// after the file's last byte, a padding some chips leave in the answer.
    case paddedEndOfFile
    /// SELECT with P2 0C and MSE:Set, which return no data, get 6700 when they carry an Le (a
    /// case-3 command sent as case 4), as some chips refuse them.
    case refusesLeWithoutAnswer
    /// The chip ends secure messaging after answering any error status under it (a file it lacks,
    /// 6A82; a file it refuses, 6982): the answer goes out protected, the next command gets a bare
    /// 6988.
    case endsSessionOnError
    /// EF.CardAccess lists, before the PACE offers, what real chips' files hold beside them: an
    /// unknown SecurityInfo, a TerminalAuthenticationInfo, a PACEInfo of a protocol no reader
    /// knows, and the first offer again without its parameter ID (which is OPTIONAL).
    case clutteredCardAccess
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
    /// A clone without these data groups' private keys hiding them (DG14, DG15): EF.COM leaves
    /// them out and SELECT answers 6A82, while EF.SOD still hashes them.
    case hidesDataGroups(Set<Int>)
}

extension ChipFault {
    /// The faults a command line names (`emrtd simulate --chip-fault NAME`): those that make a
    /// chip fail to prove itself genuine, then the real chips' quirks of `FIELD-QUIRKS.md`.
    public static let byName: [(name: String, fault: ChipFault)] = [
        ("clone", .clonedKeys),
        ("wrong-cam-data", .pace(.wrongChipAuthenticationData)),
        ("forged-card-security", .forgedCardSecurity),
        ("hide-dg15", .hidesDataGroups([15])),
        ("hide-dg14-dg15", .hidesDataGroups([14, 15])),
        ("aa-other-challenge", .activeAuthenticationOverOtherChallenge),
        ("ca-keeps-old-keys", .chipAuthentication(.keepsOldKeys)),
        ("ca-wrong-mac", .chipAuthentication(.wrongMACAfterRekey)),
        ("read-empty-above-160", .emptyAnswerAbove(160)),
        ("read-6700-above-160", .wrongLengthAbove(160)),
        ("read-past-end-6b00", .refusesReadPastEnd),
        ("padded-end-of-file", .paddedEndOfFile),
        ("le-on-case-3-6700", .refusesLeWithoutAnswer),
        ("cluttered-card-access", .clutteredCardAccess),
        ("ends-session-on-error", .endsSessionOnError),
        ("pace-requires-parameter-id", .pace(.requiresParameterID)),
        ("select-mf-6a87", .bareStatusWord(0x6A87, .selectOf(0x3F00))),
        ("card-access-6283", .bareStatusWord(0x6283, .selectOf(0x011C))),
        ("bac-6985", .bareStatusWord(0x6985, .instruction(0x84))),
        ("aa-6d00", .bareStatusWord(0x6D00, .instruction(0x88))),
        ("ca-6f00", .bareStatusWord(0x6F00, .instruction(0x22, p1: 0x41))),
        ("sod-wrong-mac", .wrongResponseMAC(.readPastHeaderOf(0x011D))),
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
