import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Transport

@testable import ChipSimulator

/// A small PACE terminal written for these tests from 9303-11 §4.4, apart from the chip's handler
/// (only the curve and group arithmetic and the ciphers are shared, through Arithmetic and
/// CryptoPrimitives): it runs GM, IM and CAM over ECDH or DH against a simulated chip and returns
/// the secure-messaging session it agreed, or why it stopped.
struct PACETestTerminal {
    let paceProtocol: PACEProtocol
    let parameters: StandardizedDomainParameters
    /// π: SHA-1 of the MRZ information, or the CAN's digits.
    let password: [UInt8]
    let passwordReference: UInt8
    /// Worked examples fix the terminal's keys and nonce t; otherwise they are random.
    var mappingPrivateKey: BigInt?
    var ephemeralPrivateKey: BigInt?
    var terminalNonce: [UInt8]?
    /// Whether MSE:Set AT names the parameters in DO'84'.
    var namesParameters = true

    enum Failure: Error, Equatable {
        /// The chip answered this status word at this step (0: MSE:Set AT, 1–4: GENERAL AUTHENTICATE).
        case status(StatusWord, step: Int)
        /// z is not whole cipher blocks.
        case nonceNotWholeBlocks
        /// The chip's key at this step is no valid key of the group.
        case invalidChipKey(step: Int)
        /// The chip's ephemeral key is the terminal's own.
        case reflectedChipKey
        /// T_IC does not verify.
        case wrongChipToken
        /// An answer without the data objects it must hold.
        case malformedAnswer(step: Int)
    }

    struct Outcome {
        var session: SecureMessagingSession
        var chipMappingKey: [UInt8]
        var chipEphemeralKey: [UInt8]
        /// CAM's A_IC, and CA_IC decrypted from it.
        var encryptedChipAuthenticationData: [UInt8]?
        var chipAuthenticationData: [UInt8]?
    }

    static func mrz(_ information: String) -> [UInt8] { HashAlgorithm.sha1.hash(Array(information.utf8)) }
    static func can(_ digits: String) -> [UInt8] { Array(digits.utf8) }

    var cipher: BlockCipher { paceProtocol.cipher }

    func run(on chip: SimulatedChip) throws -> Outcome {
        var template =
            DER.tlv(ASN1Tag(0x80), paceProtocol.identifier.content)
            + DER.tlv(
                ASN1Tag(0x83), [passwordReference])
        if namesParameters { template += DER.tlv(ASN1Tag(0x84), [UInt8(parameters.id)]) }
        let set = try chip.transmit(CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: template))
        guard set.statusWord == .success else { throw Failure.status(set.statusWord, step: 0) }

        // 1. The encrypted nonce.
        let encrypted = try step(1, on: chip, [], answer: 0x80)
        guard encrypted.count % cipher.blockSize == 0, !encrypted.isEmpty else { throw Failure.nonceNotWholeBlocks }
        let passwordKey = ICAOKeyDerivation.deriveKey(
            from: SecretBytes(password), purpose: .password, cipher: cipher)
        let zeroIV = [UInt8](repeating: 0, count: cipher.blockSize)
        let nonce = try passwordKey.decryptCBC(encrypted, iv: zeroIV)

        // 2. The mapping.
        let group = Group(parameters)
        var chipMappingKey: [UInt8] = []
        let mapped: Group
        if paceProtocol.mapping == .integratedMapping {
            let t =
                try terminalNonce ?? RandomSource.system.bytes(count: cipher.keyLength).withUnsafeBytes { Array($0) }
            _ = try step(2, on: chip, DER.tlv(ASN1Tag(0x81), t), answer: 0x82)
            mapped = try group.integrated(Self.pseudoRandom(nonce, t, cipher, fieldBits: group.fieldBits))
        } else {
            let privateKey = try mappingPrivateKey ?? BigInt.random(below: group.order)
            chipMappingKey = try step(
                2, on: chip, DER.tlv(ASN1Tag(0x81), try group.publicKey(privateKey)), answer: 0x82)
            guard let shared = try? group.sharedElement(privateKey, chipMappingKey) else {
                throw Failure.invalidChipKey(step: 2)
            }
            mapped = try group.generic(nonce: BigInt(bytes: nonce), shared: shared)
        }

