/// A response APDU: the response data and the trailing status word.
public struct ResponseAPDU: Sendable, Hashable {
    public var data: [UInt8]
    public var statusWord: StatusWord

    public init(data: [UInt8] = [], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// Splits the bytes a card returned; fewer than two bytes is not an answer.
    public init(encoded bytes: [UInt8]) throws(TransportError) {
        guard bytes.count >= 2 else {
            throw .Unexpected(
                detail: "response of \(bytes.count) byte\(bytes.count == 1 ? "" : "s") has no status word")
        }
        data = Array(bytes.dropLast(2))
        statusWord = StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    /// Data followed by SW1 SW2, as on the wire.
    public var encoded: [UInt8] { data + [statusWord.sw1, statusWord.sw2] }
}
