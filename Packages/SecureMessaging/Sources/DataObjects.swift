import ASN1

/// The secure messaging data objects of ICAO 9303-11 §9.8 (ISO/IEC 7816-4 §10).
enum SecureMessagingTag {
    /// Cryptogram without padding-content indicator (odd INS).
    static let oddInstructionCryptogram: UInt8 = 0x85
    /// Padding-content indicator `01` followed by the cryptogram (even INS).
    static let cryptogram: UInt8 = 0x87
    /// Protected Le.
    static let expectedLength: UInt8 = 0x97
    /// Protected status word.
    static let processingStatus: UInt8 = 0x99
    /// Cryptographic checksum (MAC).
    static let checksum: UInt8 = 0x8E

    /// The padding-content indicator of DO'87': ISO/IEC 7816-4 padding.
    static let paddingIndicator: UInt8 = 0x01
}

/// The size of a DER length field for `length` (`81`/`82` forms above 127).
func lengthFieldSize(_ length: Int) -> Int {
    length < 0x80 ? 1 : length < 0x100 ? 2 : 3
}

/// Writes `tag` and a DER length at `position` in `buffer`, moving `position` past them.
func writeDataObjectHeader(
    tag: UInt8, length: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
) {
    buffer[position] = tag
    switch length {
    case ..<0x80:
        buffer[position + 1] = UInt8(length)
        position += 2
    case ..<0x100:
        buffer[position + 1] = 0x81
        buffer[position + 2] = UInt8(length)
        position += 3
    default:
        buffer[position + 1] = 0x82
        buffer[position + 2] = UInt8(truncatingIfNeeded: length >> 8)
        buffer[position + 3] = UInt8(truncatingIfNeeded: length)
        position += 4
    }
}

/// One data object found in a protected message: its tag and where it and its value sit.
struct DataObjectLocation {
    let tag: UInt8
    /// Where the object (its tag) starts.
    let start: Int
    let value: Range<Int>
}

/// The single-byte-tag data objects of `bytes[..<end]` with short or long lengths (read by
/// `ASN1Header.readLength`), in order, without copying them; `isMalformed` turns true (and
/// iteration stops) at anything truncated, indefinite or longer than the input. SM data objects
/// never use multi-byte tags.
struct DataObjectIterator: IteratorProtocol {
    private let bytes: [UInt8]
    private let end: Int
    private var index: Int
    private(set) var isMalformed = false

    init(_ bytes: [UInt8], end: Int? = nil) {
        self.bytes = bytes
        self.end = end ?? bytes.endIndex
        index = bytes.startIndex
    }

    mutating func next() -> DataObjectLocation? {
        guard index < end, !isMalformed else { return nil }
        let start = index
        let tag = bytes[index]
        index += 1
        // nil for a bad or an indefinite length alike: neither frames an SM data object
        guard let length = try? ASN1Header.readLength(from: bytes[..<end], at: &index), end - index >= length else {
            return malformed()
        }
        defer { index += length }
        return DataObjectLocation(tag: tag, start: start, value: index..<(index + length))
    }

    private mutating func malformed() -> DataObjectLocation? {
        isMalformed = true
        return nil
    }
}

/// What a protected message's data objects look like as a whole: its last object, and whether a
/// DO'8E' appears anywhere. Nil when the bytes are not a sequence of data objects.
struct DataObjectLayout {
    let last: DataObjectLocation
    let containsChecksum: Bool

    init?(_ bytes: [UInt8]) {
        var iterator = DataObjectIterator(bytes)
        var last: DataObjectLocation?
        var containsChecksum = false
        while let object = iterator.next() {
            last = object
            if object.tag == SecureMessagingTag.checksum { containsChecksum = true }
        }
        guard !iterator.isMalformed, let last else { return nil }
        self.last = last
        self.containsChecksum = containsChecksum
    }
}