        // 3. The key agreement on the mapped generator.
        let privateKey = try ephemeralPrivateKey ?? BigInt.random(below: group.order)
        let ownKey = try mapped.publicKey(privateKey)
        let chipKey = try step(3, on: chip, DER.tlv(ASN1Tag(0x83), ownKey), answer: 0x84)
        guard chipKey != ownKey else { throw Failure.reflectedChipKey }
        guard var secret = try? mapped.sharedSecret(privateKey, chipKey) else { throw Failure.invalidChipKey(step: 3) }
        let sharedSecret = SecretBytes(consuming: &secret)
        let encryption = ICAOKeyDerivation.deriveKey(from: sharedSecret, purpose: .encryption, cipher: cipher)
        let mac = ICAOKeyDerivation.deriveKey(from: sharedSecret, purpose: .mac, cipher: cipher)

        // 4. The tokens, over the other side's key in full length.
        let token = try Self.token(mac, paceProtocol.identifier, group.keyTag, try mapped.canonical(chipKey))
        let answer = try exchange(4, on: chip, DER.tlv(ASN1Tag(0x85), token))
        guard let chipToken = answer.child(ASN1Tag(0x86))?.content else { throw Failure.malformedAnswer(step: 4) }
        guard Array(chipToken) == (try Self.token(mac, paceProtocol.identifier, group.keyTag, ownKey)) else {
            throw Failure.wrongChipToken
        }
        var outcome = Outcome(
            session: try SecureMessagingSession(encryptionKey: encryption, macKey: mac),
            chipMappingKey: chipMappingKey, chipEphemeralKey: chipKey)
        if let encryptedData = answer.child(ASN1Tag(0x8A))?.content {
            outcome.encryptedChipAuthenticationData = Array(encryptedData)
            let iv = try encryption.encryptECB([UInt8](repeating: 0xFF, count: cipher.blockSize))
            outcome.chipAuthenticationData = try ISO7816Padding.unpad(try encryption.decryptCBC(encryptedData, iv: iv))
        }
        return outcome
    }

    /// Sends one GENERAL AUTHENTICATE step (chained but the last) and returns the 7C template.
    private func exchange(_ number: Int, on chip: SimulatedChip, _ objects: [UInt8]) throws -> ASN1Node {
        let command = CommandAPDU(
            cla: number < 4 ? 0x10 : 0x00, ins: 0x86, p1: 0, p2: 0, data: DER.tlv(ASN1Tag(0x7C), objects),
            expectedLength: 256)
        let response = try chip.transmit(command)
        guard response.statusWord == .success else { throw Failure.status(response.statusWord, step: number) }
        guard let template = try? ASN1Node.parse(response.data), template.tag == ASN1Tag(0x7C) else {
            throw Failure.malformedAnswer(step: number)
        }
        return template
    }

    private func step(_ number: Int, on chip: SimulatedChip, _ objects: [UInt8], answer tag: UInt64) throws -> [UInt8] {
        guard let object = try exchange(number, on: chip, objects).child(ASN1Tag(tag)) else {
            throw Failure.malformedAnswer(step: number)
        }
        return Array(object.content)
    }

    static func token(_ mac: SymmetricKey, _ oid: ASN1ObjectIdentifier, _ tag: UInt64, _ key: [UInt8]) throws
        -> [UInt8]
    {
        // A DH value in its fewest octets (TR-03110-3 D.2.1.1), as the chip computes it; a point whole.
        let value = tag == 0x84 ? Array(key.drop { $0 == 0 }) : key
        let object = DER.tlv(ASN1Tag(0x7F49), DER.objectIdentifier(oid) + DER.tlv(ASN1Tag(tag), value))
        return mac.cipher == .tripleDES ? try mac.retailMAC(object) : try mac.cmac(object, truncatedTo: 8)
    }

    /// R(s, t) as 9303-11 §4.4.3.3.2 draws it: k1 = E(t, s), then x_i = E(k_i, c1), k_{i+1} = E(k_i, c0),
    /// the constants those of s's length; a k_i shorter than the key (s of one block under
    /// AES-192/256) keys AES-128.
    static func pseudoRandom(_ s: [UInt8], _ t: [UInt8], _ cipher: BlockCipher, fieldBits: Int) throws -> [UInt8] {
        let long = s.count > 16
        let stepLength = min(s.count, cipher.keyLength)
        let stepCipher = cipher == .tripleDES ? cipher : BlockCipher(aesKeyLength: stepLength) ?? cipher
        let c0 =
            long
            ? hex("D463D65234124EF7897054986DCA0A174E28DF758CBAA03F240616414D5A1676")
            : hex("A668892A7C41E3CA739F40B057D85904")
        let c1 =
            long
            ? hex("54BD7255F0AAF831BEC3423FCF39D69B6CBF066677D0FAAE5AADD99DF8E53517")
            : hex("A4E136AC725F738B01C1F60217C188AD")
        let iv = [UInt8](repeating: 0, count: cipher.blockSize)
        var key = try SymmetricKey(cipher, bytes: t).encryptCBC(s, iv: iv)
        var output: [UInt8] = []
        while output.count * 8 < fieldBits + 64 {
            let current = try SymmetricKey(stepCipher, bytes: key.prefix(stepLength))
            output += try current.encryptCBC(c1, iv: iv)
            key = try current.encryptCBC(c0, iv: iv)
        }
        return output
    }

    /// The terminal's view of the group: a curve with a generator, or a MODP group with one.
    struct Group {
        let curve: EllipticCurve?
        let modp: DHGroup?
        let point: ECPoint?
        let value: BigInt?

        init(_ parameters: StandardizedDomainParameters) {
            curve = parameters.curve
            modp = parameters.group
            point = parameters.curve?.generator
            value = parameters.group?.g
        }

        private init(curve: EllipticCurve?, modp: DHGroup?, point: ECPoint?, value: BigInt?) {
            self.curve = curve
            self.modp = modp
            self.point = point
            self.value = value
        }

        var order: BigInt { curve?.order ?? modp!.subgroupOrder! }
        var fieldBits: Int { curve?.p.bitWidth ?? modp!.p.bitWidth }
        var keyTag: UInt64 { curve != nil ? 0x86 : 0x84 }

        func publicKey(_ privateKey: BigInt) throws -> [UInt8] {
            if let curve { return try curve.encode(try curve.multiplySecret(point!, by: privateKey)) }
            return try modp!.encodePublicValue(try modp!.powerSecret(value!, privateKey))
        }

        func canonical(_ key: [UInt8]) throws -> [UInt8] {
            if curve != nil { return key }
            return try modp!.encodePublicValue(BigInt(bytes: key))
        }

        func sharedElement(_ privateKey: BigInt, _ peer: [UInt8]) throws -> (ECPoint?, BigInt?) {
            if let curve {
                return (try curve.sharedPoint(privateKey: privateKey, peerPublicKey: try curve.decodePoint(peer)), nil)
            }
            let y = try modp!.decodePublicValue(peer)
            return (nil, try modp!.powerSecret(y, privateKey))
        }

        func sharedSecret(_ privateKey: BigInt, _ peer: [UInt8]) throws -> [UInt8] {
            if let curve {
                return try curve.sharedSecret(privateKey: privateKey, peerPublicKey: try curve.decodePoint(peer))
            }
            return try modp!.sharedSecret(privateKey: privateKey, peerPublicValue: try modp!.decodePublicValue(peer))
        }

        func generic(nonce: BigInt, shared: (ECPoint?, BigInt?)) throws -> Group {
            if let curve, let h = shared.0 {
                return Group(
                    curve: curve, modp: nil, point: try curve.genericMapping(nonce: nonce, sharedPoint: h), value: nil)
            }
            return Group(
                curve: nil, modp: modp, point: nil,
                value: try modp!.genericMapping(nonce: nonce, sharedSecret: shared.1!))
        }

        func integrated(_ pseudoRandom: [UInt8]) throws -> Group {
            if let curve {
                return Group(
                    curve: curve, modp: nil, point: try curve.integratedMapping(pseudoRandom: pseudoRandom), value: nil)
            }
            return Group(
                curve: nil, modp: modp, point: nil, value: try modp!.integratedMapping(pseudoRandom: pseudoRandom))
        }
    }
}
