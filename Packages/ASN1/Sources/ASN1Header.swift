/// A TLV's tag and length, read from its first bytes: the one BER/DER header reader, used by
/// `ASN1Node`'s parser and by every format that frames values the same way (secure messaging's
/// data objects, a seal's features, an ECDSA signature's DER).
public struct ASN1Header: Sendable, Hashable {
    public let tag: ASN1Tag
    /// The value's length; nil for the indefinite form (`80`).
    public let length: Int?
    /// The bytes of the tag and the length together.
    public let headerLength: Int

    /// Reads the header at `index` of `bytes`, advancing `index` to the value. `truncated` when
    /// the bytes end inside the header (a caller reading in pieces reads on); the length is not
    /// checked against the bytes that follow.
    public static func read(
        from bytes: ArraySlice<UInt8>, at index: inout Int, rules: EncodingRules = .ber
    ) throws(ASN1Error) -> ASN1Header {
        let start = index
        let tag = try ASN1Tag.read(from: bytes, at: &index)
        let length = try readLength(from: bytes, at: &index, rules: rules)
        return ASN1Header(tag: tag, length: length, headerLength: index - start)
    }

    /// Reads the header at the start of `bytes`.
    public static func read(_ bytes: some Collection<UInt8>, rules: EncodingRules = .ber) throws(ASN1Error)
        -> ASN1Header
    {
        let slice = ArraySlice(bytes)
        var index = slice.startIndex
        return try read(from: slice, at: &index, rules: rules)
    }

    /// Reads a length alone at `index` (for formats whose tags are not BER tags, such as a seal's
    /// one-byte feature tags), advancing `index`: the definite length, or nil for the indefinite
    /// form. Long forms take at most 8 bytes; DER also requires the shortest form.
    public static func readLength(
        from bytes: ArraySlice<UInt8>, at index: inout Int, rules: EncodingRules = .ber
    ) throws(ASN1Error) -> Int? {
        guard index < bytes.endIndex else { throw ASN1Error(.truncated, "length expected") }
        let first = bytes[index]
        if first < 0x80 {
            index += 1
            return Int(first)
        }
        if first == 0x80 {
            index += 1
            return nil
        }
        let count = Int(first & 0x7F)
        guard count <= 8, first != 0xFF else {
            throw ASN1Error(.invalidLength, "length of \(count) bytes")
        }
        guard bytes.endIndex - index - 1 >= count else {
            throw ASN1Error(.truncated, "long-form length ends early")
        }
        var length: UInt64 = 0
        for byte in bytes[(index + 1)..<(index + 1 + count)] {
            length = length << 8 | UInt64(byte)
        }
        if rules == .der && (bytes[index + 1] == 0 || length < 0x80) {
            throw ASN1Error(.invalidLength, "non-minimal length in DER")
        }
        guard length <= UInt64(Int.max / 2) else { throw ASN1Error(.invalidLength, "length \(length) too large") }
        index += 1 + count
        return Int(length)
    }
}
