/// A cursor over bytes for the fixed-layout binary headers (ISO 19794, image headers): every read
/// is bounds-checked and returns nil past the end instead of trapping.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    /// A big-endian unsigned integer of `count` bytes (at most 8, and at most `Int.max`).
    mutating func uint(_ count: Int) -> Int? {
        guard count <= 8, count <= remaining else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + count] { value = value << 8 | UInt64(byte) }
        guard value <= UInt64(Int.max) else { return nil }
        offset += count
        return Int(value)
    }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Everything from the cursor up to `count` bytes, fewer when the data ends first.
    mutating func readUpTo(_ count: Int) -> [UInt8] {
        let taken = max(0, min(count, remaining))
        defer { offset += taken }
        return Array(bytes[offset..<offset + taken])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        offset += count
        return true
    }
}
