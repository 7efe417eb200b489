import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import Transport

/// The chip's side of Chip Authentication v1 (ICAO 9303-11 §6.2), under the secure messaging of
/// BAC or PACE: the terminal sends an ephemeral public key on the domain parameters of one of the
/// chip's static keys; both sides derive K = KA(SK_IC, PK_IFD) and from it new session keys; the
/// chip answers under the old keys and then re-keys its session in place, the counter at zero.
///
/// - 3DES: MSE:Set KAT (`00 22 41 A6`, DO'91' the ephemeral key, DO'84' the key ID when several
///   keys run 3DES) and the answer is 9000.
/// - AES (and 3DES for terminals that use the newer form): MSE:Set AT (`00 22 41 A4`, DO'80' the
///   id-CA OID without its tag, DO'84' the key ID), then GENERAL AUTHENTICATE `7C{80 key}`,
///   answered `7C 00`.
///
/// MSE and GENERAL AUTHENTICATE are PACE's instructions too: this handler takes them and hands
/// everything else (MSE:Set AT `C1A4`, PACE's GENERAL AUTHENTICATE steps) to the PACE handler.
/// Status words: 6982 without secure messaging, 6A86 wrong P1-P2, 6A80 a template, OID or key it
/// does not take (an ephemeral key off the curve, outside the subgroup or outside (1, p − 1) with
/// order q; a protocol no key of the chip runs; several keys and no DO'84'), 6A88 a key ID the chip
/// does not have, 6985 GENERAL AUTHENTICATE without MSE:Set AT.
struct ChipAuthenticationHandler: ProtocolHandler {
    private let keys: [ChipAuthenticationKey]
    private let faults: Set<ChipAuthenticationFault>
    private var pace: PACEHandler?
    /// The key MSE:Set AT chose, awaiting GENERAL AUTHENTICATE.
    private var selected: ChipAuthenticationKey?
    /// Terminal Authentication, which binds to this protocol's ephemeral key; nil on a chip without it.
    private var terminalAuthentication: TerminalAuthenticationState?

    static let performSecurityOperation: UInt8 = 0x2A
    static let getChallenge: UInt8 = 0x84
    static let externalAuthenticate: UInt8 = 0x82

    var instructions: Set<UInt8> {
        var taken: Set<UInt8> = [PACEHandler.manageSecurityEnvironment, PACEHandler.generalAuthenticate]
        if terminalAuthentication != nil {
            taken.formUnion([Self.performSecurityOperation, Self.getChallenge, Self.externalAuthenticate])
        }
        return taken
    }
    /// PACE's GENERAL AUTHENTICATE steps are chained commands that each get an answer.
    var interpretsChaining: Bool { true }

    init(
        keys: [ChipAuthenticationKey], pace: PACEHandler?, faults: [ChipAuthenticationFault],
        terminalAuthentication: TerminalAuthenticationState? = nil
    ) {
        self.keys = keys
        self.pace = pace
        self.faults = Set(faults)
        self.terminalAuthentication = terminalAuthentication
    }

