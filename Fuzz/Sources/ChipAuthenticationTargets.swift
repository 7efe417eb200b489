import ASN1
import CVCertificates
import ChipAuthentication
import ICAO
import LDS
import Secrets
import SecureMessaging
import Synchronization
import Transport

/// The chip's answers to Chip Authentication (`chipAuthentication`) and Active Authentication
/// (`activeAuthentication`). Answers at random never pass the MAC of secure messaging, so the
/// fuzzer's bytes are the chip's *plain* answers (data, then SW1 SW2) and `ProtectingChip`
/// protects each one under the session the reader holds, as a genuine chip would: the protocols'
/// parsing and checks see hostile content under valid secure messaging.
///
/// `chipAuthentication`: the first byte picks the offer (modulo `chipAuthenticationOffers.count`:
/// ECDH with 3DES, AES-128, AES-256, DH with 3DES and AES-192); the rest is the chip's answers,
/// each as a length byte and that many bytes (a missing one: the card leaves). Property: a run
/// that succeeds has re-keyed the channel to the offer's cipher with SSC 0.
///
/// `activeAuthentication`: the first byte picks the key (even: the real RSA-1792 DG15 of the
/// vectors, with its recorded challenge; odd: a P-256 key with an ActiveAuthenticationInfo naming
/// SHA-256); the rest is the plain answer to INTERNAL AUTHENTICATE. Property: whatever verifies
/// verifies again (the check is a pure function of its input).
let chipAuthenticationTarget = FuzzTarget(name: "chipAuthentication") { input in
    guard let control = input.first else { return }
    let offers = FuzzKeys.chipAuthenticationOffers
    let offer = offers[Int(control) % offers.count]
    var answers: [[UInt8]] = []
    var rest = input.dropFirst()
    while let length = rest.first {
        let answer = Array(rest.dropFirst().prefix(Int(length)))
        answers.append(answer)
        rest = rest.dropFirst(1 + answer.count)
    }
    guard let session = try? knownSession(aes: false) else { return }
    let chip = ProtectingChip(session: session, answers: answers)
    let channel = SecureChannel(base: chip, session: session)
    do throws(ChipAuthenticationError) {
        let outcome = try ChipAuthenticationV1.run(offer, over: channel, random: FuzzKeys.fixedRandom)
        let rekeyed = channel.currentSession
        fuzzCheck(rekeyed.cipher == outcome.offer.chipAuthenticationProtocol.cipher, "re-keyed to \(rekeyed.cipher)")
        fuzzCheck(rekeyed.sendSequenceCounter.allSatisfy { $0 == 0 }, "the SSC after Chip Authentication is not 0")
    } catch {
        _ = error.reason
    }
}

let activeAuthenticationTarget = FuzzTarget(name: "activeAuthentication") { input in
    guard let control = input.first, let session = try? knownSession(aes: true) else { return }
    let answer = Array(input.dropFirst())
    let chip = ProtectingChip(session: session, answers: [answer])
    let channel = SecureChannel(base: chip, session: session)
    let (key, info, challenge) =
        control & 1 == 0 ? FuzzKeys.rsaActiveAuthentication : FuzzKeys.ecdsaActiveAuthentication
    let recorded = control & 1 == 0 && answer == FuzzKeys.recordedSignature + [0x90, 0x00]
    do throws(ChipAuthenticationError) {
        let signature = try ActiveAuthentication.internalAuthenticate(
            challenge: challenge, publicKey: key, over: channel)
        let scheme = try ActiveAuthentication.verify(
            signature: signature, challenge: challenge, publicKey: key, info: info)
        let again = try? ActiveAuthentication.verify(
            signature: signature, challenge: challenge, publicKey: key, info: info)
        fuzzCheck(again == scheme, "a signature verified once as \(scheme), then as \(String(describing: again))")
    } catch {
        fuzzCheck(!recorded, "the real chip's recorded signature did not verify: \(error)")
    }
}

