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
        try retailMAC(padded: ISO7816Padding.pad(message, blockSize: 8))
    }

    @usableFromInline
    func retailMAC(padded: [UInt8]) throws -> [UInt8] {
        guard cipher == .tripleDES else {
            throw CryptoError(.invalidParameter, "the retail MAC needs a two-key 3DES key, got \(cipher)")
        }
        let firstHalf = secret.prefix(8)
        let singleDES = try SymmetricKey(.tripleDES, secret: firstHalf.appending(firstHalf))
        return try padded.withUnsafeBytes { blocks in
            let lastBlock = UnsafeRawBufferPointer(rebasing: blocks[(blocks.count - 8)...])
            let leadingBlocks = UnsafeRawBufferPointer(rebasing: blocks[..<(blocks.count - 8)])
            let zero = [UInt8](repeating: 0, count: 8)
            let chaining = leadingBlocks.isEmpty ? zero : try singleDES.lastCBCBlock(leadingBlocks, iv: zero)
            return try lastCBCBlock(lastBlock, iv: chaining)
        }
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
        let make = { try makeCMACContext() }
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
