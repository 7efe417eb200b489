import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import LDS
import MRZ
import Secrets
import SecureMessaging
import Transport

/// PACE, ICAO 9303-11 §4.4 (worked examples in Appendices G, H and I), the reader's side.
///
/// K_π = KDF_π(password) (SHA-1 of the MRZ information, or the CAN's digits); MSE:Set AT picks
/// the protocol, the password and the parameters; then four GENERAL AUTHENTICATE steps:
///
/// 1. the chip's nonce, encrypted: s = D(K_π, z), CBC with IV 0;
/// 2. the mapping: Generic (and CAM) exchange ephemeral keys and map Ĝ = s·G + H, Integrated
///    sends a nonce t and maps Ĝ = f_G(R_p(s, t));
/// 3. the key agreement on Ĝ: K = KA(SK_IFD, PK_IC), KSenc = KDF(K, 1), KSmac = KDF(K, 2);
/// 4. mutual authentication: T_IFD = MAC(KSmac, PK_IC), checked against the chip's
///    T_IC = MAC(KSmac, PK_IFD) before any session key is used; with CAM, the chip's encrypted
///    chip authentication data A_IC.
///
/// Every key the chip sends is validated and must differ from ours. Secure messaging then starts
/// with SSC 0.
public enum PasswordAuthenticatedConnectionEstablishment {
    /// Runs PACE with `offer` over `transport` and returns the secure messaging session and what
    /// the run established. Ephemeral keys and the Integrated Mapping's nonce come from `random`;
    /// each step is logged, never a secret.
    ///
    /// - Throws: `AccessControlError` with `accessProtocol == .pace`: `.accessDenied` when the chip
    ///   refuses the authentication token (6300: a wrong password), `.notSupported` for parameters
    ///   or an MSE:Set AT the chip or reader cannot use, `.chipVerificationFailed` for an invalid
    ///   or reflected chip key or a wrong chip token, `.protocolViolation` for malformed answers.
    public static func establish(
        _ offer: PACEOffer, cardAccess: SecurityOptions, accessKey: AccessPassword, over transport: any APDUTransport,
        random: RandomSource = .system, log: (String) -> Void = { _ in }
    ) throws(AccessControlError) -> (session: SecureMessagingSession, result: PACEResult) {
        do throws(PACEFailure) {
            return try run(
                offer, cardAccess: cardAccess, accessKey: accessKey, over: transport, random: random, log: log)
        } catch {
            throw error.error
        }
    }

