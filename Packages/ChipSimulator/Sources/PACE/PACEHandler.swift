import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import Transport

/// The chip's side of PACE (ICAO 9303-11 §4.4): MSE:Set AT picks one of the chip's offers and a
/// password, then four chained GENERAL AUTHENTICATE steps run the protocol — the encrypted nonce,
/// the mapping (Generic, Integrated or Chip Authentication Mapping, ECDH or DH), the ephemeral key
/// agreement and the tokens — and open a secure-messaging session with the counter at zero.
///
/// It answers as a chip does: 6A80 for a protocol, parameters or data it does not take, 6A88 for
/// a password it does not hold, 6985 for a step out of order, 6300 when the terminal's token does
/// not verify (the wrong password). A failed step sends the run back to step 1 of the same
/// MSE:Set AT.
struct PACEHandler: ProtocolHandler {
    static let manageSecurityEnvironment: UInt8 = 0x22
    static let generalAuthenticate: UInt8 = 0x86

    /// What MSE:Set AT chose: the offer, K_π, and for CAM the chip's static key.
    struct Selection: Sendable {
        let offer: PACEOffer
        let passwordKey: SymmetricKey
        let domain: PACEDomain
        let staticKey: KeyAgreementKeyPair?

        var cipher: BlockCipher { offer.paceProtocol.cipher }
        var mapping: PACEMapping { offer.paceProtocol.mapping }
    }

    /// A run between GENERAL AUTHENTICATE steps: what the chip drew and agreed so far.
    struct Run: Sendable {
        let selection: Selection
        /// The last step answered (1–3).
        var step: Int
        let nonce: SecretBytes
        var mappingPrivateKey: BigInt?
        var chipMappingKey: [UInt8]?
        var mapped: PACEDomain?
        var chipEphemeralKey: PACEDomain.Element?
        var terminalEphemeralKey: PACEDomain.Element?
        var keys: SessionKeys?
        /// For a DH shared secret that begins with zero bytes: the keys from it without them, as
        /// terminals that use OpenSSL's `DH_compute_key` (OpenPACE, hence OpenSC's npa-tool)
        /// derive them, about one DH session in 256.
        var strippedKeys: SessionKeys?
    }

    enum Stage: Sendable {
        case idle
        case selected(Selection)
        case running(Run)
    }

    private let offers: [PACEOffer]
    private let passwords: [PACEPasswordReference: SecretBytes]
    private let chipAuthenticationKeys: [KeyAgreementKeyPair]
    private let faults: Set<PACEFault>
    private let nonceLength: PACENonceLength
    private var stage = Stage.idle
    /// PK_PICC of the run that last opened a session, as sent (for Terminal Authentication's ID_PICC).
    private(set) var establishedChipKey: (encoded: [UInt8], isPoint: Bool)?

    var instructions: Set<UInt8> { [Self.manageSecurityEnvironment, Self.generalAuthenticate] }
    var interpretsChaining: Bool { true }

