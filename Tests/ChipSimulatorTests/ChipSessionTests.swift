import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// The chip's secure messaging against the reader's (`SecureMessagingSession`, a separate
/// implementation) for every cipher, a worked AES example, and keys replaced in place.
@Suite struct ChipSessionTests {
    /// Session keys for `cipher` from a fixed shared secret, as PACE or CA would derive them.
    static func keys(_ cipher: BlockCipher, secret: UInt8 = 0x42) -> SessionKeys {
        SessionKeys(sharedSecret: SecretBytes([UInt8](repeating: secret, count: 32)), cipher: cipher)
    }

    static func readerSession(_ keys: SessionKeys, counter: [UInt8]? = nil) throws -> SecureMessagingSession {
        try SecureMessagingSession(encryptionKey: keys.encryption, macKey: keys.mac, sendSequenceCounter: counter)
    }

    static let commands: [CommandAPDU] = [
        CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]),
        CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x04, expectedLength: 18),
        CommandAPDU(ins: 0xB1, p1: 0x00, p2: 0x00, data: [0x54, 0x02, 0x80, 0x00], expectedLength: 200),
        CommandAPDU(ins: 0x88, p1: 0x00, p2: 0x00, data: Array(0..<40), expectedLength: 256),
        CommandAPDU(cla: 0x10, ins: 0x2A, p1: 0x00, p2: 0xBE, data: Array(0..<17)),
    ]

    @Test(arguments: BlockCipher.allCases)
    func roundTripsWithTheReadersSession(cipher: BlockCipher) throws {
        let keys = Self.keys(cipher)
        let start: [UInt8]? = cipher == .tripleDES ? hex("887022120C06C226") : nil
        var reader = try Self.readerSession(keys, counter: start)
        var chip = try #require(ChipSession(keys: keys, counter: start))
        #expect(chip.counter.count == cipher.blockSize)
        for (index, command) in Self.commands.enumerated() {
            let protected = try reader.wrap(command)
            #expect(protected.cla == command.cla | 0x0C)
            let unwrapped = try chip.unwrap(protected)
            #expect(unwrapped.cla == command.cla && unwrapped.ins == command.ins)
            #expect(unwrapped.p1 == command.p1 && unwrapped.p2 == command.p2)
            #expect(unwrapped.data == command.data && unwrapped.expectedLength == command.expectedLength)
            let answer = ResponseAPDU(
                data: index % 2 == 0 ? [] : Array(repeating: UInt8(index), count: 5 + index * 7),
                statusWord: index == 1 ? .endOfFileReached : .success)
            let wrapped = chip.wrap(
                answer, oddInstruction: command.ins & 1 == 1, omitStatusWord: false, corruptMAC: false)
            #expect(try reader.unwrap(wrapped) == answer)
            #expect(chip.counter == reader.sendSequenceCounter)
        }
    }

    @Test(arguments: BlockCipher.allCases)
    func tamperedCommandsAreRejected(cipher: BlockCipher) throws {
        var reader = try Self.readerSession(Self.keys(cipher))
        var protected = try reader.wrap(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4))
        protected.p2 ^= 0x01  // the header is under the MAC
        var chip = try #require(ChipSession(keys: Self.keys(cipher)))
        #expect(throws: ChipSession.Rejection.self) { try chip.unwrap(protected) }
        var other = try #require(ChipSession(keys: Self.keys(cipher, secret: 0x43)))
        protected.p2 ^= 0x01
        #expect(throws: ChipSession.Rejection.self) { try other.unwrap(protected) }
        var missingMAC = try #require(ChipSession(keys: Self.keys(cipher)))
        do {
            _ = try missingMAC.unwrap(CommandAPDU(cla: 0x0C, ins: 0xB0, p1: 0, p2: 0, data: hex("970104")))
            Issue.record("a command without DO'8E' was accepted")
        } catch {
            #expect(error.status == .secureMessagingDataObjectsMissing)
        }
    }

    /// BSI "Worked Example for EAC" (../shared/vectors/icao9303-11.json, `sm_after_pace`): after
    /// PACE with AES-128, the command data at SSC 1 encrypts with IV = E(KSenc, SSC) to BE90…C8B8,
    /// and the MAC over SSC 2 ‖ DO'99' 9000 is A89570A68664A7D6.
    @Test func aesWorkedExample() throws {
        let keys = try #require(
            SessionKeys(
                encryption: try SymmetricKey(.aes128, bytes: hex("68406B4162100563D9C901A6154D2901")),
                mac: try SymmetricKey(.aes128, bytes: hex("73FF268784F72AF833FDC9464049AFC9"))))
        var reader = try Self.readerSession(keys)
        let plain = hex("830D44454356434141543030303031")
        let protected = try reader.wrap(CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: plain))
        #expect(Array(protected.data.prefix(19)) == hex("871101") + hex("BE90237EEB4BA0FF253EA246AE31C8B8"))
        var chip = try #require(ChipSession(keys: keys))
        #expect(try chip.unwrap(protected).data == plain)
        let answer = chip.wrap(
            ResponseAPDU(statusWord: .success), oddInstruction: false, omitStatusWord: false, corruptMAC: false)
        #expect(answer.data == hex("99029000") + hex("8E08A89570A68664A7D6"))
    }

    @Test func keysReplacedInPlaceRestartTheCounter() throws {
        let old = Self.keys(.tripleDES)
        let new = Self.keys(.aes256, secret: 0x17)
        var chip = try #require(ChipSession(keys: old, counter: hex("00000000000000FE")))
        var oldReader = try Self.readerSession(old, counter: hex("00000000000000FE"))
        _ = try chip.unwrap(try oldReader.wrap(CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: [0x80, 0x00])))
        let answer = chip.wrap(
            ResponseAPDU(statusWord: .success), oddInstruction: false, omitStatusWord: false, corruptMAC: false)
        #expect(try oldReader.unwrap(answer).statusWord == .success)
        chip.replaceKeys(with: new)
        #expect(chip.cipher == .aes256 && chip.counter == [UInt8](repeating: 0, count: 16))
        var newReader = try Self.readerSession(new)
        let read = CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4)
        #expect(try chip.unwrap(try newReader.wrap(read)) == read)
        // The old keys no longer open anything.
        #expect(throws: ChipSession.Rejection.self) { try chip.unwrap(try oldReader.wrap(read)) }
    }

    @Test func plainCapacityFitsTheWire() throws {
        for cipher in BlockCipher.allCases {
            let chip = try #require(ChipSession(keys: Self.keys(cipher)))
            for wire in [18, 40, 231, 256, 1000, 65536] {
                let capacity = chip.plainCapacity(forWireLength: wire, oddInstruction: false)
                guard capacity > 0 else { continue }
                var copy = chip
                let wrapped = copy.wrap(
                    ResponseAPDU(data: Array(repeating: 0xAA, count: capacity), statusWord: .success),
                    oddInstruction: false, omitStatusWord: false, corruptMAC: false)
                #expect(wrapped.data.count <= wire, "\(cipher) with \(wire) bytes on the wire")
            }
        }
    }
}
