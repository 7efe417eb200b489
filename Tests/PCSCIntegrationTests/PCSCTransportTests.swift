import Foundation
import PCSC
import TestSupport
import Testing
import Transport

/// `PCSCTransport` against a real pcscd and a chip this project did not write.
@Suite(.serialized) struct PCSCTransportLiveTests {
    @Test func listsConnectsAndExchanges() throws {
        try EPassEmulator.run {
            let context = try PCSCContext()
            let readers = try context.readers()
            #expect(readers.contains { $0.name == EPassEmulator.readerName && $0.isCardPresent })
            let reader = try context.waitForCard(in: EPassEmulator.readerName, timeout: .seconds(30))
            #expect(reader.answerToReset == [0x3B, 0x95, 0x13, 0x81, 0x01, 0x80, 0x73, 0xFF, 0x01, 0x00, 0x0B])
            let transport = try context.connect(reader: reader.name)
            #expect(transport.activeProtocol == .t1)
            #expect(!transport.supportsExtendedLength)
            let select = try transport.transmit(
                CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]))
            #expect(select.statusWord == .success)
            let challenge = try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
            #expect(challenge.statusWord == .success)
            #expect(challenge.data.count == 8)
            let missing = try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x0F]))
            #expect(missing.statusWord == .fileNotFound)
        }
    }

    @Test func cardRemovalIsTagLost() throws {
        try EPassEmulator.run {
            let context = try PCSCContext()
            let transport = try context.connect(reader: EPassEmulator.readerName)
            #expect(try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8)).data.count == 8)
            // The emulator going away is, for pcscd, the card leaving the virtual reader.
            try EPassEmulator.stopEmulatorOnly(context: context)
            #expect(throws: TransportError.TagLost) {
                try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
            }
        }
    }

    @Test func waitingForACardTimesOutOrIsCancelled() throws {
        try EPassEmulator.run {
            let context = try PCSCContext()
            // The emulator's second virtual reader slot holds no card.
            let empty = try context.readers().first { !$0.isCardPresent }
            guard let empty else {
                Issue.record("vpcd offers an empty reader slot besides the ePass")
                return
            }
            #expect(throws: TransportError.Timeout) {
                try context.waitForCard(in: empty.name, timeout: .milliseconds(300))
            }
            #expect(throws: TransportError.self) {
                try context.waitForCard(in: "No Such Reader 42", timeout: .milliseconds(300))
            }
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.3)
                context.cancel()
            }
            #expect(throws: TransportError.Cancelled) {
                try context.waitForCard(in: empty.name, timeout: .seconds(20))
            }
            // Cancelling is sticky: a cancel that lands just before a wait is not lost.
            #expect(throws: TransportError.Cancelled) {
                try context.waitForCard(in: empty.name, timeout: .seconds(20))
            }
        }
    }
}
