import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import Synchronization
import TestSupport
import Transport

/// A chip for PACE-GM over ECDH with 3DES on secp256r1, which no published example covers,
/// written from 9303-11 §4.4 for the test alone: it encrypts its 8-byte nonce under K_π (3DES-CBC,
/// IV 0), maps with its fixed mapping key, agrees on its fixed ephemeral key, checks the terminal's
/// retail-MAC token (6300 when wrong) and answers its own, then serves SELECT of the application
/// under 3DES secure messaging with SSC 0.
final class TripleDESPACEChip: Sendable {
    static let protocolIdentifier: ASN1ObjectIdentifier = "0.4.0.127.0.7.2.2.4.2.1"
    static let nonce = hex("6A1D0F3C92B54E70")
    static let mappingPrivateKey = BigInt(
        bytes: hex("3C8F1A5E72D94B06E1A35C7F20B84D9615E6A7C3D0F2B894A17E5C3B9D026F41"))
    static let ephemeralPrivateKey = BigInt(
        bytes: hex("52B7E08C1D4F3A69C2E85B17F04D9A3E6B21C8F75A0E3D94B6C1F82A7E05D3B9"))

    private struct State {
        var mappedGenerator: ECPoint?
        var terminalKey: [UInt8] = []
        var chipKey: [UInt8] = []
        var session: SecureMessagingSession?
    }

    let curve: EllipticCurve
    private let passwordKey: SymmetricKey
    private let state = Mutex(State())

    init(mrzInformation: String) throws {
        guard let curve = StandardizedDomainParameters.secp256r1.curve else {
            throw TransportError.Unexpected(detail: "no curve")
        }
        self.curve = curve
        var digest = HashAlgorithm.sha1.hash(Array(mrzInformation.utf8))
        passwordKey = ICAOKeyDerivation.deriveKey(
            from: SecretBytes(consuming: &digest), purpose: .password, cipher: .tripleDES)
    }

    /// The keys the chip derived, once the key agreement ran.
    var session: SecureMessagingSession? { state.withLock { $0.session } }

    /// MSE:Set AT for the MRZ and parameters 12, the four GENERAL AUTHENTICATE steps, SELECT under SM.
    var steps: [ScriptedTransport.Step] {
        [
            exchange(setAuthenticationTemplate(family: 2, cipher: 1, parameterId: 12), ok()),
            .respond("GENERAL AUTHENTICATE 1") { [self] command throws(TransportError) in
                try self.encryptedNonce(command)
            },
            .respond("GENERAL AUTHENTICATE 2") { [self] command throws(TransportError) in try self.mapping(command) },
            .respond("GENERAL AUTHENTICATE 3") { [self] command throws(TransportError) in try self.keyAgreement(command)
            },
            .respond("GENERAL AUTHENTICATE 4") { [self] command throws(TransportError) in
                try self.mutualAuthentication(command)
            },
        ]
    }

    /// SELECT of the eMRTD application under the session PACE agreed.
    var selectApplication: ScriptedTransport.Step {
        .respond("SELECT under SM") { [self] command throws(TransportError) in
            try state.withLock { state throws(TransportError) -> ResponseAPDU in
                guard var session = state.session else { throw .Unexpected(detail: "no session") }
                let plain: CommandAPDU
                let answer: ResponseAPDU
                do throws(SecureMessagingError) {
                    plain = try session.unwrapCommand(command)
                    answer = try session.wrapResponse(ResponseAPDU(statusWord: .success), to: plain)
                } catch {
                    throw .Unexpected(detail: "chip SM: \(error)")
                }
                guard plain.ins == 0xA4, plain.data == ApplicationIdentifier.emrtd else {
                    throw .Unexpected(detail: "not SELECT of the eMRTD application: \(plain)")
                }
                state.session = session
                return answer
            }
        }
    }

    private func objects(_ command: CommandAPDU, cla: UInt8) throws(TransportError) -> ASN1Node {
        guard command.cla == cla, command.ins == 0x86, let node = try? ASN1Node.parse(command.data),
            node.tag == ASN1Tag(0x7C)
        else { throw .Unexpected(detail: "not GENERAL AUTHENTICATE with CLA \(cla): \(command)") }
        return node
    }

    private func child(_ node: ASN1Node, _ tag: UInt64) throws(TransportError) -> [UInt8] {
        guard let child = node.child(ASN1Tag(tag)) else { throw .Unexpected(detail: "no data object \(tag)") }
        return Array(child.content)
    }

    private func answer(_ tag: UInt64, _ value: [UInt8]) -> ResponseAPDU {
        ResponseAPDU(data: DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(tag), value)), statusWord: .success)
    }

    private func encryptedNonce(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        _ = try objects(command, cla: 0x10)
        guard let z = try? passwordKey.encryptCBC(Self.nonce, iv: [UInt8](repeating: 0, count: 8)) else {
            throw .Unexpected(detail: "cannot encrypt the nonce")
        }
        return answer(0x80, z)
    }

    private func mapping(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let terminalKey = try child(try objects(command, cla: 0x10), 0x81)
        guard let point = try? curve.decodePoint(terminalKey),
            let chipKey = try? curve.encode(curve.multiply(curve.generator, by: Self.mappingPrivateKey))
        else { throw .Unexpected(detail: "bad mapping key") }
        let shared = curve.multiply(point, by: Self.mappingPrivateKey)
        state.withLock {
            $0.mappedGenerator = curve.add(curve.multiply(curve.generator, by: BigInt(bytes: Self.nonce)), shared)
        }
        return answer(0x82, chipKey)
    }

    private func keyAgreement(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let terminalKey = try child(try objects(command, cla: 0x10), 0x83)
        return try state.withLock { state throws(TransportError) -> ResponseAPDU in
            guard let generator = state.mappedGenerator, let point = try? curve.decodePoint(terminalKey),
                let chipKey = try? curve.encode(curve.multiply(generator, by: Self.ephemeralPrivateKey)),
                let x = curve.multiply(point, by: Self.ephemeralPrivateKey).x,
                let secretBytes = try? x.bytes(length: 32)
            else { throw .Unexpected(detail: "bad ephemeral key") }
            let secret = SecretBytes(secretBytes)
            state.terminalKey = terminalKey
            state.chipKey = chipKey
            state.session = try? SecureMessagingSession(
                encryptionKey: ICAOKeyDerivation.deriveKey(from: secret, purpose: .encryption, cipher: .tripleDES),
                macKey: ICAOKeyDerivation.deriveKey(from: secret, purpose: .mac, cipher: .tripleDES))
            return answer(0x84, chipKey)
        }
    }

    private func mutualAuthentication(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let token = try child(try objects(command, cla: 0x00), 0x85)
        return try state.withLock { state throws(TransportError) -> ResponseAPDU in
            guard let macKey = state.session?.macKey else { throw .Unexpected(detail: "no keys") }
            func mac(over key: [UInt8]) -> [UInt8]? {
                try? macKey.retailMAC(
                    DER.tlv(
                        ASN1Tag(0x7F49),
                        DER.objectIdentifier(Self.protocolIdentifier) + DER.tlv(ASN1Tag(0x86), key)))
            }
            guard mac(over: state.chipKey) == token else { return ResponseAPDU(statusWord: .verificationFailed) }
            guard let chipToken = mac(over: state.terminalKey) else { throw .Unexpected(detail: "no token") }
            return answer(0x86, chipToken)
        }
    }
}
