import CryptoPrimitives
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import AccessControl

/// Chip Authentication re-keys a live read: the channel takes the new session in place, the
/// file reader carries on through it with the Le it learned under the old keys.
@Suite struct RekeyingTests {
    /// DG14 (6E, 300 bytes of content) and DG1 (61, 250), as the chip serves them.
    static let dg14 = tlvFile(tag: 0x6E, valueLength: 300)
    static let dg1 = tlvFile(tag: 0x61, valueLength: 250)

    static func aesSession() throws -> SecureMessagingSession {
        try SecureMessagingSession(
            encryptionKey: SymmetricKey(.aes128, bytes: hex("F5F0E35C0D7161EE6724EE513A0D9A7F")),
            macKey: SymmetricKey(.aes128, bytes: hex("FE251C7858B356B24514B3BD5F4297D1")))
    }

    /// DG14 under the BAC keys (the chip refuses the first Le, 231, the most a 3DES answer
    /// carries in a short APDU; the header shows the file is longer, so the reader steps down to
    /// 223), then both sides switch to AES keys with SSC 0, then DG1 under those, starting at 223.
    @Test func aSessionReplacedMidReadContinuesWithTheNewKeysAndTheLearnedLe() throws {
        let bacChip = ChipSide(try AppendixD.session())
        let newSession = try Self.aesSession()
        let rekeyedChip = ChipSide(newSession)
        let transport = ScriptedTransport([
            bacChip.step(CommandAPDU(ins: 0xB0, p1: 0x8E, p2: 0, expectedLength: 231), status(0x6700)),
            bacChip.step(CommandAPDU(ins: 0xB0, p1: 0x8E, p2: 0, expectedLength: 4), ok(Array(Self.dg14[0..<4]))),
            bacChip.step(readBinary(4, 223), ok(Array(Self.dg14[4..<227]))),
            bacChip.step(readBinary(227, 77), ok(Array(Self.dg14[227...]))),
            rekeyedChip.step(
                CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0, expectedLength: 223), ok(Array(Self.dg1[0..<223]))),
            rekeyedChip.step(readBinary(223, 30), ok(Array(Self.dg1[223...]))),
        ])
        let channel = SecureChannel(base: transport, session: try AppendixD.session())
        var reader = FileReader(channel: channel)
        #expect(reader.read(.dg14) == .read(Self.dg14))
        #expect(reader.expectedLength == 223)
        #expect(channel.currentSession.cipher == .tripleDES)

        try channel.replaceSession(with: newSession)
        #expect(channel.currentSession.cipher == .aes128)
        #expect(channel.currentSession.sendSequenceCounter == [UInt8](repeating: 0, count: 16))
        #expect(reader.read(.dg1) == .read(Self.dg1))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// Only the reader switches: the chip cannot verify the next command, so nothing is read.
    @Test func aReaderThatReKeysAloneReadsNothing() throws {
        let bacChip = ChipSide(try AppendixD.session())
        let transport = ScriptedTransport([bacChip.step(select(0x0101), ok())])
        let channel = SecureChannel(base: transport, session: try AppendixD.session())
        try channel.replaceSession(with: try Self.aesSession())
        var reader = FileReader(channel: channel)
        // The scripted chip refuses the command it cannot verify by failing the exchange.
        #expect(reader.read(.dg1).failure?.code == .transport)
        #expect(transport.failures.first?.contains("could not unwrap") == true, "\(transport.failures)")
    }

    /// A broken session stays broken: re-keying does not wipe out why it broke.
    @Test func aBrokenSessionCannotBeReKeyed() throws {
        let transport = ScriptedTransport([.exchange("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800", "9000")])
        let channel = SecureChannel(base: transport, session: try AppendixD.session())
        #expect(throws: ChannelError.self) {
            try channel.send(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        }
        #expect(channel.failure != nil)
        #expect { try channel.replaceSession(with: try Self.aesSession()) } throws: {
            ($0 as? SecureMessagingError)?.code == .sessionBroken
        }
    }
}
