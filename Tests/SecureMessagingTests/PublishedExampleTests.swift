import CryptoPrimitives
import TestSupport
import Testing
import Transport

@testable import SecureMessaging

/// ICAO 9303-11 App. D.4 (3DES) and the BSI EAC worked example (AES), byte for byte.
struct PublishedExampleTests {
    /// (plain command, protected command, protected response, decrypted data, SSC after the response)
    static let icaoSteps = [
        (
            "00A4020C02011E", "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800",
            "990290008E08FA855A5D4C50A8ED9000", "", "887022120C06C228"
        ),
        (
            "00B0000004", "0CB000000D9701048E08ED6705417E96BA5500",
            "8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000", "60145F01", "887022120C06C22A"
        ),
        (
            "00B0000412", "0CB000040D9701128E082EA28A70F3C7B53500",
            "871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D749000",
            "04303130365F36063034303030305C026175", "887022120C06C22C"
        ),
    ]

    @Test func readerSideReproducesAppendixD4() throws {
        var session = try icaoSession()
        for (plain, protected, answer, data, counter) in Self.icaoSteps {
            let wrapped = try session.wrap(command(plain))
            #expect(try wrapped.encoded() == hex(protected))
            let unwrapped = try session.unwrap(response(answer))
            #expect(unwrapped.data == hex(data))
            #expect(unwrapped.statusWord == .success)
            #expect(session.sendSequenceCounter == hex(counter))
        }
    }

    @Test func chipSideReproducesAppendixD4() throws {
        var chip = try icaoSession()
        for (plain, protected, answer, data, _) in Self.icaoSteps {
            let received = try chip.unwrapCommand(command(protected))
            #expect(try received.encoded() == hex(plain))
            let wrapped = try chip.wrapResponse(ResponseAPDU(data: hex(data), statusWord: .success), to: received)
            #expect(wrapped.encoded == hex(answer))
        }
    }

    /// The D.4 transcript through `SecureChannel` over a scripted card.
    @Test func secureChannelPlaysAppendixD4() throws {
        let card = ScriptedTransport(Self.icaoSteps.map { .exchange($0.1, $0.2) })
        let channel = SecureChannel(base: card, session: try icaoSession())
        var file: [UInt8] = []
        #expect(try channel.send(command("00A4020C02011E")).statusWord == .success)
        file += try channel.send(command("00B0000004")).data
        file += try channel.send(command("00B0000412")).data
        #expect(file == hex("60145F0104303130365F36063034303030305C026175"))
        #expect(card.isComplete)
        #expect(channel.currentSession.sendSequenceCounter == hex("887022120C06C22C"))
    }

    /// BSI worked example: the first command after PACE (SSC 1) encrypts with
    /// IV = E(KSenc, SSC); the chip's answer (SSC 2) is MACed with AES-CMAC.
    @Test func aesSessionMatchesBSIWorkedExample() throws {
        var session = try bsiSession()
        let mseSetDST = CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: hex("830D44454356434141543030303031"))
        let wrapped = try session.wrap(mseSetDST)
        #expect(wrapped.cla == 0x0C)
        #expect(wrapped.data.prefix(19) == hex("871101 BE90237EEB4BA0FF253EA246AE31C8B8")[...])
        #expect(wrapped.data.count == 19 + 10)
        #expect(wrapped.expectedLength == 256)
        let answer = try session.unwrap(response("99029000 8E08A89570A68664A7D6 9000"))
        #expect(answer == ResponseAPDU(statusWord: .success))
        #expect(session.sendSequenceCounter == hex("00000000000000000000000000000002"))
    }

    /// The same worked example, DH variant (a two-block cryptogram).
    @Test func aesSessionMatchesBSIWorkedExampleDH() throws {
        var session = try SecureMessagingSession(
            encryptionKey: SymmetricKey(.aes128, bytes: hex("2F7F46ADCC9E7E521B45D192FAFA9126")),
            macKey: SymmetricKey(.aes128, bytes: hex("805A1D27D45A5116F73C54469462B7D8"))
        )
        let wrapped = try session.wrap(
            CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: hex("830F444554455354435643413030303033"))
        )
        #expect(
            wrapped.data.prefix(35)
                == hex("872101 B37BB57DA1DB37D1C49604917BD699E61D6A3074E69E4067A1B3990388233633")[...]
        )
        #expect(try session.unwrap(response("99029000 8E08EBFF08D3B20A0414 9000")).statusWord == .success)
    }
}
