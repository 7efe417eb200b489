import ASN1
import CryptoPrimitives
import ICAO
import Secrets
import Transport

/// The chip's side of secure messaging (ICAO 9303-11 §9.8) for every cipher: 3DES with an 8-byte
/// send sequence counter, zero IVs and the retail MAC; AES-128/192/256 with a 16-byte counter,
/// IV = E(KSenc, SSC) and AES-CMAC truncated to 8 bytes. Written apart from the reader's
/// `SecureMessaging` package so that the two sides cannot share a bug: only the block cipher, the
/// MACs and the padding come from `CryptoPrimitives`.
struct ChipSession: Sendable {
    private(set) var keys: SessionKeys
    /// The send sequence counter, one cipher block, incremented before checking a command and
    /// before protecting its response.
    private(set) var counter: [UInt8]

    var cipher: BlockCipher { keys.cipher }

    /// Why a protected command was rejected; the chip answers with the status word and ends the
    /// session.
    struct Rejection: Error {
        let status: StatusWord
    }

    /// A session starting from `counter` (BAC: the last four bytes of RND.IC then RND.IFD) or
    /// from zero (PACE, Chip Authentication). Nil when the counter is not one cipher block.
    init?(keys: SessionKeys, counter: [UInt8]? = nil) {
        let initial = counter ?? [UInt8](repeating: 0, count: keys.cipher.blockSize)
        guard initial.count == keys.cipher.blockSize else { return nil }
        self.keys = keys
        self.counter = initial
    }

    /// Replaces keys and cipher in place, the counter restarting at zero: what Chip
    /// Authentication does once the chip has answered its command under the old keys.
    mutating func replaceKeys(with newKeys: SessionKeys) {
        keys = newKeys
        counter = [UInt8](repeating: 0, count: newKeys.cipher.blockSize)
    }

    /// Checks the MAC of a protected command and decrypts it. Any flaw is 6988 (the reader must
    /// treat the session as broken), a missing MAC 6987.
    mutating func unwrap(_ protected: CommandAPDU) throws(Rejection) -> CommandAPDU {
        increment()
        let objects: [ASN1Node]
        do {
            objects = try ASN1Node.parseAll(protected.data, rules: .ber)
        } catch {
            throw Rejection(status: .secureMessagingDataObjectsIncorrect)
        }
        guard let macObject = objects.last, macObject.tag == Self.macTag else {
            throw Rejection(status: .secureMessagingDataObjectsMissing)
        }
        let header = [protected.cla, protected.ins, protected.p1, protected.p2]
        let covered = objects.dropLast()
        let authenticated =
            ISO7816Padding.pad(header, blockSize: cipher.blockSize) + covered.flatMap { Array($0.encodedBytes) }
        guard let expected = authenticationCode(authenticated), constantTimeEquals(expected, macObject.content)
        else {
            throw Rejection(status: .secureMessagingDataObjectsIncorrect)
        }
        var data: [UInt8] = []
        var expectedLength: Int?
        var seen: Set<ASN1Tag> = []
        for object in covered {
            guard seen.insert(object.tag).inserted else {
                throw Rejection(status: .secureMessagingDataObjectsIncorrect)
            }
            switch object.tag {
            case Self.paddedCryptogramTag:
                guard object.content.first == 0x01 else {
                    throw Rejection(status: .secureMessagingDataObjectsIncorrect)
                }
                data = try decrypt(object.content.dropFirst())
            case Self.cryptogramTag:
                data = try decrypt(object.content)
            case Self.expectedLengthTag:
                let value = object.content.reduce(0) { $0 << 8 | Int($1) }
                switch object.content.count {
                case 1: expectedLength = value == 0 ? 256 : value
                case 2: expectedLength = value == 0 ? 65536 : value
                default: throw Rejection(status: .secureMessagingDataObjectsIncorrect)
                }
            default:
                throw Rejection(status: .secureMessagingDataObjectsIncorrect)
            }
        }
        return CommandAPDU(
            cla: protected.cla & 0xF3, ins: protected.ins, p1: protected.p1, p2: protected.p2, data: data,
            expectedLength: expectedLength)
    }

