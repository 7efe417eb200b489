import CryptoPrimitives
import TestSupport
import Testing
import Transport

@testable import SecureMessaging

/// The policies for what real chips send, as `SecureMessagingSession.unwrap`'s doc comment
/// states them: wrong MACs, bare status words, missing DO'99', unauthenticated data, broken
/// sessions.
struct PolicyTests {
    static let readFirstFour = ("00B0000004", "8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000")

    @Test func wrongMACFailsAndReturnsNothing() throws {
        var session = try icaoSession()
        _ = try session.wrap(command("00A4020C02011E"))
        _ = try session.unwrap(response("990290008E08FA855A5D4C50A8ED9000"))
        _ = try session.wrap(command(Self.readFirstFour.0))
        var tampered = hex(Self.readFirstFour.1)
        tampered[4] ^= 0x01  // one bit of the ciphertext
        var returned: ResponseAPDU?
        #expect {
            returned = try session.unwrap(ResponseAPDU(encoded: tampered))
        } throws: { ($0 as? SecureMessagingError)?.code == .macInvalid }
        #expect(returned == nil)
        #expect(session.isBroken)
        #expect(session.failure?.breaksSession == true)
        #expect { try session.wrap(command("00B0000412")) } throws: {
            ($0 as? SecureMessagingError)?.code == .sessionBroken
        }
        #expect { try session.unwrap(response(Self.readFirstFour.1)) } throws: {
            ($0 as? SecureMessagingError)?.code == .sessionBroken
        }
    }

    @Test func everyFlippedBitOfAResponseIsRejected() throws {
        let answer = hex(Self.readFirstFour.1)
        for bit in 0..<((answer.count - 2) * 8) {
            var session = try icaoSession()
            _ = try session.wrap(command("00A4020C02011E"))
            _ = try session.unwrap(response("990290008E08FA855A5D4C50A8ED9000"))
            _ = try session.wrap(command(Self.readFirstFour.0))
            var tampered = answer
            tampered[bit / 8] ^= 1 << (bit % 8)
            #expect(throws: SecureMessagingError.self) { try session.unwrap(ResponseAPDU(encoded: tampered)) }
        }
    }

    /// A bare error status word is returned as status only, the SSC stays put
    /// (the chip computed no MAC), and the session goes on.
    @Test func bareStatusWordKeepsTheCounterInStep() throws {
        var pair = try SessionPair(icaoSession)
        let counter = pair.reader.sendSequenceCounter
        let select = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x0F])
        _ = try pair.chip.unwrapCommand(try pair.reader.wrap(select))
        let answer = try pair.reader.unwrap(response("6A82"))
        #expect(answer == ResponseAPDU(statusWord: .fileNotFound))
        #expect(pair.reader.sendSequenceCounter == counter.incrementedForTest(by: 1))
        #expect(pair.chip.sendSequenceCounter == pair.reader.sendSequenceCounter)
        let next = try pair.exchange(
            CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4),
            answer: ResponseAPDU(data: hex("60145F01"), statusWord: .success)
        )
        #expect(next.response.data == hex("60145F01"))
        #expect(!pair.reader.isBroken)
    }

    @Test(arguments: [
        ("9000", SecureMessagingError.Code.macMissing), ("6988", .chipEndedSession), ("6987", .chipEndedSession),
    ])
    func bareStatusWordsThatBreakTheSession(statusWord: String, code: SecureMessagingError.Code) throws {
        var session = try icaoSession()
        _ = try session.wrap(command("00A4020C02011E"))
        #expect { try session.unwrap(response(statusWord)) } throws: { ($0 as? SecureMessagingError)?.code == code }
        #expect(session.failure?.code == code)
    }

    /// The ePass emulator never sends DO'99': DO'8E' still covers the data, the
    /// status word comes from the trailer.
    @Test(arguments: [true, false])
    func missingProcessingStatusIsTolerated(aes: Bool) throws {
        var pair = try SessionPair(aes ? bsiSession : icaoSession)
        for (data, statusWord) in [
            (hex("0102030405"), StatusWord.success), ([], .success), (hex("AA"), .endOfFileReached),
        ] {
            let exchange = try pair.exchange(
                CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 5),
                answer: ResponseAPDU(data: data, statusWord: statusWord),
                includeProcessingStatus: false
            )
            #expect(exchange.response == ResponseAPDU(data: data, statusWord: statusWord))
        }
    }

    /// With DO'99' present, the authenticated status word wins over the trailer.
    @Test func processingStatusOverridesTheTrailer() throws {
        var session = try icaoSession()
        _ = try session.wrap(command("00A4020C02011E"))
        let answer = try session.unwrap(response("990290008E08FA855A5D4C50A8ED 6A82"))
        #expect(answer.statusWord == .success)
    }

    /// The ePass sends 6282 as DO'87' without DO'8E': the data is dropped (never
    /// accepted unauthenticated), the status returned, the counter kept in step.
    @Test func unauthenticatedDataIsDroppedWithAWarningStatus() throws {
        var pair = try SessionPair(icaoSession)
        let read = CommandAPDU(ins: 0xB0, p1: 0, p2: 0x10, expectedLength: 32)
        let received = try pair.chip.unwrapCommand(try pair.reader.wrap(read))
        // What the ePass sends: the cryptogram of the real remaining bytes, no MAC.
        var ePassChip = pair.chip
        let protected = try ePassChip.wrapResponse(
            ResponseAPDU(data: hex("0102030405"), statusWord: .endOfFileReached), to: received)
        // DO'87' alone: without DO'99' (4 bytes) and DO'8E' (10 bytes).
        let ePassAnswer = ResponseAPDU(data: Array(protected.data.dropLast(14)), statusWord: .endOfFileReached)
        #expect(ePassAnswer.data.first == 0x87)
        #expect(received.expectedLength == 32)
        let answer = try pair.reader.unwrap(ePassAnswer)
        #expect(answer == ResponseAPDU(statusWord: .endOfFileReached))
        #expect(pair.reader.sendSequenceCounter == pair.chip.sendSequenceCounter)
        let next = try pair.exchange(
            CommandAPDU(ins: 0xB0, p1: 0, p2: 0x10, expectedLength: 5),
            answer: ResponseAPDU(data: hex("0102030405"), statusWord: .success)
        )
        #expect(next.response.data == hex("0102030405"))
    }

    @Test func unauthenticatedDataWithSuccessBreaksTheSession() throws {
        var session = try icaoSession()
        _ = try session.wrap(command("00B0000004"))
        #expect { try session.unwrap(response("8709019FF0EC34F9922651 9000")) } throws: {
            ($0 as? SecureMessagingError)?.code == .macMissing
        }
        #expect(session.isBroken)
    }

    @Test(arguments: [
        "87 09 01 9FF0EC34F99226 9000",  // truncated TLV
        "8E08AD55CC17140B2DED 8E08AD55CC17140B2DED 9000",  // DO'8E' twice
        "53 01 00 8E08AD55CC17140B2DED 9000",  // unknown data object
        "990290009902900 08E08AD55CC17140B2DED 9000",  // repeated DO'99'
        "8E04AD55CC17 9000",  // short MAC
        "87 83 000001 00 9000",  // three-byte length
    ])
    func malformedResponsesBreakTheSession(answer: String) throws {
        var session = try icaoSession()
        _ = try session.wrap(command("00B0000004"))
        #expect(throws: SecureMessagingError.self) { try session.unwrap(response(answer)) }
        #expect(session.isBroken)
    }

    /// A valid MAC over a cryptogram that does not decrypt to padded data is
    /// still refused (a chip bug, or keys that match only by accident).
    @Test func badPaddingAfterAValidMACIsRefused() throws {
        var pair = try SessionPair(icaoSession)
        _ = try pair.chip.unwrapCommand(try pair.reader.wrap(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 8)))
        let counter = pair.chip.sendSequenceCounter.incrementedForTest(by: 1)
        let unpadded = try pair.chip.encryptionKey.encryptCBC(
            hex("0102030405060708"), iv: [UInt8](repeating: 0, count: 8))
        let objects = [0x87, 0x09, 0x01] + unpadded + hex("99029000")
        let mac = try pair.chip.macKey.retailMAC(counter + objects)
        #expect {
            try pair.reader.unwrap(ResponseAPDU(data: objects + [0x8E, 0x08] + mac, statusWord: .success))
        } throws: {
            ($0 as? SecureMessagingError)?.code == .malformedMessage
        }
    }

    /// Random answers to a protected command (some starting like DO'87', DO'99', DO'8E' or DO'85')
    /// never crash the session and are never accepted: none carries a valid MAC.
    @Test func randomResponsesAreRefused() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var session = try icaoSession()
            _ = try session.wrap(command("00B0000004"))
            let length = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if length > 2, Bool.random(using: &generator) { bytes[0] = [0x87, 0x99, 0x8E, 0x85].randomElement()! }
            #expect(throws: SecureMessagingError.self, "\(bytes)") {
                try session.unwrap(ResponseAPDU(data: bytes, statusWord: .success))
            }
        }
    }

    @Test func refusesCommandsItCannotProtect() throws {
        var session = try icaoSession()
        let counter = session.sendSequenceCounter
        #expect { try session.wrap(command("0CB0000004")) } throws: {
            ($0 as? SecureMessagingError)?.code == .invalidCommand
        }
        #expect { try session.wrap(command("80B0000004")) } throws: {
            ($0 as? SecureMessagingError)?.code == .invalidCommand
        }
        #expect(!session.isBroken)
        #expect(session.sendSequenceCounter == counter)
    }

    @Test func refusesMismatchedKeysAndCounters() throws {
        let des = try SymmetricKey(.tripleDES, bytes: hex("979EC13B1CBFE9DCD01AB0FED307EAE5"))
        let aes = try SymmetricKey(.aes128, bytes: hex("68406B4162100563D9C901A6154D2901"))
        #expect { try SecureMessagingSession(encryptionKey: des, macKey: aes) } throws: {
            ($0 as? SecureMessagingError)?.code == .invalidKeys
        }
        #expect { try SecureMessagingSession(encryptionKey: aes, macKey: aes, sendSequenceCounter: [0]) } throws: {
            ($0 as? SecureMessagingError)?.code == .invalidKeys
        }
        #expect(try SecureMessagingSession(encryptionKey: aes, macKey: aes).sendSequenceCounter.count == 16)
        #expect(!"\(try icaoSession())".contains("979E"))
    }

    @Test func chipRejectsAForgedCommand() throws {
        var chip = try icaoSession()
        var forged = hex("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800")
        forged[3] = 0x00  // P2 is under the MAC
        #expect { try chip.unwrapCommand(CommandAPDU(encoded: forged)) } throws: {
            ($0 as? SecureMessagingError)?.code == .macInvalid
        }
        var plainChip = try icaoSession()
        #expect { try plainChip.unwrapCommand(command("00A4020C02011E")) } throws: {
            ($0 as? SecureMessagingError)?.code == .macMissing
        }
    }
}

extension Array where Element == UInt8 {
    /// The big-endian counter plus `count`, for expectations.
    func incrementedForTest(by count: Int) -> [UInt8] {
        var result = self
        for _ in 0..<count {
            for index in result.indices.reversed() {
                result[index] &+= 1
                if result[index] != 0 { break }
            }
        }
        return result
    }
}