    /// `establish`, telling failures before mutual authentication (the next offer may be tried)
    /// from those after it. `restartsLeft` bounds the fresh starts after a DH shared secret with a
    /// leading zero byte (see step 3).
    static func run(
        _ offer: PACEOffer, cardAccess: SecurityOptions, accessKey: AccessPassword, over transport: any APDUTransport,
        random: RandomSource, log: (String) -> Void, restartsLeft: Int = 2
    ) throws(PACEFailure) -> (session: SecureMessagingSession, result: PACEResult) {
        let paceProtocol = offer.paceProtocol
        let cipher = paceProtocol.cipher
        // MSE:Set AT names the parameters in DO'84'; an ID beyond two bytes is no real chip's.
        let parameterId = offer.parameterId
        if let parameterId, !(0...0xFFFF).contains(parameterId) {
            throw .early(.notSupported, "parameter ID \(parameterId) is out of range")
        }
        let staticDomain = try KeyAgreementDomain.resolve(parameterId: parameterId, for: paceProtocol, in: cardAccess)
        let password: PACEPassword = accessKey.kind == .mrz ? .mrz : .can
        let passwordKey = passwordKey(accessKey, cipher: cipher)

        let setAT = try exchange(
            PACECommands.setAuthenticationTemplate(paceProtocol, password: password, parameterId: parameterId),
            over: transport, step: "MSE:Set AT")
        guard setAT.statusWord.isSuccess else {
            throw .early(
                .notSupported, "the chip refused MSE:Set AT (\(setAT.statusWord))", statusWord: setAT.statusWord)
        }
        log("PACE: MSE:Set AT accepted (\(offer), password \(password))")

        // Step 1: the encrypted nonce.
        let encryptedNonce = try step(1, [], tag: 0x80, over: transport)
        guard !encryptedNonce.isEmpty, encryptedNonce.count % cipher.blockSize == 0 else {
            throw .early(
                .protocolViolation,
                "the encrypted nonce is \(encryptedNonce.count) bytes, not a whole number of "
                    + "\(cipher.blockSize)-byte blocks")
        }
        let nonce = try decryptNonce(encryptedNonce, with: passwordKey)
        log("PACE: step 1, encrypted nonce received")

        // Step 2: the mapping.
        let (mappedDomain, chipMappingKey) = try map(
            nonce, on: staticDomain, paceProtocol: paceProtocol, over: transport, random: random)
        log("PACE: step 2, \(paceProtocol.mapping.abbreviation) mapped the generator")

        // Step 3: the key agreement on the mapped generator.
        let keyPair = try generateKeyPair(mappedDomain, random: random, purpose: "key agreement")
        let keyAnswer = try step(3, DER.tlv(ASN1Tag(0x83), keyPair.publicKey.encoded), tag: 0x84, over: transport)
        let chipKey = try validatedChipKey(keyAnswer, in: mappedDomain, what: "ephemeral key", ours: keyPair.publicKey)
        let sharedSecret: SecretBytes
        do {
            sharedSecret = try mappedDomain.sharedSecret(keyPair, chipKey)
        } catch {
            throw .early(.chipVerificationFailed, "the key agreement failed: \(error)")
        }
        // 9303-11 has a DH secret K as long as p, but chips built on OpenSSL's DH_compute_key
        // (OpenPACE) drop its leading zero bytes and derive other keys, about one session in 256.
        // Neither side has judged the password yet, so a fresh run costs no attempt.
        if case .group = mappedDomain, restartsLeft > 0, sharedSecret.withUnsafeBytes({ $0.first == 0 }) {
            log("PACE: step 3, the DH secret begins with a zero byte that some chips drop: starting again")
            return try run(
                offer, cardAccess: cardAccess, accessKey: accessKey, over: transport, random: random, log: log,
                restartsLeft: restartsLeft - 1)
        }
        let encryptionKey = ICAOKeyDerivation.deriveKey(from: sharedSecret, purpose: .encryption, cipher: cipher)
        let macKey = ICAOKeyDerivation.deriveKey(from: sharedSecret, purpose: .mac, cipher: cipher)
        log("PACE: step 3, keys agreed")

        // Step 4: mutual authentication.
        let keyTag = mappedDomain.publicKeyTag
        let terminalToken = try token(
            PACECommands.publicKeyDataObject(paceProtocol, keyTag: keyTag, key: chipKey.encoded), macKey: macKey)
        let expectedChipToken = try token(
            PACECommands.publicKeyDataObject(paceProtocol, keyTag: keyTag, key: keyPair.publicKey.encoded),
            macKey: macKey)
        let answer = try exchange(
            PACECommands.generalAuthenticate(DER.tlv(ASN1Tag(0x85), terminalToken), isLast: true), over: transport,
            step: "GENERAL AUTHENTICATE (mutual authentication)")
        guard answer.statusWord.isSuccess else {
            if answer.statusWord.isPasswordRejection {
                throw .late(
                    .accessDenied,
                    "the chip refused the authentication token (\(answer.statusWord)): check the "
                        + (password == .mrz ? "document number, date of birth and date of expiry" : "CAN"),
                    statusWord: answer.statusWord)
            }
            throw .late(
                .protocolViolation, "the chip refused mutual authentication (\(answer.statusWord))",
                statusWord: answer.statusWord)
        }
        guard let objects = PACECommands.dynamicAuthenticationData(answer.data),
            let chipToken = objects.first(where: { $0.tag == ASN1Tag(0x86) })
        else {
            throw .late(.protocolViolation, "the mutual authentication answer holds no authentication token")
        }
        guard constantTimeEquals(chipToken.content, expectedChipToken) else {
            throw .late(.chipVerificationFailed, "the chip's authentication token is wrong")
        }
        log("PACE: step 4, the chip's authentication token verified")

        var chipAuthenticationMapping: ChipAuthenticationMappingData?
        if paceProtocol.mapping == .chipAuthenticationMapping, let chipMappingKey {
            guard let encrypted = objects.first(where: { $0.tag == ASN1Tag(0x8A) }) else {
                throw .late(.protocolViolation, "PACE-CAM's answer holds no encrypted chip authentication data")
            }
            chipAuthenticationMapping = ChipAuthenticationMappingData(
                authenticationData: try decryptChipAuthenticationData(Array(encrypted.content), with: encryptionKey),
                chipMappingPublicKey: chipMappingKey.encoded)
            log("PACE: chip authentication data received (to verify with EF.CardSecurity)")
        }
        let session: SecureMessagingSession
        do throws(SecureMessagingError) {
            session = try SecureMessagingSession(encryptionKey: encryptionKey, macKey: macKey)
        } catch {
            throw .late(.secureMessaging, "\(error)")
        }
        return (
            session,
            PACEResult(
                paceProtocol: paceProtocol, parameterId: parameterId, password: password,
                chipAuthenticationMapping: chipAuthenticationMapping, chipEphemeralPublicKey: chipKey.encoded)
        )
    }

