import ASN1
import CryptoPrimitives
import Secrets
import Transport

/// The chip's side of 3DES secure messaging (ICAO 9303-11 §9.8), written apart from the reader's
/// `SecureMessaging` package so that the two sides cannot share a bug: only the block cipher and
/// the retail MAC come from `CryptoPrimitives`.
struct ChipSession {
    let encryptionKey: SymmetricKey
    let macKey: SymmetricKey
    /// The send sequence counter, incremented before checking a command and before protecting
    /// its response.
    private(set) var counter: [UInt8]

    /// Why a protected command was rejected; the chip answers with the status word and ends the
    /// session.
    struct Rejection: Error {
        let status: StatusWord
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
        var authenticated = counter + ISO7816Padding.pad(header, blockSize: 8)
        let covered = objects.dropLast()
        if !covered.isEmpty {
            authenticated += covered.flatMap { Array($0.encodedBytes) }
        }
        guard let expected = try? macKey.retailMAC(authenticated), constantTimeEquals(expected, macObject.content)
        else {
            throw Rejection(status: .secureMessagingDataObjectsIncorrect)
        }
        var data: [UInt8] = []
        var expectedLength: Int?
        for object in covered {
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
        if !response.data.isEmpty,
            let cryptogram = try? encryptionKey.encryptCBC(
                ISO7816Padding.pad(response.data, blockSize: 8), iv: [UInt8](repeating: 0, count: 8))
        {
            objects +=
                oddInstruction
                ? DER.tlv(Self.cryptogramTag, cryptogram) : DER.tlv(Self.paddedCryptogramTag, [0x01] + cryptogram)
        }
        if !omitStatusWord {
            objects += DER.tlv(Self.statusWordTag, [response.statusWord.sw1, response.statusWord.sw2])
        }
        var mac = (try? macKey.retailMAC(counter + objects)) ?? []
        if corruptMAC, !mac.isEmpty { mac[0] ^= 0x01 }
        return ResponseAPDU(data: objects + DER.tlv(Self.macTag, mac), statusWord: response.statusWord)
    }

    private func decrypt(_ cryptogram: ArraySlice<UInt8>) throws(Rejection) -> [UInt8] {
        guard !cryptogram.isEmpty, cryptogram.count % 8 == 0,
            let padded = try? encryptionKey.decryptCBC(cryptogram, iv: [UInt8](repeating: 0, count: 8)),
            let plain = try? ISO7816Padding.unpad(padded)
        else {
            throw Rejection(status: .secureMessagingDataObjectsIncorrect)
        }
        return plain
    }

    /// Adds one to the big-endian counter (wrapping at 2^64, which no read reaches).
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
