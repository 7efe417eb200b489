import CryptoPrimitives
import Testing
import Transport

@testable import SecureMessaging

struct SecureChannelTests {
    /// A wrong response MAC through the channel: the typed error from
    /// `exchange`, `TransportError.unexpected` from `transmit`, and no further
    /// command reaches the card.
    @Test func brokenSessionStopsTheChannel() throws {
        let card = ScriptedTransport([
            .exchange("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800", "990290008E08FA855A5D4C50A8EE9000")
        ])
        let channel = SecureChannel(base: card, session: try icaoSession())
        #expect { try channel.exchange(command("00A4020C02011E")) } throws: {
            ($0 as? SecureMessagingError)?.code == .macInvalid
        }
        #expect(channel.failure?.code == .macInvalid)
        #expect(
            throws: TransportError.unexpected(
                "secure messaging (sessionBroken): the session broke earlier: the MAC does not match (wrong keys, a counter out of step, or tampering)"
            )
        ) {
            try channel.transmit(command("00B0000004"))
        }
        #expect(card.isComplete)
    }

    @Test func lostCardBreaksTheSessionAndKeepsTheTransportError() throws {
        let card = ScriptedTransport([
            .failure("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800", .tagLost)
        ])
        let channel = SecureChannel(base: card, session: try icaoSession())
        #expect(throws: TransportError.tagLost) { try channel.transmit(command("00A4020C02011E")) }
        #expect(channel.failure?.code == .transport)
        #expect(channel.failure?.transportError == .tagLost)
    }

    @Test func forwardsExtendedLengthSupport() throws {
        let card = ScriptedTransport([], supportsExtendedLength: true)
        #expect(SecureChannel(base: card, session: try bsiSession()).supportsExtendedLength)
    }
}
