/// An ISO/IEC 7816-4 command APDU: header, optional command data and the expected response
/// length `Ne`.
///
/// The four cases follow from the fields: no data and no `Ne` is case 1, `Ne` alone case 2, data
/// alone case 3, both case 4. Case 1 and 3 commands (SELECT with P2=0C, MSE:Set AT) must carry no
/// Le, so `expectedLength` is optional rather than defaulting to 256.
public struct CommandAPDU: Sendable, Hashable {
    public var cla: UInt8
    public var ins: UInt8
    public var p1: UInt8
    public var p2: UInt8
    /// Command data (Lc is its length); at most 65535 bytes.
    public var data: [UInt8]
    /// Ne, the number of response bytes asked for: nil for no Le field, 1...256 fits a short Le
    /// (256 is encoded `00`), up to 65536 needs extended length (65536 is encoded `0000`).
    public var expectedLength: Int?
    /// Whether the command or its answer carries a secret in clear (or material that lets a
    /// password be brute-forced offline, such as a BAC cryptogram). The APDU log then keeps only
    /// the header and lengths. Defaults to true for plain EXTERNAL/MUTUAL AUTHENTICATE and GENERAL
    /// AUTHENTICATE; whoever builds another secret-carrying command sets it.
    public var isSecret: Bool

    /// The largest Ne a short Le can ask for (`00`).
    public static let maximumShortExpectedLength = 256
    /// The largest Ne an extended Le can ask for (`0000`).
    public static let maximumExtendedExpectedLength = 65536
    /// The largest Lc an extended command can carry.
    public static let maximumDataLength = 65535

    public init(
        cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], expectedLength: Int? = nil,
        isSecret: Bool? = nil
    ) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.expectedLength = expectedLength
        self.isSecret = isSecret ?? Self.carriesSecretByDefault(cla: cla, ins: ins)
    }

    /// Plain (not secure-messaging) authentication commands whose data is a cryptogram or nonce
    /// derived from the access password.
    private static func carriesSecretByDefault(cla: UInt8, ins: UInt8) -> Bool {
        let secureMessaging = cla & 0x0C != 0
        return !secureMessaging && [0x82, 0x86, 0x87].contains(ins)
    }

    /// The ISO 7816-4 case (1–4) this command is.
    public var isoCase: Int {
        switch (data.isEmpty, expectedLength == nil) {
        case (true, true): 1
        case (true, false): 2
        case (false, true): 3
        case (false, false): 4
        }
    }

    /// Whether the short encoding cannot express this command.
    public var needsExtendedLength: Bool {
        data.count > 255 || (expectedLength ?? 0) > Self.maximumShortExpectedLength
    }

    /// The bytes on the wire: the short encoding when it fits, the extended one otherwise (or
    /// always, with `extended`).
    public func encoded(extended: Bool = false) throws(TransportError) -> [UInt8] {
        guard data.count <= Self.maximumDataLength else {
            throw .Unexpected(detail: "command data of \(data.count) bytes exceeds 65535")
        }
        if let expectedLength, !(1...Self.maximumExtendedExpectedLength).contains(expectedLength) {
            throw .Unexpected(detail: "expected length \(expectedLength) is outside 1...65536")
        }
        var bytes = [cla, ins, p1, p2]
        if extended || needsExtendedLength {
            if !data.isEmpty {
                bytes += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
            }
            if let expectedLength {
                let field = expectedLength == 65536 ? 0 : expectedLength
                if data.isEmpty { bytes.append(0x00) }
                bytes += [UInt8(field >> 8), UInt8(field & 0xFF)]
            }
        } else {
            if !data.isEmpty { bytes += [UInt8(data.count)] + data }
            if let expectedLength { bytes.append(UInt8(expectedLength & 0xFF)) }
        }
        return bytes
    }

    /// Parses a command APDU in either encoding (the chip's side of the link, and scripts).
    public init(encoded bytes: [UInt8]) throws(TransportError) {
        guard bytes.count >= 4 else { throw .Unexpected(detail: "command APDU of \(bytes.count) bytes has no header") }
        let body = Array(bytes.dropFirst(4))
        var data: [UInt8] = []
        var expectedLength: Int?
        switch body.count {
        case 0:
            break
        case 1:
            expectedLength = body[0] == 0 ? 256 : Int(body[0])
        case 3 where body[0] == 0:
            let field = Int(body[1]) << 8 | Int(body[2])
            expectedLength = field == 0 ? 65536 : field
        default:
            if body[0] != 0 {
                let length = Int(body[0])
                switch body.count - 1 - length {
                case 0:
                    data = Array(body[1...])
                case 1:
                    data = Array(body[1...length])
                    expectedLength = body[length + 1] == 0 ? 256 : Int(body[length + 1])
                default:
                    throw .Unexpected(
                        detail: "short command APDU body of \(body.count) bytes does not match Lc \(length)")
                }
            } else {
                guard body.count >= 3 else { throw .Unexpected(detail: "truncated extended command APDU") }
                let length = Int(body[1]) << 8 | Int(body[2])
                let rest = body.count - 3 - length
                guard length > 0, rest == 0 || rest == 2 else {
                    throw .Unexpected(
                        detail: "extended command APDU body of \(body.count) bytes does not match Lc \(length)")
                }
                data = Array(body[3..<(3 + length)])
                if rest == 2 {
                    let field = Int(body[3 + length]) << 8 | Int(body[4 + length])
                    expectedLength = field == 0 ? 65536 : field
                }
            }
        }
        self.init(cla: bytes[0], ins: bytes[1], p1: bytes[2], p2: bytes[3], data: data, expectedLength: expectedLength)
    }
}