    /// The passwords are π: SHA-1 of the MRZ information, the CAN's digits.
    init(
        offers: [PACEOffer], mrz: MRZPassword?, can: CardAccessNumber?,
        chipAuthenticationKeys: [KeyAgreementKeyPair], faults: [PACEFault], nonceLength: PACENonceLength
    ) {
        self.offers = offers
        var passwords: [PACEPasswordReference: SecretBytes] = [:]
        passwords[.mrz] = mrz?.pacePassword()
        passwords[.can] = can?.pacePassword()
        self.passwords = passwords
        self.chipAuthenticationKeys = chipAuthenticationKeys
        self.faults = Set(faults)
        self.nonceLength = nonceLength
    }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        switch command.ins {
        case Self.manageSecurityEnvironment: setAuthenticationTemplate(command)
        default: authenticate(command, context: context)
        }
    }

    mutating func reset() { stage = .idle }

    // MARK: - MSE:Set AT

    private mutating func setAuthenticationTemplate(_ command: CommandAPDU) -> ProtocolOutcome {
        stage = .idle
        guard command.p1 == 0xC1, command.p2 == 0xA4 else { return ProtocolOutcome(.incorrectParameters) }
        guard let objects = try? ASN1Node.parseAll(command.data, rules: .ber) else {
            return ProtocolOutcome(.incorrectData)
        }
        // Tags the command does not define are ignored (9303-11 §4.4.4.1, note 2).
        func value(_ tag: UInt64) -> ArraySlice<UInt8>? { objects.first { $0.tag == ASN1Tag(tag) }?.content }
        guard let oid = value(0x80).flatMap({ try? ASN1ObjectIdentifier(content: $0) }),
            let paceProtocol = PACEProtocol(oid),
            let reference = value(0x83), reference.count == 1,
            let passwordReference = PACEPasswordReference(rawValue: reference[reference.startIndex])
        else { return ProtocolOutcome(.incorrectData) }
        var candidates = offers.filter { $0.paceProtocol == paceProtocol }
        if faults.contains(.requiresParameterID), value(0x84) == nil {
            return ProtocolOutcome(StatusWord(0x6A87))
        }
        if let parameterID = value(0x84) {
            guard (1...2).contains(parameterID.count) else { return ProtocolOutcome(.incorrectData) }
            let id = parameterID.reduce(0) { $0 << 8 | Int($1) }
            candidates = candidates.filter { $0.parameters.id == id }
        }
        // No offer, or several on different parameters with no DO'84' to choose.
        guard candidates.count == 1, let offer = candidates.first, let domain = PACEDomain(offer.parameters) else {
            return ProtocolOutcome(.incorrectData)
        }
        guard let password = passwords[passwordReference] else { return ProtocolOutcome(.referencedDataNotFound) }
        var staticKey: KeyAgreementKeyPair?
        if offer.paceProtocol.mapping == .chipAuthenticationMapping {
            staticKey = chipAuthenticationKeys.first { $0.domainParameters == offer.parameters.domainParameters }
            guard staticKey != nil else { return ProtocolOutcome(.referencedDataNotFound) }
        }
        let passwordKey = ICAOKeyDerivation.deriveKey(
            from: password, purpose: .password, cipher: offer.paceProtocol.cipher)
        stage = .selected(Selection(offer: offer, passwordKey: passwordKey, domain: domain, staticKey: staticKey))
        return ProtocolOutcome(.success)
    }

    // MARK: - GENERAL AUTHENTICATE

    /// The data objects of each step's command (81–85 after an empty step 1).
    private static let commandTags: [ASN1Tag: Int] = [ASN1Tag(0x81): 2, ASN1Tag(0x83): 3, ASN1Tag(0x85): 4]

    private mutating func authenticate(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        let selection: Selection
        var run: Run?
        switch stage {
        case .idle:
            return ProtocolOutcome(.conditionsNotSatisfied)
        case .selected(let chosen):
            selection = chosen
        case .running(let current):
            selection = current.selection
            run = current
        }
        let step = (run?.step ?? 0) + 1
        guard command.p1 == 0, command.p2 == 0 else { return fail(.incorrectParameters, selection) }
        if faults.contains(.runDropped(step: step)) {
            stage = .idle
            return ProtocolOutcome(.conditionsNotSatisfied)
        }
        // Steps 1–3 are chained, step 4 ends the chain (9303-11 §4.4.4.3).
        guard context.isChained == (step < 4) else { return fail(.conditionsNotSatisfied, selection) }
        guard let template = try? ASN1Node.parse(command.data, rules: .ber), template.tag == ASN1Tag(0x7C),
            template.isConstructed
        else { return fail(.incorrectData, selection) }
        let objects = template.children
        // Another step's data object: the terminal is out of step with the chip.
        if objects.contains(where: { Self.commandTags[$0.tag].map { $0 != step } ?? false }) {
            return fail(.conditionsNotSatisfied, selection)
        }
        do {
            switch (step, run) {
            case (1, _):
                guard objects.isEmpty else { return fail(.incorrectData, selection) }
                return try encryptedNonce(selection, context: context)
            case (2, var run?):
                return try map(&run, data: try Self.only(0x81, in: objects), context: context)
            case (3, var run?):
                return try agreeKeys(&run, data: try Self.only(0x83, in: objects), context: context)
            case (4, let run?):
                return try mutualAuthentication(run, token: try Self.only(0x85, in: objects))
            default:
                return fail(.conditionsNotSatisfied, selection)
            }
        } catch let failure as StepFailure {
            return fail(failure.status, selection)
        } catch {
            return fail(.incorrectData, selection)
        }
    }

    /// Why a step failed, as the status word the chip answers.
    private struct StepFailure: Error {
        let status: StatusWord
    }

    /// The content of the step's one data object; anything else in the template is 6A80.
    private static func only(_ tag: UInt64, in objects: [ASN1Node]) throws(StepFailure) -> ArraySlice<UInt8> {
        guard objects.count == 1, objects[0].tag == ASN1Tag(tag) else { throw StepFailure(status: .incorrectData) }
        return objects[0].content
    }

    /// Ends the run, keeping the MSE:Set AT, and answers `status`.
    private mutating func fail(_ status: StatusWord, _ selection: Selection) -> ProtocolOutcome {
        stage = .selected(selection)
        return ProtocolOutcome(status)
    }

    /// Step 1: z = E(K_π, s), CBC with a zero IV.
    private mutating func encryptedNonce(_ selection: Selection, context: ProtocolContext) throws -> ProtocolOutcome {
        let nonce = try context.random.bytes(count: nonceLength.byteCount(selection.cipher))
        let zeroIV = [UInt8](repeating: 0, count: selection.cipher.blockSize)
        var encrypted = try nonce.withUnsafeBytes { try selection.passwordKey.encryptCBC($0, iv: zeroIV) }
        if faults.contains(.unalignedNonce) { encrypted.removeLast() }
        stage = .running(Run(selection: selection, step: 1, nonce: nonce))
        return Self.answer([(0x80, encrypted)])
    }

    /// Step 2: Generic (and CAM) Mapping exchanges mapping keys, G' = s·G + H; Integrated Mapping
    /// takes the terminal's nonce t, G' = f(R_p(s, t)), and answers an empty DO'82'.
    private mutating func map(_ run: inout Run, data: ArraySlice<UInt8>, context: ProtocolContext) throws
        -> ProtocolOutcome
    {
        let selection = run.selection
        let domain = selection.domain
        let answer: [UInt8]
        if selection.mapping == .integratedMapping {
            guard data.count == PACEPseudoRandomFunction.terminalNonceLength(selection.cipher) else {
                throw StepFailure(status: .incorrectData)
            }
            var pseudoRandom = try PACEPseudoRandomFunction.output(
                nonce: run.nonce, terminalNonce: Array(data), cipher: selection.cipher, fieldBits: domain.fieldBits)
            defer { pseudoRandom.wipe() }
            run.mapped = try domain.integrallyMapped(pseudoRandom: pseudoRandom)
            answer = []
        } else {
            let terminalKey = try domain.decodePublicKey(data)
            let (privateKey, publicKey) = try domain.generateKeyPair(random: context.random)
            guard publicKey != terminalKey else { throw StepFailure(status: .incorrectData) }
            let shared = try domain.sharedElement(privateKey: privateKey, peer: terminalKey)
            let nonce = run.nonce.withUnsafeBytes { BigInt(bytes: $0) }
            run.mapped = try domain.genericallyMapped(nonce: nonce, shared: shared)
            run.mappingPrivateKey = privateKey
            let encoded = try domain.encode(publicKey)
            run.chipMappingKey = encoded
            answer = strippedIfAsked(encoded, domain)
        }
        run.step = 2
        stage = .running(run)
        return Self.answer([(0x82, answer)])
    }

    /// Step 3: the anonymous key agreement on the mapped generator. A terminal key equal to one
    /// the chip sent (its mapping key, its ephemeral key) is refused.
    private mutating func agreeKeys(_ run: inout Run, data: ArraySlice<UInt8>, context: ProtocolContext) throws
        -> ProtocolOutcome
    {
        guard let mapped = run.mapped else { throw StepFailure(status: .conditionsNotSatisfied) }
        let terminalKey = try mapped.decodePublicKey(data)
        let terminalEncoding = try mapped.encode(terminalKey)
        guard terminalEncoding != run.chipMappingKey else { throw StepFailure(status: .incorrectData) }
        let (privateKey, publicKey) = try mapped.generateKeyPair(random: context.random)
        guard publicKey != terminalKey else { throw StepFailure(status: .incorrectData) }
        let sharedSecret = try mapped.sharedSecret(privateKey: privateKey, peer: terminalKey)
        run.keys = SessionKeys(sharedSecret: sharedSecret, cipher: run.selection.cipher)
        if case .modp = mapped.group, sharedSecret.withUnsafeBytes({ $0.first == 0 }) {
            var stripped = sharedSecret.withUnsafeBytes { Array($0.drop { $0 == 0 }) }
            run.strippedKeys = SessionKeys(
                sharedSecret: SecretBytes(consuming: &stripped), cipher: run.selection.cipher)
            if faults.contains(.strippedSharedSecret) { run.keys = run.strippedKeys }
        }
        run.chipEphemeralKey = publicKey
        run.terminalEphemeralKey = terminalKey
        run.step = 3
        stage = .running(run)
        return Self.answer([
            (0x84, try faultyKeyIfAsked(try mapped.encode(publicKey), terminal: terminalEncoding, mapped))
        ])
    }

    /// Step 4: checks T_IFD over the chip's ephemeral key, answers T_IC over the terminal's (and for
    /// CAM the encrypted chip authentication data), and opens secure messaging.
    private mutating func mutualAuthentication(_ run: Run, token: ArraySlice<UInt8>) throws -> ProtocolOutcome {
        guard let mapped = run.mapped, var keys = run.keys, let chipKey = run.chipEphemeralKey,
            let terminalKey = run.terminalEphemeralKey
        else { throw StepFailure(status: .conditionsNotSatisfied) }
        let identifier = run.selection.offer.paceProtocol.identifier
        let chipKeyEncoding = try mapped.encode(chipKey)
        let expected = try Self.token(
            mac: keys.mac, protocol: identifier, keyTag: mapped.publicKeyTag, publicKey: chipKeyEncoding)
        if !constantTimeEquals(expected, token) {
            // A terminal that derived its keys from the DH secret without its leading zeros.
            guard let stripped = run.strippedKeys,
                constantTimeEquals(
                    try Self.token(
                        mac: stripped.mac, protocol: identifier, keyTag: mapped.publicKeyTag,
                        publicKey: chipKeyEncoding), token)
            else { throw StepFailure(status: .verificationFailed) }
            keys = stripped
        }
        var chipToken = try Self.token(
            mac: keys.mac, protocol: identifier, keyTag: mapped.publicKeyTag, publicKey: try mapped.encode(terminalKey))
        if faults.contains(.wrongToken) { chipToken[0] ^= 0x01 }
        var objects: [(UInt8, [UInt8])] = [(0x86, chipToken)]
        if let staticKey = run.selection.staticKey, let mappingPrivateKey = run.mappingPrivateKey {
            objects.append(
                (
                    0x8A,
                    try Self.encryptedChipAuthenticationData(
                        staticKey: staticKey, mappingPrivateKey: mappingPrivateKey, keys: keys,
                        offByOne: faults.contains(.wrongChipAuthenticationData))
                ))
        }
        guard let session = ChipSession(keys: keys) else { throw StepFailure(status: .noPreciseDiagnosis) }
        stage = .idle
        let isPoint: Bool
        if case .modp = mapped.group { isPoint = false } else { isPoint = true }
        establishedChipKey = (chipKeyEncoding, isPoint)
        var outcome = Self.answer(objects)
        outcome.session = .establish(session)
        outcome.grantsAccess = true
        return outcome
    }

    // MARK: - Cryptography

    /// The authentication token (9303-11 §4.4.3.4): the MAC under KS_MAC of the public key data
    /// object 7F49 { 06 protocol OID, 86 point | 84 DH value } — the retail MAC for 3DES, CMAC
    /// truncated to 8 bytes for AES. The DH value is an unsigned integer in its fewest octets
    /// (TR-03110-3 D.2.1.1), as OpenPACE's terminals compute it; a point has its fixed length.
    static func token(
        mac: SymmetricKey, protocol identifier: ASN1ObjectIdentifier, keyTag: UInt8, publicKey: [UInt8]
    )
        throws -> [UInt8]
    {
        let value = keyTag == 0x84 ? Array(publicKey.drop { $0 == 0 }) : publicKey
        let object = DER.constructed(
            ASN1Tag(0x7F49), [DER.objectIdentifier(identifier), DER.tlv(ASN1Tag(UInt64(keyTag)), value)])
        return mac.cipher == .tripleDES ? try mac.retailMAC(object) : try mac.cmac(object, truncatedTo: 8)
    }

    /// CAM's A_IC (9303-11 §4.4.3.5): CA_IC = SK_IC⁻¹ · SK_Map,IC mod n in the order's length,
    /// padded (ISO 9797-1 method 2) and encrypted under KS_Enc in CBC with IV = E(KS_Enc, all ones).
    /// `offByOne` sends CA_IC + 1 instead (the `wrongChipAuthenticationData` fault).
    static func encryptedChipAuthenticationData(
        staticKey: KeyAgreementKeyPair, mappingPrivateKey: BigInt, keys: SessionKeys, offByOne: Bool = false
    ) throws -> [UInt8] {
        let order: BigInt
        switch staticKey.domainParameters {
        case .ellipticCurve(let curve): order = curve.order
        case .dhGroup: throw StepFailure(status: .referencedDataNotFound)
        }
        guard let inverse = staticKey.privateKey.inverse(modulo: order) else {
            throw StepFailure(status: .referencedDataNotFound)
        }
        let value = (inverse * mappingPrivateKey + BigInt(offByOne ? 1 : 0)).modulo(order)
        var data = try value.bytes(length: order.byteCount)
        defer { data.wipe() }
        let blockSize = keys.cipher.blockSize
        let iv = try keys.encryption.encryptECB([UInt8](repeating: 0xFF, count: blockSize))
        return try keys.encryption.encryptCBC(ISO7816Padding.pad(data, blockSize: blockSize), iv: iv)
    }

    // MARK: - Faults and encoding

    private func strippedIfAsked(_ encoded: [UInt8], _ domain: PACEDomain) -> [UInt8] {
        guard faults.contains(.strippedLeadingZeros), case .modp = domain.group else { return encoded }
        return Array(encoded.drop { $0 == 0 })
    }

    /// The chip's ephemeral key as sent: itself, or what a fault puts in its place.
    private func faultyKeyIfAsked(_ encoded: [UInt8], terminal: [UInt8], _ mapped: PACEDomain) throws -> [UInt8] {
        if faults.contains(.reflectedKey) { return terminal }
        switch mapped.group {
        case .curve(let curve):
            if faults.contains(.smallSubgroupKey) { return [0x00] }
            if faults.contains(.offCurveKey), case .point(.affine(let x, let y)) = try mapped.decodePublicKey(encoded) {
                let length = curve.coordinateLength
                return [0x04] + (try x.bytes(length: length))
                    + (try ((y + BigInt(1)).modulo(curve.p)).bytes(length: length))
            }
        case .modp(let modp):
            if faults.contains(.smallSubgroupKey) { return try modp.encodePublicValue(modp.p - BigInt(1)) }
            if faults.contains(.offCurveKey) { return try modp.encodePublicValue(modp.p) }
        }
        return strippedIfAsked(encoded, mapped)
    }

    /// 7C { tag value … }, 9000.
    private static func answer(_ objects: [(tag: UInt8, value: [UInt8])]) -> ProtocolOutcome {
        let content = objects.map { DER.tlv(ASN1Tag(UInt64($0.tag)), $0.value) }
        return ProtocolOutcome(ResponseAPDU(data: DER.constructed(ASN1Tag(0x7C), content), statusWord: .success))
    }
}
