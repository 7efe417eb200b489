/// What an eMRTD reader needs from a card's Answer-to-Reset (ISO/IEC 7816-3 §8.2, 7816-4 §8.1.1):
/// whether the card announces extended Lc/Le fields in its card capabilities.
///
/// An ATR that cannot be parsed announces nothing: the reader then uses short APDUs, which every
/// card accepts.
public struct AnswerToReset: Sendable, Hashable {
    public let bytes: [UInt8]
    /// The historical bytes (T1…TK), empty when the ATR is malformed.
    public let historicalBytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        historicalBytes = Self.historicalBytes(of: bytes) ?? []
    }

    /// The card capabilities' "extended Lc and Le fields" bit (compact-TLV tag 7, third byte, b7).
    public var announcesExtendedLength: Bool {
        guard let capabilities = compactObjects[0x7], capabilities.count >= 3 else { return false }
        return capabilities[2] & 0x40 != 0
    }

    /// Compact-TLV objects of the historical bytes, by tag (category indicator 00 or 80).
    var compactObjects: [UInt8: [UInt8]] {
        guard let category = historicalBytes.first, category == 0x00 || category == 0x80 else { return [:] }
        // Category 00 ends with three status bytes that are not compact-TLV.
        var objects = historicalBytes.dropFirst().dropLast(category == 0x00 ? 3 : 0)
        var result: [UInt8: [UInt8]] = [:]
        while let head = objects.first {
            let tag = head >> 4
            let length = Int(head & 0x0F)
            objects = objects.dropFirst()
            guard objects.count >= length else { return result }
            result[tag] = Array(objects.prefix(length))
            objects = objects.dropFirst(length)
        }
        return result
    }

    /// Walks TS, T0 and the interface bytes; nil when the ATR is shorter than they say.
    private static func historicalBytes(of atr: [UInt8]) -> [UInt8]? {
        guard atr.count >= 2 else { return nil }
        let count = Int(atr[1] & 0x0F)
        var indicator = atr[1] >> 4
        var index = 2
        while true {
            // TA, TB, TC present per bits 1-3; TD per bit 4 announces the next group.
            index += (indicator & 0x7).nonzeroBitCount
            guard indicator & 0x8 != 0 else { break }
            guard index < atr.count else { return nil }
            indicator = atr[index] >> 4
            index += 1
        }
        guard index + count <= atr.count else { return nil }
        return Array(atr[index..<(index + count)])
    }
}