    /// Terminal Authentication's GET CHALLENGE and EXTERNAL AUTHENTICATE come under secure
    /// messaging; BAC's, which have the same instructions, before it.
    func claims(_ command: CommandAPDU, context: ProtocolContext) -> Bool {
        terminalAuthentication != nil && context.secureMessaging != nil
            && (command.ins == Self.getChallenge || command.ins == Self.externalAuthenticate)
    }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        if var terminal = terminalAuthentication, let outcome = Self.terminalAuthentication(command, &terminal, context)
        {
            terminalAuthentication = terminal
            return outcome
        }
        switch (command.ins, command.p1, command.p2) {
        case (PACEHandler.manageSecurityEnvironment, 0x41, 0xA6):
            selected = nil
            pace?.reset()
            return setKeyAgreementTemplate(command, context: context)
        case (PACEHandler.manageSecurityEnvironment, 0x41, 0xA4):
            selected = nil
            pace?.reset()
            return setAuthenticationTemplate(command, context: context)
        case (PACEHandler.generalAuthenticate, _, _) where selected != nil:
            return authenticate(command, context: context)
        default:
            selected = nil
            guard var pace else {
                return ProtocolOutcome(
                    command.ins == PACEHandler.manageSecurityEnvironment
                        ? .incorrectParameters : .conditionsNotSatisfied)
            }
            defer { self.pace = pace }
            let outcome = pace.handle(command, context: context)
            // PACE opened this session: Terminal Authentication's ID_PICC is now its Comp(PK_PICC).
            if outcome.grantsAccess, let key = pace.establishedChipKey {
                terminalAuthentication?.openedByPACE(chipKey: key.encoded, isPoint: key.isPoint)
            }
            return outcome
        }
    }

    mutating func reset() {
        selected = nil
        pace?.reset()
        terminalAuthentication?.reset()
    }

    /// Terminal Authentication's commands (nil for any other): every one under secure messaging
    /// and after Chip Authentication.
    private static func terminalAuthentication(
        _ command: CommandAPDU, _ state: inout TerminalAuthenticationState, _ context: ProtocolContext
    ) -> ProtocolOutcome? {
        switch (command.ins, command.p1, command.p2) {
        case (PACEHandler.manageSecurityEnvironment, 0x81, 0xB6), (PACEHandler.manageSecurityEnvironment, 0x81, 0xA4),
            (performSecurityOperation, _, _), (getChallenge, _, _), (externalAuthenticate, _, _):
            break
        default:
            return nil
        }
        guard context.secureMessaging != nil else { return ProtocolOutcome(.securityStatusNotSatisfied) }
        guard state.compressedTerminalKey != nil else { return ProtocolOutcome(.conditionsNotSatisfied) }
        switch (command.ins, command.p1, command.p2) {
        case (PACEHandler.manageSecurityEnvironment, 0x81, 0xB6):
            return ProtocolOutcome(state.setDigitalSignatureTemplate(command.data))
        case (PACEHandler.manageSecurityEnvironment, _, _):
            return ProtocolOutcome(state.setAuthenticationTemplate(command.data))
        case (performSecurityOperation, 0x00, 0xBE):
            return ProtocolOutcome(state.verifyCertificate(command.data))
        case (performSecurityOperation, _, _):
            return ProtocolOutcome(.incorrectParameters)
        case (getChallenge, _, _):
            guard let random = try? context.random.bytes(count: 8).withUnsafeBytes({ Array($0) }) else {
                return ProtocolOutcome(.noPreciseDiagnosis)
            }
            return ProtocolOutcome(state.getChallenge(random))
        default:
            let (status, rights) = state.externalAuthenticate(command.data)
            var outcome = ProtocolOutcome(status)
            if let granted = rights?.inspectionRights {
                if granted.contains(.readDG3) { outcome.unlocksFiles.insert(ChipFiles.dataGroupIdentifier(3)) }
                if granted.contains(.readDG4) { outcome.unlocksFiles.insert(ChipFiles.dataGroupIdentifier(4)) }
            }
            return outcome
        }
    }

    // MARK: - Commands

    /// MSE:Set KAT: 3DES Chip Authentication in one command.
    private mutating func setKeyAgreementTemplate(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        guard context.secureMessaging != nil else { return ProtocolOutcome(.securityStatusNotSatisfied) }
        guard let objects = try? ASN1Node.parseAll(command.data, rules: .ber),
            let ephemeralKey = Self.value(0x91, in: objects)
        else { return ProtocolOutcome(.incorrectData) }
        do throws(Refusal) {
            let key = try choose(Self.value(0x84, in: objects)) { $0.cipher == BlockCipher.tripleDES }
            return agree(key, ephemeralKey: ephemeralKey, answer: [])
        } catch {
            return ProtocolOutcome(error.status)
        }
    }

    /// MSE:Set AT for Chip Authentication: picks the key that runs the named protocol.
    private mutating func setAuthenticationTemplate(_ command: CommandAPDU, context: ProtocolContext)
        -> ProtocolOutcome
    {
        guard context.secureMessaging != nil else { return ProtocolOutcome(.securityStatusNotSatisfied) }
        guard let objects = try? ASN1Node.parseAll(command.data, rules: .ber),
            let oid = Self.value(0x80, in: objects).flatMap({ try? ASN1ObjectIdentifier(content: $0) }),
            let wanted = ChipAuthenticationProtocol(oid)
        else { return ProtocolOutcome(.incorrectData) }
        do throws(Refusal) {
            selected = try choose(Self.value(0x84, in: objects)) { $0.chipAuthenticationProtocol == wanted }
            return ProtocolOutcome(.success)
        } catch {
            return ProtocolOutcome(error.status)
        }
    }

    /// GENERAL AUTHENTICATE `7C{80 ephemeral key}` after MSE:Set AT; answered `7C 00`.
    private mutating func authenticate(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        guard let key = selected else { return ProtocolOutcome(.conditionsNotSatisfied) }
        selected = nil
        guard context.secureMessaging != nil else { return ProtocolOutcome(.securityStatusNotSatisfied) }
        guard command.p1 == 0, command.p2 == 0 else { return ProtocolOutcome(.incorrectParameters) }
        guard !context.isChained else { return ProtocolOutcome(.conditionsNotSatisfied) }
        guard let template = try? ASN1Node.parse(command.data, rules: .ber), template.tag == ASN1Tag(0x7C),
            template.isConstructed, template.children.count == 1,
            let ephemeralKey = Self.value(0x80, in: template.children)
        else { return ProtocolOutcome(.incorrectData) }
        return agree(key, ephemeralKey: ephemeralKey, answer: DER.tlv(ASN1Tag(0x7C), []))
    }

    // MARK: - Key agreement

    /// K = KA(SK_IC, PK_IFD) with the terminal's key validated, the session keys by the 9303-11
    /// KDF for the key's cipher; the answer goes under the old keys, then the session is re-keyed
    /// (unless a fault keeps the old keys).
    private mutating func agree(_ key: ChipAuthenticationKey, ephemeralKey: ArraySlice<UInt8>, answer: [UInt8])
        -> ProtocolOutcome
    {
        let sessionKeys: SessionKeys
        do {
            sessionKeys = SessionKeys(
                sharedSecret: try Self.sharedSecret(key.keyPair, terminalKey: ephemeralKey), cipher: key.cipher)
        } catch {
            return ProtocolOutcome(.incorrectData)
        }
        let isPoint: Bool
        if case .ellipticCurve = key.keyPair.domainParameters { isPoint = true } else { isPoint = false }
        terminalAuthentication?.compressedTerminalKey = TerminalAuthenticationState.compressed(
            Array(ephemeralKey), isPoint: isPoint)
        let response = ResponseAPDU(data: answer, statusWord: .success)
        return ProtocolOutcome(response, session: faults.contains(.keepsOldKeys) ? .keep : .replaceKeys(sessionKeys))
    }

    /// K: the x-coordinate of SK_IC·PK_IFD in the field's length, or PK_IFD^SK_IC mod p in the length
    /// of p, after the terminal's key has been decoded and validated in the static key's domain.
    static func sharedSecret(_ keyPair: KeyAgreementKeyPair, terminalKey: some Collection<UInt8>) throws
        -> SecretBytes
    {
        let domain = PACEDomain(keyPair.domainParameters)
        let peer = try domain.decodePublicKey(terminalKey)
        return try domain.sharedSecret(privateKey: keyPair.privateKey, peer: peer)
    }

    /// The key a DO'84' names (6A88 when the chip has none with that ID), or the one key that runs
    /// the protocol; 6A80 when the named key runs another protocol, or no key or several do.
    private func choose(
        _ reference: ArraySlice<UInt8>?, accepting: (ChipAuthenticationKey) -> Bool
    ) throws(Refusal) -> ChipAuthenticationKey {
        if let reference {
            guard (1...4).contains(reference.count), let first = reference.first else {
                throw Refusal(status: .incorrectData)
            }
            // The reference as a number, unsigned or (for a key ID DG14 writes as a negative
            // INTEGER) as the INTEGER's two's complement.
            let unsigned = reference.reduce(0) { $0 << 8 | Int($1) }
            let signed = first & 0x80 == 0 ? unsigned : unsigned - (1 << (8 * reference.count))
            guard let key = keys.first(where: { $0.keyIdentifier == unsigned || $0.keyIdentifier == signed }) else {
                throw Refusal(status: .referencedDataNotFound)
            }
            guard accepting(key) else { throw Refusal(status: .incorrectData) }
            return key
        }
        let candidates = keys.filter(accepting)
        guard candidates.count == 1, let key = candidates.first else { throw Refusal(status: .incorrectData) }
        return key
    }

    /// Why MSE was refused, as the status word the chip answers.
    private struct Refusal: Error {
        let status: StatusWord
    }

    /// The content of the first data object with `tag`.
    private static func value(_ tag: UInt64, in objects: [ASN1Node]) -> ArraySlice<UInt8>? {
        objects.first { $0.tag == ASN1Tag(tag) }?.content
    }
}