    /// Step 2: the ephemeral generator, and for the Generic (and Chip Authentication) Mapping the
    /// chip's validated mapping key.
    private static func map(
        _ nonce: SecretBytes, on staticDomain: KeyAgreementDomain, paceProtocol: PACEProtocol,
        over transport: any APDUTransport, random: RandomSource
    ) throws(PACEFailure) -> (domain: KeyAgreementDomain, chipMappingKey: KeyAgreementPublicKey?) {
        switch paceProtocol.mapping {
        case .genericMapping, .chipAuthenticationMapping:
            let mappingKey = try generateKeyPair(staticDomain, random: random, purpose: "mapping")
            let answer = try step(2, DER.tlv(ASN1Tag(0x81), mappingKey.publicKey.encoded), tag: 0x82, over: transport)
            let chipKey = try validatedChipKey(
                answer, in: staticDomain, what: "mapping key", ours: mappingKey.publicKey)
            do {
                let mapped = try nonce.withUnsafeBytes { s in
                    try staticDomain.genericMapping(
                        nonce: BigInt(bytes: s), mappingKey: mappingKey, chipMappingKey: chipKey)
                }
                return (mapped, chipKey)
            } catch {
                throw .early(.chipVerificationFailed, "the Generic Mapping failed: \(error)")
            }
        case .integratedMapping:
            let cipher = paceProtocol.cipher
            let terminalNonce = try randomBytes(cipher.keyLength, random: random)
            var nonceObject = terminalNonce.withUnsafeBytes { DER.tlv(ASN1Tag(0x81), $0) }
            defer { nonceObject.wipe() }
            _ = try step(2, nonceObject, tag: nil, over: transport)
            do {
                let pseudoRandom = try PACEPseudoRandomFunction.output(
                    chipNonce: nonce, terminalNonce: terminalNonce, cipher: cipher,
                    primeBits: staticDomain.primeBits)
                return (try staticDomain.integratedMapping(pseudoRandom: pseudoRandom), nil)
            } catch {
                throw .early(.chipVerificationFailed, "the Integrated Mapping failed: \(error)")
            }
        }
    }

    /// K_π = KDF_π(π): π is SHA-1(MRZ information) for the MRZ, the CAN's ASCII digits for a CAN.
    static func passwordKey(_ accessKey: AccessPassword, cipher: BlockCipher) -> SymmetricKey {
        let password = accessKey.withPasswordBytes { bytes in
            guard accessKey.kind == .mrz else { return SecretBytes(bytes) }
            var digest = HashAlgorithm.sha1.hash(bytes)
            return SecretBytes(consuming: &digest)
        }
        return ICAOKeyDerivation.deriveKey(from: password, purpose: .password, cipher: cipher)
    }

    /// s = D(K_π, z), CBC with an all-zero IV.
    private static func decryptNonce(_ encrypted: [UInt8], with key: SymmetricKey) throws(PACEFailure) -> SecretBytes {
        do {
            var nonce = try key.decryptCBC(encrypted, iv: [UInt8](repeating: 0, count: key.cipher.blockSize))
            return SecretBytes(consuming: &nonce)
        } catch {
            throw .early(.internalFailure, "cannot decrypt the nonce: \(error)")
        }
    }

