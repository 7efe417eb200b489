import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import Transport

/// Chip Authentication version 1 (ICAO 9303-11 §6.2), the reader's side: an ephemeral key pair
/// on the chip's static key's domain parameters, the key agreement K = KA(SK_IFD, PK_IC), and
/// secure messaging re-keyed with KSenc = KDF(K, 1), KSmac = KDF(K, 2) and SSC 0.
///
/// - 3DES: MSE:Set KAT `0C 22 41 A6` with DO'91' (our ephemeral public key) and DO'84' (the key
///   ID, when the chip has several).
/// - AES: MSE:Set AT `0C 22 41 A4` with DO'80' (the id-CA OID) and DO'84', then GENERAL
///   AUTHENTICATE `0C 86 00 00` with `7C { 80 ephemeral public key }`; the chip answers `7C 00`.
///
/// The chip answers the last command under the old keys; from the next command on both sides use
/// the new ones. Only the genuine chip knows SK_IC, so only it can answer the next command under
/// the new keys: the caller's next exchange is the proof (`SecureChannel` breaks if it cannot).
public enum ChipAuthenticationV1 {
    /// What one run agreed.
    public struct Outcome: Sendable {
        public let offer: ChipAuthenticationOffer
        /// The cipher of the new secure messaging session.
        public let cipher: BlockCipher
        /// Comp(PK_PCD), the terminal's ephemeral key compressed (an EC point's x, SHA-1 of a DH
        /// value): what Terminal Authentication's signature binds to this session.
        public let compressedTerminalKey: [UInt8]

        /// An outcome recorded elsewhere: a replayed session, the `terminalAuthentication` fuzz target.
        public init(offer: ChipAuthenticationOffer, cipher: BlockCipher, compressedTerminalKey: [UInt8]) {
            self.offer = offer
            self.cipher = cipher
            self.compressedTerminalKey = compressedTerminalKey
        }
    }

