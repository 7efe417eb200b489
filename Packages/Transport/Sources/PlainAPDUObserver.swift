import ASN1

/// Sees the plain side of a transport that protects what it sends (secure messaging): each
/// command before it is protected and each answer once it is verified and decrypted, which the
/// debug log shows beside the protected bytes the `APDULog` recorded on the wire.
///
/// A channel without an observer only tests for nil, so nobody pays for it but a listener. It is
/// called on the sending thread, in order, and must not send through the channel it observes.
public protocol PlainAPDUObserver: Sendable {
    /// `command` as the layer above sent it, before it is protected.
    func willProtect(_ command: CommandAPDU)
    /// The chip's verified, decrypted answer to `command`.
    func didUnprotect(_ response: ResponseAPDU, of command: CommandAPDU)
}

extension APDULog {
    /// A plain command under secure messaging as the debug log shows it: `plain > 00 B0 00 00
    /// Le=256  READ BINARY`. Only SELECT's and READ BINARY's data are shown (file identifiers and
    /// offsets); any other command's data is its length only, since under secure messaging it may
    /// carry key material (Chip Authentication's public key in MSE:Set KAT or GENERAL
    /// AUTHENTICATE, Active Authentication's challenge).
    public static func plainDescription(of command: CommandAPDU) -> String {
        let header = [command.cla, command.ins, command.p1, command.p2]
        let shown = [0xA4, 0xB0, 0xB1].contains(command.ins)
        let data: LoggedBytes = shown ? .clear(command.data) : .redacted(count: command.data.count)
        var text = "plain > " + Hex.encode(header, separator: " ")
        if data.count > 0 { text += " Lc=\(data.count) " + Entry.describe(data) }
        if let expectedLength = command.expectedLength { text += " Le=\(expectedLength)" }
        return text + "  " + Entry.commandName(header: header, data: data)
    }

    /// A plain answer under secure messaging as the debug log shows it: `plain < <223 bytes
    /// redacted> 9000`. The data is its length only: the files hold the MRZ, the face and the
    /// holder's details, and the authentication answers key material.
    public static func plainDescription(of response: ResponseAPDU) -> String {
        let data = response.data.isEmpty ? "" : Entry.describe(.redacted(count: response.data.count)) + " "
        return "plain < " + data + response.statusWord.description
    }
}