/// `terminalAuthentication`: the chip's side of Terminal Authentication v1. The first byte is the
/// length of EF.CVCA, then EF.CVCA (its trust points pick the path through a fixed CVCA → DV → IS
/// chain, `FuzzKeys.terminalChain`), then the chip's plain answers as `chipAuthentication` takes
/// them: to MSE:Set DST and PSO:Verify Certificate per certificate, MSE:Set AT, GET CHALLENGE and
/// EXTERNAL AUTHENTICATE. Properties: a run that succeeds returns the path's terminal; a refusal
/// carries the status word that refused.
let terminalAuthenticationTarget = FuzzTarget(name: "terminalAuthentication") { input in
    guard let cvcaLength = input.first else { return }
    let cvca = Array(input.dropFirst().prefix(Int(cvcaLength)))
    var answers: [[UInt8]] = []
    var rest = input.dropFirst(1 + cvca.count)
    while let length = rest.first {
        let answer = Array(rest.dropFirst().prefix(Int(length)))
        answers.append(answer)
        rest = rest.dropFirst(1 + answer.count)
    }
    guard let session = try? knownSession(aes: true) else { return }
    let chip = ProtectingChip(session: session, answers: answers)
    let channel = SecureChannel(base: chip, session: session)
    let (certificates, signer) = FuzzKeys.terminalChain
    do throws(ChipAuthenticationError) {
        let path = try TerminalAuthenticationV1.path(
            from: certificates, trustPoints: try TerminalAuthenticationV1.trustPoints(cvcaFile: cvca))
        let terminal = try TerminalAuthenticationV1.run(
            certificates: path, documentIdentifier: Array("L898902C<3".utf8),
            chipAuthentication: FuzzKeys.terminalChipAuthentication, signer: signer, over: channel)
        fuzzCheck(terminal.holderReference == path.last?.holderReference, "authenticated another terminal")
    } catch {
        if error.code == .refused || error.code == .verificationFailed {
            fuzzCheck(error.statusWord.map { !$0.isSuccess } ?? false, "a refusal without a refusing status word")
        }
    }
}

/// A chip that unwraps each protected command with its own copy of the session and protects the
/// next scripted plain answer in reply; past the script (or for an answer shorter than a status
/// word) the card leaves the field.
final class ProtectingChip: APDUTransport, Sendable {
    private let state: Mutex<(session: SecureMessagingSession, answers: [[UInt8]])>

    init(session: SecureMessagingSession, answers: [[UInt8]]) {
        state = Mutex((session, answers))
    }

    var supportsExtendedLength: Bool { true }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        try state.withLock { state throws(TransportError) -> ResponseAPDU in
            guard !state.answers.isEmpty else { throw .TagLost }
            let answer = state.answers.removeFirst()
            guard let plain = try? ResponseAPDU(encoded: answer) else { throw .TagLost }
            do throws(SecureMessagingError) {
                let unwrapped = try state.session.unwrapCommand(command)
                return try state.session.wrapResponse(plain, to: unwrapped)
            } catch {
                throw .Unexpected(detail: "the chip could not unwrap the command: \(error.reason)")
            }
        }
    }
}

/// The keys the two targets run with, built once.
enum FuzzKeys {
    /// The same "random" bytes every run, so that an input replays exactly.
    static let fixedRandom = RandomSource { (count) throws(SecretsError) in
        SecretBytes([UInt8](repeating: 0x5A, count: count))
    }

    /// A CVCA (`FZCVCA00001`), a DV and an inspection system on P-256 with keys from
    /// `fixedRandom`, given out of order as a terminal's folder does, and the terminal's signer.
    static let terminalChain: ([CVCertificate], TerminalAuthenticationV1.Signer) = {
        let algorithm = TerminalAuthenticationAlgorithm.ecdsa(.sha256)
        let from = CVCDate(year: 2026, month: 1, day: 1)
        let until = CVCDate(year: 2027, month: 12, day: 31)
        guard let curve = StandardizedDomainParameters.secp256r1.curve, let from, let until,
            let key = try? CVCPrivateKey.generateECDSA(on: curve, random: fixedRandom),
            let publicKey = try? key.publicKey(algorithm: algorithm, includingCurve: true)
        else { fatalError("the fuzz target's terminal key does not build") }
        func issue(_ authority: String, _ holder: String, _ role: CertificateHolderAuthorization.Role) -> CVCertificate
        {
            guard
                let certificate = try? CVCertificate.issue(
                    authorityReference: authority, publicKey: publicKey, holderReference: holder,
                    authorization: .init(inspectionSystem: role, rights: [.readDG3, .readDG4]), effectiveDate: from,
                    expirationDate: until, signer: key, signingAlgorithm: algorithm)
            else { fatalError("the fuzz target's certificates do not build") }
            return certificate
        }
        let chain = [
            issue("FZDV00001", "FZIS00001", .terminal), issue("FZCVCA00001", "FZCVCA00001", .cvca),
            issue("FZCVCA00001", "FZDV00001", .domesticDocumentVerifier),
        ]
        return (chain, { data in try key.sign(data, algorithm: algorithm, random: fixedRandom) })
    }()

    /// Chip Authentication's outcome Terminal Authentication binds to: ECDH, AES-128, a fixed key.
    static let terminalChipAuthentication = ChipAuthenticationV1.Outcome(
        offer: chipAuthenticationOffers[1], cipher: .aes128, compressedTerminalKey: [UInt8](repeating: 0x5A, count: 32))