    /// Runs Chip Authentication with `offer` over `channel` (the secure channel of BAC or PACE)
    /// and re-keys it. Ephemeral keys come from `random`; steps go to `log`, never a secret.
    ///
    /// - Throws: `.unusableKey` before any APDU when the static key cannot be used;
    ///   `.refused` when the chip refuses a command with a status word under intact secure
    ///   messaging (the old session goes on); `.secureMessaging` or `.transport` when the
    ///   channel broke; `.protocolViolation` for a malformed answer.
    public static func run(
        _ offer: ChipAuthenticationOffer, over channel: SecureChannel, random: RandomSource = .system,
        log: (String) -> Void = { _ in }
    ) throws(ChipAuthenticationError) -> Outcome {
        let chipProtocol = offer.chipAuthenticationProtocol
        let (domain, chipKey) = try staticKey(of: offer)
        let (keyPair, secret) = try ephemeralKeyAgreement(domain, chipKey: chipKey, random: random)
        let keyReference = offer.keyId.map { DER.tlv(ASN1Tag(0x84), DER.minimalUnsignedBytes($0)) } ?? []
        if chipProtocol.cipher == .tripleDES {
            try exchange(
                CommandAPDU(
                    ins: 0x22, p1: 0x41, p2: 0xA6,
                    data: DER.tlv(ASN1Tag(0x91), keyPair.publicKey.encoded) + keyReference),
                over: channel, step: "MSE:Set KAT")
        } else {
            try exchange(
                CommandAPDU(
                    ins: 0x22, p1: 0x41, p2: 0xA4,
                    data: DER.tlv(ASN1Tag(0x80), chipProtocol.identifier.content) + keyReference),
                over: channel, step: "MSE:Set AT")
            let data = DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x80), keyPair.publicKey.encoded))
            let answer = try exchange(
                CommandAPDU(
                    ins: 0x86, p1: 0x00, p2: 0x00, data: data,
                    expectedLength: CommandAPDU.maximumShortExpectedLength),
                over: channel, step: "GENERAL AUTHENTICATE")
            // Version 1's answer carries no data objects: 7C 00, or nothing at all.
            guard answer.isEmpty || (try? ASN1Node.parse(answer, maxDepth: 2))?.tag == ASN1Tag(0x7C) else {
                throw ChipAuthenticationError(
                    .protocolViolation, "the answer to GENERAL AUTHENTICATE is not dynamic authentication data (7C)")
            }
        }
        log("Chip Authentication: \(offer) accepted by the chip")

        let session: SecureMessagingSession
        do {
            session = try SecureMessagingSession(
                encryptionKey: ICAOKeyDerivation.deriveKey(
                    from: secret, purpose: .encryption, cipher: chipProtocol.cipher),
                macKey: ICAOKeyDerivation.deriveKey(from: secret, purpose: .mac, cipher: chipProtocol.cipher))
        } catch {
            throw ChipAuthenticationError(.internalFailure, "no session keys: \(error)")
        }
        do throws(SecureMessagingError) {
            try channel.replaceSession(with: session)
        } catch {
            throw ChipAuthenticationError(.secureMessaging, error.reason)
        }
        log("Chip Authentication: secure messaging re-keyed (\(chipProtocol.cipher), SSC 0)")
        let isPoint: Bool
        if case .curve = domain { isPoint = true } else { isPoint = false }
        return Outcome(
            offer: offer, cipher: chipProtocol.cipher,
            compressedTerminalKey: TerminalAuthenticationV1.compressed(keyPair.publicKey.encoded, isPoint: isPoint))
    }

    /// An ephemeral key pair and the secret it agrees with the chip's static key. A DH secret that
    /// begins with a zero byte is drawn again: 9303-11 keeps that byte, but chips built on OpenSSL's
    /// `DH_compute_key` (OpenPACE) drop it and derive other keys, one session in 256. The key is
    /// the terminal's own choice, so drawing again costs the chip nothing.
    static func ephemeralKeyAgreement(
        _ domain: KeyAgreementDomain, chipKey: KeyAgreementPublicKey, random: RandomSource
    ) throws(ChipAuthenticationError) -> (EphemeralKeyPair, SecretBytes) {
        var drawsLeft = 8
        while true {
            drawsLeft -= 1
            do {
                let keyPair = try domain.generateKeyPair(random: random)
                let secret = try domain.sharedSecret(keyPair, chipKey)
                if case .group = domain, drawsLeft > 0, secret.withUnsafeBytes({ $0.first == 0 }) { continue }
                return (keyPair, secret)
            } catch {
                throw ChipAuthenticationError(.internalFailure, "the key agreement failed: \(error)")
            }
        }
    }

    /// The static key's parameters and the key itself, validated like a PACE key (on the curve, in
    /// the subgroup, not the identity; a DH value in range and of order q).
    static func staticKey(of offer: ChipAuthenticationOffer) throws(ChipAuthenticationError) -> (
        KeyAgreementDomain, KeyAgreementPublicKey
    ) {
        let domain: KeyAgreementDomain
        do throws(ArithmeticError) {
            domain = try KeyAgreementDomain(publicKeyInfo: offer.publicKey)
        } catch {
            throw ChipAuthenticationError(.unusableKey, "the Chip Authentication key's parameters: \(error.reason)")
        }
        guard domain.keyAgreement == offer.chipAuthenticationProtocol.keyAgreement else {
            throw ChipAuthenticationError(
                .unusableKey,
                "the Chip Authentication key is for \(domain.keyAgreement.abbreviation), the protocol is "
                    + offer.chipAuthenticationProtocol.keyAgreement.abbreviation)
        }
        do {
            return (domain, try domain.publicKey(of: offer.publicKey))
        } catch {
            throw ChipAuthenticationError(.unusableKey, "the Chip Authentication key is invalid: \(error)")
        }
    }

    /// One command under secure messaging; anything but 9000 is an error.
    @discardableResult
    static func exchange(_ command: CommandAPDU, over channel: any CommandChannel, step: String)
        throws(ChipAuthenticationError) -> [UInt8]
    {
        let answer = try ChipCommand.exchange(command, over: channel, step: step)
        guard answer.statusWord.isSuccess else {
            throw ChipAuthenticationError(
                .refused, "the chip refused \(step) (\(answer.statusWord))", statusWord: answer.statusWord)
        }
        return answer.data
    }
}