    /// CA_IC from A_IC (9303-11 §4.4.3.5): AES-CBC with IV = E(KSenc, −1), the all-ones block, and
    /// padding method 2.
    private static func decryptChipAuthenticationData(_ encrypted: [UInt8], with key: SymmetricKey)
        throws(PACEFailure) -> [UInt8]
    {
        guard !encrypted.isEmpty, encrypted.count % key.cipher.blockSize == 0 else {
            throw .late(
                .protocolViolation,
                "the encrypted chip authentication data is \(encrypted.count) bytes, not a whole number of blocks")
        }
        do {
            let iv = try key.encryptECB([UInt8](repeating: 0xFF, count: key.cipher.blockSize))
            return try ISO7816Padding.unpad(try key.decryptCBC(encrypted, iv: iv))
        } catch {
            throw .late(.chipVerificationFailed, "the encrypted chip authentication data does not decrypt: \(error)")
        }
    }

    /// The authentication token: 3DES retail MAC (ISO/IEC 9797-1 MAC 3, padding 2) or AES-CMAC
    /// cut to 8 bytes, over the public key data object.
    private static func token(_ dataObject: [UInt8], macKey: SymmetricKey) throws(PACEFailure) -> [UInt8] {
        do {
            return macKey.cipher == .tripleDES
                ? try macKey.retailMAC(dataObject) : try macKey.cmac(dataObject, truncatedTo: 8)
        } catch {
            throw .early(.internalFailure, "cannot compute the authentication token: \(error)")
        }
    }

    private static func generateKeyPair(_ domain: KeyAgreementDomain, random: RandomSource, purpose: String)
        throws(PACEFailure) -> EphemeralKeyPair
    {
        do {
            return try domain.generateKeyPair(random: random)
        } catch {
            throw .early(.internalFailure, "no \(purpose) key pair: \(error)")
        }
    }

    private static func randomBytes(_ count: Int, random: RandomSource) throws(PACEFailure) -> SecretBytes {
        do throws(SecretsError) {
            return try random.bytes(count: count)
        } catch {
            throw .early(.internalFailure, "no random bytes: \(error.reason)")
        }
    }

    /// The chip's public key, validated, and not a reflection of ours (9303-11 §4.4.1 3d).
    private static func validatedChipKey(
        _ bytes: [UInt8], in domain: KeyAgreementDomain, what: String, ours: KeyAgreementPublicKey
    ) throws(PACEFailure) -> KeyAgreementPublicKey {
        let key: KeyAgreementPublicKey
        do {
            key = try domain.publicKey(bytes)
        } catch {
            throw .early(.chipVerificationFailed, "the chip's \(what) is invalid: \(error)")
        }
        guard key != ours else {
            throw .early(.chipVerificationFailed, "the chip's \(what) is ours reflected")
        }
        return key
    }

    /// One chained GENERAL AUTHENTICATE step (1–3) and the content of the answer's data object
    /// `tag` (none expected: nil).
    private static func step(_ number: Int, _ objects: [UInt8], tag: UInt64?, over transport: any APDUTransport)
        throws(PACEFailure) -> [UInt8]
    {
        let action = "GENERAL AUTHENTICATE step \(number)"
        let answer = try exchange(
            PACECommands.generalAuthenticate(objects, isLast: false), over: transport, step: action)
        guard answer.statusWord.isSuccess else {
            throw .early(
                .protocolViolation, "the chip refused \(action) (\(answer.statusWord))", statusWord: answer.statusWord)
        }
        guard let dataObjects = PACECommands.dynamicAuthenticationData(answer.data) else {
            throw .early(.protocolViolation, "the answer to \(action) is not dynamic authentication data (7C)")
        }
        guard let tag else { return [] }
        guard let object = dataObjects.first(where: { $0.tag == ASN1Tag(tag) }) else {
            throw .early(
                .protocolViolation,
                "the answer to \(action) lacks data object \(String(tag, radix: 16, uppercase: true))")
        }
        return Array(object.content)
    }

    private static func exchange(_ command: CommandAPDU, over transport: any APDUTransport, step: String)
        throws(PACEFailure) -> ResponseAPDU
    {
        if command.needsExtendedLength || (command.expectedLength ?? 0) > CommandAPDU.maximumShortExpectedLength,
            !transport.supportsExtendedLength
        {
            throw .early(.notSupported, "\(step) needs extended length, which this link does not offer")
        }
        do throws(TransportError) {
            return try transport.transmit(command)
        } catch {
            // Only the last GENERAL AUTHENTICATE (CLA 00) is mutual authentication.
            let mutualAuthentication = command.ins == 0x86 && command.cla == 0x00
            throw PACEFailure(
                error: .transport(error, .pace, while: step), beforeMutualAuthentication: !mutualAuthentication)
        }
    }
}
