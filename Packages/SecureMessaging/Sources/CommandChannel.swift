import Transport

/// Where the layers above access control send their commands: the chip in plain, or under
/// secure messaging. Its failures stay typed, so a file reader or a chip protocol tells a broken
/// link from a chip that no longer answers under the session's keys without asking what the
/// channel is.
public protocol CommandChannel: Sendable {
    /// Sends `command` and returns the chip's answer (verified and decrypted under secure messaging).
    func send(_ command: CommandAPDU) throws(ChannelError) -> ResponseAPDU
    /// Whether commands and answers may use extended length.
    var supportsExtendedLength: Bool { get }
    /// The block size of the cipher that pads every answer (8 for 3DES, 16 for AES), or nil in
    /// plain: how many plain bytes fit one short answer depends on it.
    var answerBlockSize: Int? { get }
}

/// Why a command sent over a `CommandChannel` got no answer.
public enum ChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The link failed; whether the chip saw the command is unknown.
    case transport(TransportError)
    /// Secure messaging refused the command or the answer (a wrong MAC, a missing DO'8E', bad
    /// padding, the chip's 6987/6988, a session broken before).
    case secureMessaging(SecureMessagingError)

    public var description: String {
        switch self {
        case .transport(let error): "\(error)"
        case .secureMessaging(let error): "\(error)"
        }
    }

    /// The link failure, for `.transport`.
    public var transportError: TransportError? {
        if case .transport(let error) = self { return error }
        return nil
    }

    /// The secure messaging failure, for `.secureMessaging`.
    public var secureMessagingError: SecureMessagingError? {
        if case .secureMessaging(let error) = self { return error }
        return nil
    }
}

/// Commands sent as they are, with no secure messaging: before access control (EF.CardAccess,
/// BAC, PACE) and on a chip read without access control.
public struct PlainChannel: CommandChannel {
    public let link: any APDUTransport

    public init(_ link: any APDUTransport) { self.link = link }

    public func send(_ command: CommandAPDU) throws(ChannelError) -> ResponseAPDU {
        do throws(TransportError) {
            return try link.transmit(command)
        } catch {
            throw .transport(error)
        }
    }

    public var supportsExtendedLength: Bool { link.supportsExtendedLength }

    public var answerBlockSize: Int? { nil }
}