    /// Protects a response: DO'87' (or DO'85' answering an odd INS) with the encrypted data,
    /// DO'99' with the status word (unless `omitStatusWord`), DO'8E' with the MAC.
    mutating func wrap(
        _ response: ResponseAPDU, oddInstruction: Bool, omitStatusWord: Bool, corruptMAC: Bool
    ) -> ResponseAPDU {
        increment()
        var objects: [UInt8] = []
        if !response.data.isEmpty, let cryptogram = encrypt(response.data) {
            objects +=
                oddInstruction
                ? DER.tlv(Self.cryptogramTag, cryptogram) : DER.tlv(Self.paddedCryptogramTag, [0x01] + cryptogram)
        }
        if !omitStatusWord {
            objects += DER.tlv(Self.statusWordTag, [response.statusWord.sw1, response.statusWord.sw2])
        }
        var mac = authenticationCode(objects) ?? []
        if corruptMAC, !mac.isEmpty { mac[0] ^= 0x01 }
        return ResponseAPDU(data: objects + DER.tlv(Self.macTag, mac), statusWord: response.statusWord)
    }

    /// The most plain bytes a protected answer can carry within `wireLength` response bytes: the
    /// cryptogram (padded to the cipher's block) inside DO'87' (tag, up to three length bytes,
    /// indicator) or DO'85', plus DO'99' (4) and DO'8E' (10).
    func plainCapacity(forWireLength wireLength: Int, oddInstruction: Bool) -> Int {
        let blockSize = cipher.blockSize
        let overhead = 4 + (oddInstruction ? 0 : 1) + 4 + 10
        let cryptogram = max(wireLength - overhead, 0) / blockSize * blockSize
        return max(cryptogram - 1, 0)
    }

    /// The 8-byte MAC over SSC ‖ `message`: the retail MAC for 3DES (which pads itself), CMAC
    /// over the padded input for AES. Nil only if the cipher library fails.
    private func authenticationCode(_ message: [UInt8]) -> [UInt8]? {
        let input = counter + message
        if cipher == .tripleDES { return try? keys.mac.retailMAC(input) }
        return try? keys.mac.cmac(ISO7816Padding.pad(input, blockSize: cipher.blockSize), truncatedTo: 8)
    }

    /// 3DES: a zero IV; AES: the current counter encrypted under KSenc.
    private var initializationVector: [UInt8]? {
        cipher == .tripleDES ? [UInt8](repeating: 0, count: 8) : try? keys.encryption.encryptECB(counter)
    }

    private func encrypt(_ plain: [UInt8]) -> [UInt8]? {
        guard let iv = initializationVector else { return nil }
        return try? keys.encryption.encryptCBC(ISO7816Padding.pad(plain, blockSize: cipher.blockSize), iv: iv)
    }

    private func decrypt(_ cryptogram: ArraySlice<UInt8>) throws(Rejection) -> [UInt8] {
        guard !cryptogram.isEmpty, cryptogram.count % cipher.blockSize == 0, let iv = initializationVector,
            let padded = try? keys.encryption.decryptCBC(cryptogram, iv: iv),
            let plain = try? ISO7816Padding.unpad(padded)
        else {
            throw Rejection(status: .secureMessagingDataObjectsIncorrect)
        }
        return plain
    }

    /// Adds one to the big-endian counter (wrapping at 2^64 or 2^128, which no read reaches).
    private mutating func increment() {
        for index in counter.indices.reversed() {
            counter[index] &+= 1
            if counter[index] != 0 { break }
        }
    }

    static let cryptogramTag = ASN1Tag(0x85)
    static let paddedCryptogramTag = ASN1Tag(0x87)
    static let expectedLengthTag = ASN1Tag(0x97)
    static let statusWordTag = ASN1Tag(0x99)
    static let macTag = ASN1Tag(0x8E)
}
