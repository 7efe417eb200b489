import CryptoPrimitives
import Synchronization
import TestSupport
import Testing
import Transport

@testable import SecureMessaging

struct SecureChannelTests {
    /// After a wrong response MAC the channel refuses every command without sending it: the
    /// session is broken, and `failure` says why.
    @Test func brokenSessionStopsTheChannel() throws {
        let card = ScriptedTransport([
            .exchange("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800", "990290008E08FA855A5D4C50A8EE9000")
        ])
        let channel = SecureChannel(base: card, session: try icaoSession())
        #expect { try channel.send(command("00A4020C02011E")) } throws: {
            ($0 as? ChannelError)?.secureMessagingError?.code == .macInvalid
        }
        #expect(channel.failure?.code == .macInvalid)
        #expect { try channel.send(command("00B0000004")) } throws: {
            ($0 as? ChannelError)?.secureMessagingError?.code == .sessionBroken
        }
        #expect(card.isComplete)
    }

    /// A lost card is the link's failure, told as such, and still breaks the session: whether the
    /// chip counted the command is unknown.
    @Test func lostCardIsTheTransportsFailureAndBreaksTheSession() throws {
        let card = ScriptedTransport([
            .failure("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800", .TagLost)
        ])
        let channel = SecureChannel(base: card, session: try icaoSession())
        #expect(throws: ChannelError.transport(.TagLost)) { try channel.send(command("00A4020C02011E")) }
        #expect(channel.failure?.code == .transport)
        #expect { try channel.send(command("00B0000004")) } throws: {
            ($0 as? ChannelError)?.secureMessagingError?.code == .sessionBroken
        }
    }

    /// The observer sees each command before it is protected and each answer once verified, in
    /// order, around the protected exchange on the wire (the 9303-11 D.4 transcript).
    @Test func observerSeesThePlainSideOfEachExchange() throws {
        /// What the observer was told, in order: a plain command, or an answer with its command.
        enum Seen: Equatable {
            case command(CommandAPDU)
            case answer(ResponseAPDU, CommandAPDU)
        }
        final class Recorder: PlainAPDUObserver {
            let seen = Mutex<[Seen]>([])
            func willProtect(_ command: CommandAPDU) { seen.withLock { $0.append(.command(command)) } }
            func didUnprotect(_ response: ResponseAPDU, of command: CommandAPDU) {
                seen.withLock { $0.append(.answer(response, command)) }
            }
        }
        let card = ScriptedTransport(PublishedExampleTests.icaoSteps.prefix(2).map { .exchange($0.1, $0.2) })
        let recorder = Recorder()
        let channel = SecureChannel(base: card, session: try icaoSession(), observer: recorder)
        let select = try command("00A4020C02011E")
        let read = try command("00B0000004")
        _ = try channel.send(select)
        let answer = try channel.send(read)
        #expect(answer.data == hex("60145F01"))
        #expect(
            recorder.seen.withLock { $0 } == [
                .command(select), .answer(ResponseAPDU(statusWord: .success), select), .command(read),
                .answer(answer, read),
            ])
        #expect(card.isComplete)
    }

    @Test func forwardsExtendedLengthSupport() throws {
        let card = ScriptedTransport([], supportsExtendedLength: true)
        #expect(SecureChannel(base: card, session: try bsiSession()).supportsExtendedLength)
    }
}
