import CryptoPrimitives
import TestSupport
import Testing
import Transport

@testable import SecureMessaging

/// DO'85' for odd INS, DO'97' and extended length.
struct EncodingTests {
    @Test(arguments: [true, false])
    func oddInstructionUsesDO85(aes: Bool) throws {
        var pair = try SessionPair(aes ? bsiSession : icaoSession)
        // READ BINARY with odd INS: offset 0x8000 in DO'54', answer in DO'53'.
        let read = CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: hex("54028000"), expectedLength: 100)
        let wrapped = try pair.reader.wrap(read)
        #expect(wrapped.data.first == 0x85)
        #expect(wrapped.data[1] == UInt8(pair.reader.cipher.blockSize))
        let received = try pair.chip.unwrapCommand(wrapped)
        #expect(received == read)
        let data = hex("5364") + [UInt8](repeating: 0x5A, count: 100)
        let protected = try pair.chip.wrapResponse(ResponseAPDU(data: data, statusWord: .success), to: received)
        #expect(protected.data.first == 0x85)
        #expect(try pair.reader.unwrap(protected) == ResponseAPDU(data: data, statusWord: .success))
    }

    @Test func expectedLengthEncodings() throws {
        var session = try icaoSession()
        let cases: [(Int, Bool, [UInt8], Int)] = [
            // (Ne, extended length available, DO'97', protected Ne)
            (4, false, hex("970104"), 256),
            (255, false, hex("9701FF"), 256),
            (256, false, hex("970100"), 256),
            (256, true, hex("970100"), 65536),
            (200, true, hex("9701C8"), 256),
            (1000, true, hex("970203E8"), 65536),
            (65536, true, hex("97020000"), 65536),
        ]
        for (expectedLength, extended, do97, protectedLength) in cases {
            let wrapped = try session.wrap(
                CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: expectedLength),
                extendedLengthAvailable: extended
            )
            #expect(Array(wrapped.data.prefix(do97.count)) == do97)
            #expect(wrapped.expectedLength == protectedLength)
            let wire = try wrapped.encoded()
            #expect(wire.suffix(protectedLength == 256 ? 1 : 2).allSatisfy { $0 == 0 })
        }
    }

    /// A 256-byte INTERNAL AUTHENTICATE answer (RSA-2048 Active Authentication)
    /// needs an extended protected Le; the round trip carries all 256 bytes.
    @Test func internalAuthenticateWithExtendedLength() throws {
        var pair = try SessionPair(bsiSession)
        let challenge = hex("0102030405060708")
        let internalAuthenticate = CommandAPDU(ins: 0x88, p1: 0, p2: 0, data: challenge, expectedLength: 256)
        let wrapped = try pair.reader.wrap(internalAuthenticate, extendedLengthAvailable: true)
        #expect(wrapped.expectedLength == 65536)
        let received = try pair.chip.unwrapCommand(CommandAPDU(encoded: try wrapped.encoded()))
        #expect(received == internalAuthenticate)
        let signature = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        let protected = try pair.chip.wrapResponse(ResponseAPDU(data: signature, statusWord: .success), to: received)
        #expect(protected.data.count > 256)
        #expect(try pair.reader.unwrap(ResponseAPDU(encoded: protected.encoded)).data == signature)
    }

    /// Commands with more than 255 protected bytes (PSO:Verify Certificate) go
    /// out in extended length.
    @Test func longCommandDataUsesExtendedLength() throws {
        var pair = try SessionPair(icaoSession)
        let certificate = [UInt8](repeating: 0x7F, count: 400)
        let verify = CommandAPDU(ins: 0x2A, p1: 0x00, p2: 0xBE, data: certificate)
        let wrapped = try pair.reader.wrap(verify)
        #expect(wrapped.data[0...1] == [0x87, 0x82])
        #expect(try wrapped.encoded()[4] == 0x00)  // extended Lc
        #expect(try pair.chip.unwrapCommand(CommandAPDU(encoded: try wrapped.encoded())) == verify)
    }

    @Test func headerOnlyCommandsCarryOnlyAMAC() throws {
        var pair = try SessionPair(bsiSession)
        let selectMaster = CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C)
        let wrapped = try pair.reader.wrap(selectMaster)
        #expect(wrapped.data.count == 10 && wrapped.data[0] == 0x8E)
        #expect(try pair.chip.unwrapCommand(wrapped) == selectMaster)
    }
}
