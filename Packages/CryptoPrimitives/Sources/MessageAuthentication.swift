import COpenSSL
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
    public func paddedMAC(
        into output: UnsafeMutableRawBufferPointer,
        _ message: (_ update: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws {
        guard output.count == 8 else {
            throw CryptoError(.invalidParameter, "a secure messaging MAC is 8 bytes, not \(output.count)")
        }
        if cipher == .tripleDES {
            try retailMAC(into: output, message)
            return
        }
        let blockSize = cipher.blockSize
        var mac: (UInt64, UInt64) = (0, 0)
        func make() throws -> OpaquePointer { try makeCMACContext() }
        let succeeded = try cache.withCMACContext(make: make) { context in
            var updated = true
            var count = 0
            func update(_ piece: UnsafeRawBufferPointer) {
                guard let base = piece.baseAddress, !piece.isEmpty else { return }
                count += piece.count
                if EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), piece.count) != 1 {
                    updated = false
                }
            }
            message(update)
            withPadding(blockSize - count % blockSize, update)
            var macLength = 0
            let finished = withUnsafeMutableBytes(of: &mac) { full in
                EVP_MAC_final(context, full.baseAddress?.assumingMemoryBound(to: UInt8.self), &macLength, full.count)
            }
            return updated && finished == 1 && macLength == blockSize
        }
        guard succeeded else { throw CryptoError(.libraryFailure, openSSLErrorDescription("CMAC")) }
        withUnsafeBytes(of: &mac) { output.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<8])) }
    }

    /// The retail MAC streamed: every block (padding included) goes through the cached single-DES
    /// CBC chain under K1, keeping the last 8 message bytes and the chaining value before the last
    /// block, H(n-1); the MAC is then one EDE block, E_K1(D_K2(E_K1(x(n) xor H(n-1)))).
    private func retailMAC(
        into output: UnsafeMutableRawBufferPointer,
        _ message: (_ update: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws {
        var previous: UInt64 = 0
        var last: UInt64 = 0
        var tail: UInt64 = 0
        let succeeded = try withRetailMACChaining { context in
            var updated = true
            var count = 0
            func update(_ piece: UnsafeRawBufferPointer) {
                guard let base = piece.baseAddress, !piece.isEmpty else { return }
                var offset = 0
                while offset < piece.count {
                    let length = min(256, piece.count - offset)
                    withUnsafeTemporaryAllocation(byteCount: 264, alignment: 8) { chained in
                        var written: Int32 = 0
                        guard
                            EVP_CipherUpdate(
                                context, chained.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                                (base + offset).assumingMemoryBound(to: UInt8.self), Int32(length)) == 1
                        else {
                            updated = false
                            return
                        }
                        let end = Int(written)
                        if end >= 16 {
                            previous = UInt64(
                                bigEndian: chained.loadUnaligned(fromByteOffset: end - 16, as: UInt64.self))
                            last = UInt64(bigEndian: chained.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
                        } else if end == 8 {
                            previous = last
                            last = UInt64(bigEndian: chained.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                        }
                    }
                    offset += length
                }
                if piece.count >= 8 {
                    tail = UInt64(bigEndian: piece.loadUnaligned(fromByteOffset: piece.count - 8, as: UInt64.self))
                } else {
                    for byte in piece { tail = tail << 8 | UInt64(byte) }
                }
                count += piece.count
            }
            message(update)
            withPadding(8 - count % 8, update)
            return updated
        }
        guard succeeded else { throw CryptoError(.libraryFailure, openSSLErrorDescription("retail MAC")) }
        var block = (tail ^ previous).bigEndian
        try withUnsafeBytes(of: &block) { try encryptECB($0, into: output) }
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
