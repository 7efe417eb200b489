import CodedErrors

/// ISO/IEC 7816-4 padding (= ISO/IEC 9797-1 padding method 2): one `80` byte,
/// then `00` bytes up to a multiple of the block size. Always adds at least one
/// byte, so a full block of input gains a full block of padding.
public enum ISO7816Padding {
    @inlinable
    public static func pad<Bytes: Collection<UInt8>>(_ data: Bytes, blockSize: Int) -> [UInt8] {
        precondition(blockSize > 0, "block size must be positive")
        var padded = [UInt8]()
        padded.reserveCapacity((data.count / blockSize + 1) * blockSize)
        padded.append(contentsOf: data)
        padded.append(0x80)
        padded.append(contentsOf: repeatElement(0, count: (blockSize - padded.count % blockSize) % blockSize))
        return padded
    }

    /// Removes the padding: trailing `00` bytes and the `80` before them.
    /// Throws `invalidPadding` when there is no `80` marker. The block size is
    /// not checked (SM cryptograms are checked for whole blocks before decryption).
    @inlinable
    public static func unpad<Bytes: BidirectionalCollection<UInt8>>(_ padded: Bytes) throws -> [UInt8] {
        Array(padded.prefix(try unpaddedCount(padded)))
    }

    /// How many bytes come before the padding, for callers that cut a buffer they already hold
    /// instead of copying it; throws as `unpad` does.
    @inlinable
    public static func unpaddedCount<Bytes: BidirectionalCollection<UInt8>>(_ padded: Bytes) throws -> Int {
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else {
            throw CryptoError(.invalidPadding, "no ISO/IEC 7816-4 padding marker 80")
        }
        return padded.distance(from: padded.startIndex, to: marker)
    }
}
