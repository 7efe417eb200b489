import COpenSSL
import CodedErrors
import ICAO
import Secrets

extension SymmetricKey {
    /// ISO/IEC 9797-1 MAC algorithm 3 with DES ("retail MAC") and padding method
    /// 2, as BAC and 3DES secure messaging use it: single-DES CBC-MAC under K1 over
    /// the padded message, then the last block decrypted under K2 and encrypted
    /// under K1. Pads `message` itself; returns 8 bytes.
    ///
    /// Built from the default provider's two-key 3DES (single DES lives in the
    /// legacy provider): EDE under (K1, K1) is single DES under K1, and the final
    /// E_K1(D_K2(E_K1(x))) is one EDE block under (K1, K2).
    @inlinable
    public func retailMAC<Bytes: Collection<UInt8>>(_ message: Bytes) throws -> [UInt8] {
        guard cipher == .tripleDES else {
            throw CryptoError(.invalidParameter, "the retail MAC needs a two-key 3DES key, got \(cipher)")
        }
        return try withContiguousBytes(of: message) { bytes in
            var mac = [UInt8](repeating: 0, count: 8)
            try mac.withUnsafeMutableBytes { output in try paddedMAC(into: output) { update in update(bytes) } }
            return mac
        }
    }

    /// The MAC of ICAO 9303 secure messaging and BAC, 8 bytes into `output`, over the message
    /// that `message` hands to `update` piece by piece, ISO/IEC 7816-4 padding added here: the
    /// retail MAC for 3DES, AES-CMAC truncated to 8 bytes for AES. The pieces (the SSC, a padded
    /// header, data objects already in the buffer being sent or received) go to libcrypto as
    /// they are, never joined into one array.
    ///
    /// Both are a CBC-MAC chain with a last step, streamed through a cached CBC context: every
    /// block (padding included) is encrypted in as few calls as the pieces allow, keeping the last
    /// message block x(n) and the chaining value before it, H(n-1). The retail MAC's last step is one
    /// EDE block under (K1, K2), E_K1(D_K2(E_K1(x(n) xor H(n-1)))); CMAC's, for a message of whole
    /// blocks, E_K(x(n) xor H(n-1) xor K1) with the subkey K1 (NIST SP 800-38B). OpenSSL's CMAC
    /// would encrypt block by block, one library call each, after a reset that costs as much.
    public func paddedMAC(
        into output: UnsafeMutableRawBufferPointer,
        _ message: (_ update: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws {
        guard output.count == 8 else {
            throw CryptoError(.invalidParameter, "a secure messaging MAC is 8 bytes, not \(output.count)")
        }
        let blockSize = cipher.blockSize
        let chainSlot: KeyedContextCache.CipherSlot = cipher == .tripleDES ? .retailMACChaining : .cbcEncrypt
        func makeChain() throws -> OpaquePointer { try makeCipherContext(chainSlot) }
        func makeLast() throws -> OpaquePointer { try makeCipherContext(.ecbEncrypt) }
        var mac: (UInt64, UInt64) = (0, 0)
        let succeeded = try cache.withContexts { contexts in
            var subkey: (UInt64, UInt64) = (0, 0)
            let last = try contexts.context(.ecbEncrypt, make: makeLast)
            if cipher != .tripleDES {
                if let known = contexts.cmacSubkey {
                    subkey = known
                } else {
                    guard encryptBlock(last.pointer, &subkey) else { return false }
                    subkey = cmacSubkey(from: subkey)
                    contexts.cmacSubkey = subkey
                }
            }
            var chain = try contexts.context(chainSlot, make: makeChain)
            var stream = CBCMACStream(context: chain, blockSize: blockSize)
            message { stream.update($0) }
            withPadding(blockSize - stream.count % blockSize) { stream.update($0) }
            guard !stream.failed else {
                contexts.discard(chainSlot)
                return false
            }
            chain.chain = stream.last
            contexts.update(chainSlot, chain)
            mac = xored(xored(stream.tail, stream.previous), subkey)
            return encryptBlock(last.pointer, &mac)
        }
        guard succeeded else {
            throw CryptoError(.libraryFailure, openSSLErrorDescription(cipher == .tripleDES ? "retail MAC" : "CMAC"))
        }
        withUnsafeBytes(of: &mac) { output.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<8])) }
    }

    /// Encrypts the block in `block` in place with the ECB context `context` (keyed, padding off).
    private func encryptBlock(_ context: OpaquePointer, _ block: inout (UInt64, UInt64)) -> Bool {
        let blockSize = cipher.blockSize
        return withUnsafeMutableBytes(of: &block) { bytes in
            var written: Int32 = 0
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return EVP_CipherUpdate(context, base, &written, base, Int32(blockSize)) == 1
                && Int(written) == blockSize
        }
    }

    /// K1 from L = E_K(0^128): L doubled in GF(2^128), i.e. shifted left one bit, xored with 0x87
    /// when the bit shifted out is set (NIST SP 800-38B §6.1). Both in memory order.
    private func cmacSubkey(from encryptedZero: (UInt64, UInt64)) -> (UInt64, UInt64) {
        let high = UInt64(bigEndian: encryptedZero.0)
        let low = UInt64(bigEndian: encryptedZero.1)
        let carry = (high >> 63) * 0x87
        return ((high << 1 | low >> 63).bigEndian, (low << 1 ^ carry).bigEndian)
    }

    /// ISO/IEC 7816-4 padding of `length` bytes (1 to 16): `80`, then zeros.
    private func withPadding(_ length: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        let padding: (UInt64, UInt64) = (UInt64(0x8000_0000_0000_0000).bigEndian, 0)
        withUnsafeBytes(of: padding) { body(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }

    /// CMAC (NIST SP 800-38B, RFC 4493 for AES) of `message` as given (CMAC pads
    /// internally; ICAO secure messaging pads the message beforehand anyway).
    /// `truncatedTo` keeps the leading bytes: 8 for PACE tokens and AES SM.
    @inlinable
    public func cmac<Bytes: Collection<UInt8>>(_ message: Bytes, truncatedTo length: Int? = nil) throws -> [UInt8] {
        try withContiguousBytes(of: message) { try cmac(bytes: $0, truncatedTo: length) }
    }

    @usableFromInline
    func cmac(bytes: UnsafeRawBufferPointer, truncatedTo length: Int?) throws -> [UInt8] {
        if let length, !(1...cipher.blockSize).contains(length) {
            throw CryptoError(.invalidParameter, "CMAC truncation to \(length) bytes")
        }
        var mac = [UInt8](repeating: 0, count: cipher.blockSize)
        var macLength = 0
        func make() throws -> OpaquePointer { try makeCMACContext() }
        let succeeded = try cache.withCMACContext(make: make) { context in
            let updated =
                bytes.isEmpty
                ? 1 : EVP_MAC_update(context, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
            return updated == 1 && EVP_MAC_final(context, &mac, &macLength, mac.count) == 1
        }
        guard succeeded, macLength == mac.count else {
            throw CryptoError(.libraryFailure, openSSLErrorDescription("CMAC"))
        }
        return Array(mac.prefix(length ?? mac.count))
    }

    /// A CMAC context keyed with this key, ready for `update`.
    private func makeCMACContext() throws -> OpaquePointer {
        guard let context = EVP_MAC_CTX_new(Self.fetchedCMAC.pointer) else {
            throw CryptoError(.libraryFailure, "EVP_MAC_CTX_new")
        }
        let initialized = cipher.cbcName.withCString { cipherName in
            OSSL_MAC_PARAM_CIPHER.withCString { parameterName in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(parameterName, UnsafeMutablePointer(mutating: cipherName), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return secret.withUnsafeBytes { key in
                    EVP_MAC_init(context, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, &parameters)
                }
            }
        }
        guard initialized == 1 else {
            EVP_MAC_CTX_free(context)
            throw CryptoError(.libraryFailure, openSSLErrorDescription("CMAC init"))
        }
        return context
    }

    private static let fetchedCMAC = FetchedAlgorithm.mac("CMAC")
}

extension BlockCipher {
    /// The libcrypto name of the CBC mode, which CMAC is parameterized with.
    var cbcName: String {
        switch self {
        case .tripleDES: "DES-EDE-CBC"
        case .aes128: "AES-128-CBC"
        case .aes192: "AES-192-CBC"
        case .aes256: "AES-256-CBC"
        }
    }
}

/// A message fed piece by piece through a CBC encryption context from a zero IV, keeping what a
/// CBC-MAC's last step needs: the last message block (`tail`) and the chaining values before
/// (`previous`) and after (`last`) it. The context is not re-initialised: its chaining value
/// (`CipherContext.chain`) is xored into the first block, which a zero IV would have left alone.
private struct CBCMACStream {
    let context: OpaquePointer
    let blockSize: Int
    private let startChain: (UInt64, UInt64)
    /// The first block, collected until whole to take the xor.
    private var head: (UInt64, UInt64) = (0, 0)
    private(set) var count = 0
    private(set) var tail: (UInt64, UInt64) = (0, 0)
    private(set) var previous: (UInt64, UInt64) = (0, 0)
    private(set) var last: (UInt64, UInt64) = (0, 0)
    private(set) var failed = false

    init(context: KeyedContextCache.CipherContext, blockSize: Int) {
        self.context = context.pointer
        self.blockSize = blockSize
        startChain = context.chain
    }

    mutating func update(_ piece: UnsafeRawBufferPointer) {
        guard let base = piece.baseAddress, !piece.isEmpty else { return }
        // The bytes of the last block so far, each at its offset in its block (the piece's last
        // block's worth, in at most two runs); once the padded message is complete that is x(n).
        let kept = min(piece.count, blockSize)
        let source = piece.count - kept
        let position = (count + source) % blockSize
        let firstRun = min(kept, blockSize - position)
        withUnsafeMutableBytes(of: &tail) { tail in
            let tailBase = tail.baseAddress.unsafelyUnwrapped
            (tailBase + position).copyMemory(from: base + source, byteCount: firstRun)
            tailBase.copyMemory(from: base + source + firstRun, byteCount: kept - firstRun)
        }
        var offset = 0
        if count < blockSize {
            let taken = min(blockSize - count, piece.count)
            withUnsafeMutableBytes(of: &head) { head in
                head.baseAddress.unsafelyUnwrapped.advanced(by: count).copyMemory(from: base, byteCount: taken)
            }
            offset = taken
            if count + taken == blockSize {
                var first = xored(head, startChain)
                withUnsafeBytes(of: &first) { feed($0.baseAddress.unsafelyUnwrapped, blockSize) }
            }
        }
        count += piece.count
        if offset < piece.count { feed(base + offset, piece.count - offset) }
    }

    /// Encrypts `length` bytes into a scratch block on the stack, 256 at a time, noting the last
    /// two chaining values (libcrypto keeps any partial block for the next call).
    private mutating func feed(_ base: UnsafeRawPointer, _ length: Int) {
        var offset = 0
        while offset < length, !failed {
            let chunk = min(256, length - offset)
            withUnsafeTemporaryAllocation(byteCount: 256 + 16, alignment: 16) { chained in
                var written: Int32 = 0
                guard
                    EVP_CipherUpdate(
                        context, chained.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                        (base + offset).assumingMemoryBound(to: UInt8.self), Int32(chunk)) == 1
                else {
                    failed = true
                    return
                }
                let end = Int(written)
                if end >= 2 * blockSize {
                    previous = load(chained.baseAddress.map { $0 + end - 2 * blockSize }, blockSize)
                    last = load(chained.baseAddress.map { $0 + end - blockSize }, blockSize)
                } else if end == blockSize {
                    previous = last
                    last = load(chained.baseAddress, blockSize)
                }
            }
            offset += chunk
        }
    }
}