    /// The vectors' real DG15 (RSA-1792) and the challenge its recorded signature answers.
    static let rsaActiveAuthentication: (PublicKeyInfo, ActiveAuthenticationInfo?, [UInt8]) = {
        let dataGroup15 = Hex.decode(
            "6F8201023081FF300D06092A864886F70D01010105000381ED003081E90281E100BB8F93F4DC95E205CDA17C6927AB1E365B13065D03CD12E0FCE95D96840529453202F56CC4C13F77CD062930C8BC89A2873B257045C286E601CF3C09323A53103314902804AA10A314628CE222206A8866946A36B442041BB54AC81E6855DD1D6E16101833D65A191C20AC8B33B8A1A32920F46043F8031CF2BC17417030865FC5BE5A39DEE423BCBA3CA8177168EB23CFE01BA43EC87711B1CFFF85DB46F300DD8AE317B50D543B573E119E23AF7070D0B2FED6A3B2313A5EC02A531AAED1741F4390D1013E2A0F081EAC5DC8B0A1B2C6BDB1206F08D30E3643E1E5BDF536110203010001"
        )
        guard let bytes = dataGroup15, let key = try? ActiveAuthenticationPublicKey(bytes) else {
            fatalError("the fuzz target's DG15 does not parse")
        }
        return (key.publicKey, nil, [0x96, 0x30, 0x2B, 0x0F, 0x3D, 0x7E, 0x78, 0x64])
    }()

    /// The real chip's answer to `rsaActiveAuthentication`'s challenge.
    static let recordedSignature =
        Hex.decode(
            "474256306840C0AB1B63C10E1C26BDFEF4A0DD843920283CC4E6E70A60F2BD25DC7725F9677BC1CDE66379DC28B38E8490F33AFB2D10F9980C44C0BFC175D2B6684218F535C92FDD3E18DB770A9CCBF91DB3C7F0138E6D9E94B9BC8371761E3ABED5E5E9B260279CFB238B58AE0D6A01DA51C74C2A3ECD62C448BD9F20127F7384587287FA971204234E55B1A856C3E5AAAA620BB799A68FBAE08EE132BB61683EBA9B0B40DC1E54641CAD975B16991CAB50AF82E3F3985AFD19E7427A125F5B4B9878B12A5D2E01C7EEDCA3BB41C6FC05DCCD818BCE379D04B1F2F5D43487D3"
        ) ?? []

    /// P-256's generator as the key, ecdsa-plain-SHA256 named by DG14.
    static let ecdsaActiveAuthentication: (PublicKeyInfo, ActiveAuthenticationInfo?, [UInt8]) = {
        let dataGroup14 = DER.tlv(
            ASN1Tag(0x6E),
            DER.set([
                DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier.activeAuthentication), DER.integer(1),
                    DER.objectIdentifier("0.4.0.127.0.7.1.1.4.1.3"),
                ])
            ]))
        guard let key = ecKey(.secp256r1), let info = try? SecurityOptions(dataGroup14, kind: .dg14) else {
            fatalError("the fuzz target's EC key does not build")
        }
        return (key, info.activeAuthenticationInfo, [0, 1, 2, 3, 4, 5, 6, 7])
    }()

    /// One offer per key agreement and cipher family, on the curves' and groups' generators.
    static let chipAuthenticationOffers: [ChipAuthenticationOffer] = {
        let ecdh = ecKey(.brainpoolP256r1)
        let ecdh384 = ecKey(.secp384r1)
        let dh = dhKey()
        let offers: [(PublicKeyInfo?, KeyAgreement, BlockCipher, Int?)] = [
            (ecdh, .ecdh, .tripleDES, nil), (ecdh, .ecdh, .aes128, 1), (ecdh384, .ecdh, .aes256, 2),
            (dh, .dh, .tripleDES, nil), (dh, .dh, .aes192, 3),
        ]
        return offers.map { key, keyAgreement, cipher, keyId in
            guard let key else { fatalError("the fuzz target's Chip Authentication keys do not build") }
            return ChipAuthenticationOffer(
                chipAuthenticationProtocol: ChipAuthenticationProtocol(keyAgreement: keyAgreement, cipher: cipher),
                publicKey: key, keyId: keyId)
        }
    }()

    /// `SubjectPublicKeyInfo { { id-ecPublicKey, namedCurve }, G }`.
    static func ecKey(_ parameters: StandardizedDomainParameters) -> PublicKeyInfo? {
        guard let curve = parameters.curve, let oid = parameters.curveIdentifier,
            let point = try? curve.encode(curve.generator)
        else { return nil }
        let algorithm = DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), DER.objectIdentifier(oid)])
        return try? PublicKeyInfo(DER.sequence([algorithm, DER.bitString(point)]))
    }

    /// `SubjectPublicKeyInfo { { standardizedDomainParameters, 0 }, INTEGER g² }` on the 1024-bit group.
    static func dhKey() -> PublicKeyInfo? {
        guard let group = StandardizedDomainParameters.modp1024Subgroup160.group,
            let value = try? group.encodePublicValue(group.power(group.g, 2))
        else { return nil }
        let algorithm = DER.sequence([
            DER.objectIdentifier(ASN1ObjectIdentifier.standardizedDomainParameters), DER.integer(0),
        ])
        return try? PublicKeyInfo(DER.sequence([algorithm, DER.bitString(DER.unsignedInteger(value))]))
    }
}
