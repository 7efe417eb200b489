import CryptoPrimitives
import Secrets
import Transport

/// The chip's side of Basic Access Control (ICAO 9303-11 §4.3): GET CHALLENGE gives RND.IC,
/// EXTERNAL AUTHENTICATE checks the terminal's cryptogram and answers with the chip's half of
/// the key material, from which both sides derive the 3DES session keys.
struct BasicAccessControlHandler: ProtocolHandler {
    static let getChallenge: UInt8 = 0x84
    static let externalAuthenticate: UInt8 = 0x82

    /// K_enc and K_mac from the MRZ password; nil when the chip has no password (EXTERNAL
    /// AUTHENTICATE then gets 6984).
    private let keys: SessionKeys?
    /// RND.IC of the last GET CHALLENGE, good for one EXTERNAL AUTHENTICATE.
    private var challenge: [UInt8]?

    var instructions: Set<UInt8> { [Self.getChallenge, Self.externalAuthenticate] }

    /// K_seed = SHA-1(MRZ information)[0..<16], then K_enc and K_mac by the 9303-11 KDF.
    init(password: MRZPassword?) {
        keys = password.map { SessionKeys(sharedSecret: $0.basicAccessControlSeed(), cipher: .tripleDES) }
    }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        switch command.ins {
        case Self.getChallenge: giveChallenge(command, context: context)
        default: authenticate(command, context: context)
        }
    }

    mutating func reset() { challenge = nil }

    private mutating func giveChallenge(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        guard command.expectedLength == 8 else { return ProtocolOutcome(.wrongLength) }
        // RND.IC is no secret: it goes to the terminal in clear.
        guard let nonce = try? context.random.bytes(count: 8).withUnsafeBytes({ Array($0) }) else {
            return ProtocolOutcome(.noPreciseDiagnosis)
        }
        challenge = nonce
        return ProtocolOutcome(ResponseAPDU(data: nonce, statusWord: .success))
    }

    /// Verifies E.IFD ‖ M.IFD against the challenge given and, on success, answers E.IC ‖ M.IC
    /// (carrying K.IC) and opens the session. Any mismatch is 6300.
    private mutating func authenticate(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        guard let keys else { return ProtocolOutcome(.referenceDataNotUsable) }
        guard let challenge else { return ProtocolOutcome(.conditionsNotSatisfied) }
        self.challenge = nil  // one attempt per challenge
        let data = command.data
        guard data.count == 40, let chipKeyMaterial = try? context.random.bytes(count: 16) else {
            return ProtocolOutcome(.verificationFailed)
        }
        let cryptogram = Array(data.prefix(32))
        let zeroIV = [UInt8](repeating: 0, count: 8)
        guard let mac = try? keys.mac.retailMAC(cryptogram), constantTimeEquals(mac, data.suffix(8)),
            var plain = try? keys.encryption.decryptCBC(cryptogram, iv: zeroIV)
        else { return ProtocolOutcome(.verificationFailed) }
        defer { plain.wipe() }
        let terminalNonce = Array(plain[0..<8])
        guard constantTimeEquals(plain[8..<16], challenge) else { return ProtocolOutcome(.verificationFailed) }
        var answerPlain = challenge + terminalNonce + chipKeyMaterial.withUnsafeBytes { Array($0) }
        defer { answerPlain.wipe() }
        guard let answerCryptogram = try? keys.encryption.encryptCBC(answerPlain, iv: zeroIV),
            let answerMAC = try? keys.mac.retailMAC(answerCryptogram)
        else { return ProtocolOutcome(.verificationFailed) }
        // K_seed = K.IFD xor K.IC, computed inside secret memory.
        let sessionSeed = chipKeyMaterial.withUnsafeBytes { chipHalf in
            SecretBytes(count: 16) { seed in
                for index in 0..<16 { seed[index] = plain[16 + index] ^ chipHalf[index] }
            }
        }
        let sessionKeys = SessionKeys(sharedSecret: sessionSeed, cipher: .tripleDES)
        guard let session = ChipSession(keys: sessionKeys, counter: challenge.suffix(4) + terminalNonce.suffix(4))
        else { return ProtocolOutcome(.verificationFailed) }
        return ProtocolOutcome(
            ResponseAPDU(data: answerCryptogram + answerMAC, statusWord: .success), session: .establish(session),
            grantsAccess: true)
    }
}
