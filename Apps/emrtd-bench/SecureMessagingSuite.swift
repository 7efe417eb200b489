import COpenSSL
import CryptoPrimitives
import Foundation
import ICAO
import Secrets
import SecureMessaging
import Transport

/// `emrtd-bench sm`: AES secure messaging exchanges (READ BINARY of 223 bytes: reader wrap, chip
/// unwrap, chip wrap, reader unwrap) against the bare libcrypto calls a direct EVP caller makes for
/// the same exchange (four CMACs, two IV blocks, one CBC encryption and one decryption) with
/// contexts reused: the cost of the cryptography done plainly. emrtd does less library work than
/// that (no context resets, the MAC's blocks in batches: `KeyedContextCache`, `paddedMAC`), so the
/// ratio weighs what the SM layer adds against what that saves.
let secureMessagingSuite = Suite(
    name: "sm", title: "sm: emrtd secure messaging vs the bare libcrypto operations"
) { run in
    for cipher in [BlockCipher.aes128, .aes256] {
        let encryptionKey = try SymmetricKey(cipher, secret: SecretBytes.random(count: cipher.keyLength))
        let macKey = try SymmetricKey(cipher, secret: SecretBytes.random(count: cipher.keyLength))
        var reader = try SecureMessagingSession(encryptionKey: encryptionKey, macKey: macKey)
        var chip = reader
        let read = CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 223)
        let answer = ResponseAPDU(data: [UInt8](repeating: 0x5A, count: 223), statusWord: .success)
        let reference = try ReferenceSecureMessagingCrypto(cipher: cipher, encryptionKey: encryptionKey, macKey: macKey)
        run.compare(
            "\(cipher) READ BINARY 223 B exchange", unit: "exchanges/s",
            emrtd: { _ in
                do {
                    let received = try chip.unwrapCommand(try reader.wrap(read))
                    _ = try reader.unwrap(try chip.wrapResponse(answer, to: received))
                } catch {
                    fatalError("secure messaging exchange failed: \(error)")
                }
            },
            reference: { _ in reference.exchange(responseLength: 223) })
    }
}

/// The cryptographic operations of one AES SM exchange, called directly on libcrypto as lean as
/// a caller can: each context keyed once (CMAC, ECB for the IVs, CBC each way, padding off) and
/// afterwards only reset (the MAC) or given its IV (the ciphers), inputs and outputs in buffers
/// allocated once, the IVs encrypted from a counter block.
private final class ReferenceSecureMessagingCrypto {
    private let macContext: OpaquePointer
    private let ivContext: OpaquePointer
    private let encryptContext: OpaquePointer
    private let decryptContext: OpaquePointer
    /// Room for every input and output of an exchange (the largest is 272 bytes).
    private let buffers = UnsafeMutableRawBufferPointer.allocate(byteCount: 6 * 512, alignment: 16)

    init(cipher: BlockCipher, encryptionKey: SymmetricKey, macKey: SymmetricKey) throws {
        let bits = cipher.keyLength * 8
        guard let mac = EVP_MAC_fetch(nil, "CMAC", nil), let macContext = EVP_MAC_CTX_new(mac) else {
            throw CryptoError(.libraryFailure, "reference CMAC")
        }
        EVP_MAC_free(mac)
        self.macContext = macContext
        let initialized = "cipher".withCString { name in
            "AES-\(bits)-CBC".withCString { value in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: value), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return macKey.secret.withUnsafeBytes { key in
                    EVP_MAC_init(
                        macContext, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, &parameters)
                }
            }
        }
        func keyed(_ mode: String, encrypt: Bool) throws -> OpaquePointer {
            guard let algorithm = EVP_CIPHER_fetch(nil, "AES-\(bits)-\(mode)", nil),
                let context = EVP_CIPHER_CTX_new()
            else { throw CryptoError(.libraryFailure, "reference cipher") }
            defer { EVP_CIPHER_free(algorithm) }
            let keyedOK = encryptionKey.secret.withUnsafeBytes { key in
                EVP_CipherInit_ex2(
                    context, algorithm, key.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, encrypt ? 1 : 0, nil)
            }
            guard keyedOK == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
                throw CryptoError(.libraryFailure, "reference cipher")
            }
            return context
        }
        ivContext = try keyed("ECB", encrypt: true)
        encryptContext = try keyed("CBC", encrypt: true)
        decryptContext = try keyed("CBC", encrypt: false)
        guard initialized == 1 else { throw CryptoError(.libraryFailure, "reference CMAC") }
        buffers.initializeMemory(as: UInt8.self, repeating: 3)
    }

    deinit {
        EVP_MAC_CTX_free(macContext)
        EVP_CIPHER_CTX_free(ivContext)
        EVP_CIPHER_CTX_free(encryptContext)
        EVP_CIPHER_CTX_free(decryptContext)
        buffers.deallocate()
    }

    /// The command's two MACs (reader, chip) over SSC, padded header and DO'97' (48 bytes), the
    /// answer's IV and encryption, its two MACs over SSC, DO'87' and DO'99', padded, and the
    /// reader's IV and decryption.
    func exchange(responseLength: Int) {
        guard let start = buffers.baseAddress else { return }
        let padded = (responseLength / 16 + 1) * 16
        let base = start.assumingMemoryBound(to: UInt8.self)
        let counter = base
        let iv = base + 512
        let data = base + 1024
        let cryptogram = base + 1536
        let macInput = base + 2048
        let scratch = base + 2560
        counter[15] &+= 1
        mac(macInput, 48, into: scratch)
        mac(macInput, 48, into: scratch)
        counter[15] &+= 1
        crypt(ivContext, counter, 16, iv: nil, into: iv)
        crypt(encryptContext, data, padded, iv: iv, into: cryptogram)
        let responseMACLength = ((16 + padded + 4 + 4) / 16 + 1) * 16
        mac(macInput, responseMACLength, into: scratch)
        mac(macInput, responseMACLength, into: scratch)
        crypt(ivContext, counter, 16, iv: nil, into: iv)
        crypt(decryptContext, cryptogram, padded, iv: iv, into: scratch)
    }

    private func mac(_ input: UnsafePointer<UInt8>, _ count: Int, into output: UnsafeMutablePointer<UInt8>) {
        var length = 0
        EVP_MAC_init(macContext, nil, 0, nil)
        EVP_MAC_update(macContext, input, count)
        EVP_MAC_final(macContext, output, &length, 16)
    }

    private func crypt(
        _ context: OpaquePointer, _ input: UnsafePointer<UInt8>, _ count: Int, iv: UnsafePointer<UInt8>?,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        var length: Int32 = 0
        EVP_CipherInit_ex2(context, nil, nil, iv, -1, nil)
        EVP_CipherUpdate(context, output, &length, input, Int32(count))
    }
}
