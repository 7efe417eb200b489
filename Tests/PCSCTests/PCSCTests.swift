import CPCSCLite
import Testing
import Transport

@testable import PCSC

@Suite struct AnswerToResetTests {
    @Test func ePassAnnouncesNoExtendedLength() {
        // The vsmartcard ePass: T=1, historical bytes 80 73 FF 01 00 (card capabilities, third byte 00).
        let atr = AnswerToReset([0x3B, 0x95, 0x13, 0x81, 0x01, 0x80, 0x73, 0xFF, 0x01, 0x00, 0x0B])
        #expect(atr.historicalBytes == [0x80, 0x73, 0xFF, 0x01, 0x00])
        #expect(atr.compactObjects[0x7] == [0xFF, 0x01, 0x00])
        #expect(!atr.announcesExtendedLength)
    }

    @Test func cardCapabilitiesWithExtendedLength() {
        // Category 00: compact-TLV 73 C8 00 40 (third capability byte b7 set), then status 00 90 00.
        let atr = AnswerToReset([0x3B, 0x88, 0x80, 0x01, 0x00, 0x73, 0xC8, 0x00, 0x40, 0x00, 0x90, 0x00, 0x62])
        #expect(atr.historicalBytes == [0x00, 0x73, 0xC8, 0x00, 0x40, 0x00, 0x90, 0x00])
        #expect(atr.announcesExtendedLength)
    }

    @Test func truncatedOrForeignATRsAnnounceNothing() {
        for bytes: [UInt8] in [
            [], [0x3B], [0x3B, 0x95, 0x13], [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F], [0x3B, 0x02, 0x10, 0x73],
        ] {
            #expect(!AnswerToReset(bytes).announcesExtendedLength)
        }
    }
}

@Suite struct PCSCErrorTests {
    @Test func mapsReturnCodesToTransportErrors() {
        #expect(transportError(SCARD_W_REMOVED_CARD, while: "x") == .TagLost)
        #expect(transportError(SCARD_E_NO_SMARTCARD, while: "x") == .TagLost)
        #expect(transportError(SCARD_E_TIMEOUT, while: "x") == .Timeout)
        #expect(transportError(SCARD_E_CANCELLED, while: "x") == .Cancelled)
        guard case .Io(let detail) = transportError(SCARD_E_NO_SERVICE, while: "listing readers") else {
            Issue.record("no service is an I/O error")
            return
        }
        #expect(detail.contains("pcscd"))
        guard case .Io(let other) = transportError(SCARD_F_COMM_ERROR, while: "exchanging an APDU") else {
            Issue.record("a communication error is an I/O error")
            return
        }
        #expect(other.contains("0x80100013"))
    }

    @Test func waitTimesBecomeMilliseconds() {
        #expect(PCSCContext.milliseconds(.seconds(2)) == 2000)
        #expect(PCSCContext.milliseconds(.milliseconds(1500)) == 1500)
        #expect(PCSCContext.milliseconds(.zero - .seconds(1)) == 0)
    }
}
