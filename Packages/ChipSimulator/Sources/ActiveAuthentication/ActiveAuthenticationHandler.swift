import Transport

/// The chip's side of Active Authentication (ICAO 9303-11 §6.1): INTERNAL AUTHENTICATE
/// (`00 88 00 00`, the terminal's 8-byte challenge RND.IFD) under secure messaging, answered with
/// the signature of the chip's Active Authentication key over it.
///
/// Status words: 6982 without secure messaging, 6A86 P1-P2 other than 0000, 6700 a challenge that
/// is not 8 bytes or an Le too small for the signature once wrapped (an RSA-2048 signature needs
/// extended length under secure messaging), 6F00 when signing fails.
struct ActiveAuthenticationHandler: ProtocolHandler {
    static let internalAuthenticate: UInt8 = 0x88
    static let challengeLength = 8

    private let key: ActiveAuthenticationKey
    /// The `activeAuthenticationOverOtherChallenge` fault: the last challenge byte flipped first.
    private let signsOtherChallenge: Bool

    var instructions: Set<UInt8> { [Self.internalAuthenticate] }

    init(key: ActiveAuthenticationKey, signsOtherChallenge: Bool) {
        self.key = key
        self.signsOtherChallenge = signsOtherChallenge
    }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        guard context.secureMessaging != nil else { return ProtocolOutcome(.securityStatusNotSatisfied) }
        guard command.p1 == 0, command.p2 == 0 else { return ProtocolOutcome(.incorrectParameters) }
        guard command.data.count == Self.challengeLength else { return ProtocolOutcome(.wrongLength) }
        var challenge = Array(command.data)
        if signsOtherChallenge { challenge[challenge.count - 1] ^= 0x01 }
        guard let signature = try? key.sign(challenge: challenge, random: context.random) else {
            return ProtocolOutcome(.noPreciseDiagnosis)
        }
        if let budget = context.responseBudget, signature.count > budget { return ProtocolOutcome(.wrongLength) }
        return ProtocolOutcome(ResponseAPDU(data: signature, statusWord: .success))
    }

    mutating func reset() {}
}
