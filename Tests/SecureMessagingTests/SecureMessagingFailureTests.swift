import TestSupport
import Testing
import Transport

@testable import SecureMessaging

/// What a `CommandChannel` reports when the chip's answer cannot be trusted: always
/// `ChannelError.secureMessaging` with the code that names the fault, never a transport error, and
/// the link's own failures always `ChannelError.transport`.
struct SecureMessagingFailureTests {
    /// ICAO 9303-11 App. D.4's first command (SELECT EF.COM), protected.
    static let protectedSelect = "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800"
    /// The chip's answer to it in App. D.4.
    static let genuineAnswer = "990290008E08FA855A5D4C50A8ED9000"

    /// Sends App. D.4's SELECT over a secure channel whose card answers `answer`.
    static func failure(answering answer: String) throws -> ChannelError? {
        let channel = SecureChannel(
            base: ScriptedTransport([.exchange(protectedSelect, answer)]), session: try icaoSession())
        let select = try command("00A4020C02011E")
        do throws(ChannelError) {
            _ = try channel.send(select)
            return nil
        } catch {
            return error
        }
    }

    @Test func theGenuineAnswerPasses() throws {
        #expect(try Self.failure(answering: Self.genuineAnswer) == nil)
    }

    @Test(arguments: [
        // The last byte of DO'8E' changed.
        ("990290008E08FA855A5D4C50A8EC9000", SecureMessagingError.Code.macInvalid),
        // DO'99' changed under the chip's MAC.
        ("990290018E08FA855A5D4C50A8ED9000", .macInvalid),
        // No DO'8E' at all.
        ("990290009000", .macMissing),
        // A bare 9000: nothing authenticates it.
        ("9000", .macMissing),
        // DO'8E' cut short inside its value.
        ("990290008E08FA855A9000", .malformedMessage),
        // The chip dropped the session and says so in plain.
        ("6988", .chipEndedSession),
        ("6987", .chipEndedSession),
    ])
    func aBrokenAnswerIsASecureMessagingFailure(answer: String, code: SecureMessagingError.Code) throws {
        let failure = try Self.failure(answering: answer)
        #expect(failure?.secureMessagingError?.code == code)
        #expect(failure?.transportError == nil)
    }

    /// The plain channel passes the link's failure through as the transport's.
    @Test func thePlainChannelReportsTheLinkAsTransport() throws {
        let link = ScriptedTransport([.failure("00A4020C02011E", .TagLost)])
        #expect(throws: ChannelError.transport(.TagLost)) { try PlainChannel(link).send(command("00A4020C02011E")) }
        #expect(PlainChannel(link).answerBlockSize == nil)
    }

    /// The block size a file reader sizes short answers by: the session's cipher's, nil in plain.
    @Test func theSecureChannelTellsItsCiphersBlockSize() throws {
        let link = ScriptedTransport([])
        #expect(SecureChannel(base: link, session: try icaoSession()).answerBlockSize == 8)
        #expect(SecureChannel(base: link, session: try bsiSession()).answerBlockSize == 16)
    }
}
