import CryptoPrimitives
import MRZ
import Secrets
import SecureMessaging
import Transport

/// Basic Access Control, ICAO Doc 9303-11 §4.3 (worked example in Appendix D).
///
/// From the MRZ information, K_seed = SHA-1(MRZ information)[0..<16] and the two 3DES keys
/// K_enc, K_mac (§9.7.1 KDF, counters 1 and 2). Then GET CHALLENGE gives RND.IC; the terminal
/// sends E_IFD = E(K_enc, RND.IFD ‖ RND.IC ‖ K.IFD) and M_IFD = MAC(K_mac, E_IFD) in EXTERNAL
/// AUTHENTICATE; the chip answers E_IC ‖ M_IC. M_IC is verified before E_IC is decrypted, and the
/// decrypted RND.IC and RND.IFD must be the two nonces of this run. Session keys come from
/// K.IFD ⊕ K.IC, and the SSC is RND.IC[4..<8] ‖ RND.IFD[4..<8].
public enum BasicAccessControl {
    /// Runs BAC over `transport` (the eMRTD application already selected) and returns the secure
    /// messaging session the chip now expects. RND.IFD and K.IFD come from `random`.
    ///
    /// - Throws: `AccessControlError` with `accessProtocol == .bac`: `.accessDenied` when the chip
    ///   rejects the password in EXTERNAL AUTHENTICATE (a wrong MRZ: 6300 or 63Cx, 6982, or 6988
    ///   as the ePass emulator answers), `.chipVerificationFailed` when its cryptogram does not verify,
    ///   `.notSupported` for a CAN or a chip that does not run BAC (6D00, 6E00, 6A81: PACE only),
    ///   `.protocolViolation` for another refusal, which names no password.
    public static func establish(
        accessKey: AccessPassword, over transport: any APDUTransport, random: RandomSource = .system
    ) throws(AccessControlError) -> SecureMessagingSession {
        guard accessKey.kind == .mrz else {
            throw AccessControlError(.notSupported, .bac, "BAC needs the MRZ; a CAN works only with PACE")
        }
        let keys = accessKey.withPasswordBytes { Self.keys(fromMRZInformation: $0) }
        let challenge = try getChallenge(transport)
        let terminalNonce: SecretBytes
        let terminalKeyMaterial: SecretBytes
        do throws(SecretsError) {
            terminalNonce = try random.bytes(count: 8)
            terminalKeyMaterial = try random.bytes(count: 16)
        } catch {
            throw AccessControlError(.internalFailure, .bac, "no random bytes: \(error.reason)")
        }
        var cryptogram = try authenticationCryptogram(
            keys: keys, chipNonce: challenge, terminalNonce: terminalNonce, terminalKeyMaterial: terminalKeyMaterial)
        defer { cryptogram.wipe() }
        let command = CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: cryptogram, expectedLength: 40, isSecret: true)
        let answer: ResponseAPDU
        do throws(TransportError) {
            answer = try transport.transmit(command)
        } catch {
            throw .transport(error, .bac, while: "EXTERNAL AUTHENTICATE")
        }
        return try sessionFromChipAnswer(
            answer, keys: keys, chipNonce: challenge, terminalNonce: terminalNonce,
            terminalKeyMaterial: terminalKeyMaterial)
    }

    /// K_enc and K_mac from the MRZ information (document number, date of birth, date of expiry,
    /// each with its check digit).
    static func keys(fromMRZInformation information: UnsafeRawBufferPointer) -> (
        encryption: SymmetricKey, mac: SymmetricKey
    ) {
        var digest = HashAlgorithm.sha1.hash(information)
        defer { digest.wipe() }
        let seed = SecretBytes(digest.prefix(16))
        return (
            ICAOKeyDerivation.deriveKey(from: seed, purpose: .encryption, cipher: .tripleDES),
            ICAOKeyDerivation.deriveKey(from: seed, purpose: .mac, cipher: .tripleDES)
        )
    }

    private static func getChallenge(_ transport: any APDUTransport) throws(AccessControlError) -> [UInt8] {
        let answer: ResponseAPDU
        do throws(TransportError) {
            answer = try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
        } catch {
            throw .transport(error, .bac, while: "GET CHALLENGE")
        }
        guard answer.statusWord.isSuccess else { throw refusal(answer.statusWord, of: "GET CHALLENGE") }
        guard answer.data.count == 8 else {
            throw AccessControlError(
                .protocolViolation, .bac, "GET CHALLENGE returned \(answer.data.count) bytes instead of 8")
        }
        return answer.data
    }

    /// A refusal that rejects no password: the chip does not run BAC, or answered out of protocol.
    private static func refusal(_ statusWord: StatusWord, of command: String) -> AccessControlError {
        statusWord.isUnsupportedCommand
            ? AccessControlError(
                .notSupported, .bac, "the chip does not run BAC (\(command) answered \(statusWord))",
                statusWord: statusWord)
            : AccessControlError(
                .protocolViolation, .bac, "the chip refused \(command) (\(statusWord))", statusWord: statusWord)
    }

    /// E_IFD ‖ M_IFD, the data of EXTERNAL AUTHENTICATE.
    static func authenticationCryptogram(
        keys: (encryption: SymmetricKey, mac: SymmetricKey), chipNonce: [UInt8], terminalNonce: SecretBytes,
        terminalKeyMaterial: SecretBytes
    ) throws(AccessControlError) -> [UInt8] {
        do {
            var plaintext =
                terminalNonce.withUnsafeBytes { Array($0) } + chipNonce
                + terminalKeyMaterial.withUnsafeBytes { Array($0) }
            defer { plaintext.wipe() }
            let encrypted = try keys.encryption.encryptCBC(plaintext, iv: [UInt8](repeating: 0, count: 8))
            return encrypted + (try keys.mac.retailMAC(encrypted))
        } catch {
            throw AccessControlError(.internalFailure, .bac, "cannot compute the cryptogram: \(error)")
        }
    }

    /// Checks the chip's answer to EXTERNAL AUTHENTICATE and derives the session.
    static func sessionFromChipAnswer(
        _ answer: ResponseAPDU, keys: (encryption: SymmetricKey, mac: SymmetricKey), chipNonce: [UInt8],
        terminalNonce: SecretBytes, terminalKeyMaterial: SecretBytes
    ) throws(AccessControlError) -> SecureMessagingSession {
        guard answer.statusWord.isSuccess else {
            guard
                answer.statusWord.isPasswordRejection || answer.statusWord == .securityStatusNotSatisfied
                    || answer.statusWord == .secureMessagingDataObjectsIncorrect
            else { throw refusal(answer.statusWord, of: "EXTERNAL AUTHENTICATE") }
            throw AccessControlError(
                .accessDenied, .bac,
                "the chip refused EXTERNAL AUTHENTICATE (\(answer.statusWord)): check the document number, "
                    + "date of birth and date of expiry", statusWord: answer.statusWord)
        }
        guard answer.data.count == 40 else {
            throw AccessControlError(
                .protocolViolation, .bac, "EXTERNAL AUTHENTICATE returned \(answer.data.count) bytes instead of 40")
        }
        let encrypted = Array(answer.data[0..<32])
        let mac = answer.data[32..<40]
        var plaintext: [UInt8]
        do {
            guard constantTimeEquals(try keys.mac.retailMAC(encrypted), mac) else {
                throw AccessControlError(.chipVerificationFailed, .bac, "the chip's cryptogram has a wrong MAC")
            }
            plaintext = try keys.encryption.decryptCBC(encrypted, iv: [UInt8](repeating: 0, count: 8))
        } catch let error as AccessControlError {
            throw error
        } catch {
            throw AccessControlError(.internalFailure, .bac, "cannot check the chip's cryptogram: \(error)")
        }
        defer { plaintext.wipe() }
        let echoedTerminalNonce = terminalNonce.withUnsafeBytes { constantTimeEquals($0, plaintext[8..<16]) }
        guard plaintext[0..<8].elementsEqual(chipNonce), echoedTerminalNonce else {
            throw AccessControlError(
                .chipVerificationFailed, .bac, "the chip's cryptogram does not hold this run's nonces")
        }
        var seed = terminalKeyMaterial.withUnsafeBytes { terminal in
            zip(terminal, plaintext[16..<32]).map { $0 ^ $1 }
        }
        let sessionSeed = SecretBytes(consuming: &seed)
        let counter = Array(chipNonce[4..<8]) + terminalNonce.withUnsafeBytes { Array($0[4..<8]) }
        do throws(SecureMessagingError) {
            return try SecureMessagingSession(
                encryptionKey: ICAOKeyDerivation.deriveKey(from: sessionSeed, purpose: .encryption, cipher: .tripleDES),
                macKey: ICAOKeyDerivation.deriveKey(from: sessionSeed, purpose: .mac, cipher: .tripleDES),
                sendSequenceCounter: counter)
        } catch {
            throw AccessControlError(.secureMessaging, .bac, "\(error)")
        }
    }
}
