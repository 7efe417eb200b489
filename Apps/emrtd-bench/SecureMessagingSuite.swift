import COpenSSL
import CryptoPrimitives
import Foundation
import ICAO
import Secrets
import SecureMessaging
import Transport

/// `emrtd-bench sm`: AES secure messaging exchanges (READ BINARY of 223 bytes: reader wrap, chip
/// unwrap, chip wrap, reader unwrap) against the bare libcrypto calls the same exchange needs at
/// least (four CMACs, two IV blocks, one CBC encryption and one decryption) with contexts reused:
/// the reference is the cost of the cryptography alone, so the ratio shows what the SM layer adds.
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

/// The cryptographic operations of one AES SM exchange, called directly on
/// libcrypto with long-lived contexts.
private final class ReferenceSecureMessagingCrypto {
    private let cbc: OpaquePointer
    private let ecb: OpaquePointer
    private let cipherContext: OpaquePointer
    private let macContext: OpaquePointer
    private let encryptionKey: [UInt8]
    private var output = [UInt8](repeating: 0, count: 512)

    init(cipher: BlockCipher, encryptionKey: SymmetricKey, macKey: SymmetricKey) throws {
        let bits = cipher.keyLength * 8
        guard let cbc = EVP_CIPHER_fetch(nil, "AES-\(bits)-CBC", nil),
            let ecb = EVP_CIPHER_fetch(nil, "AES-\(bits)-ECB", nil),
            let cipherContext = EVP_CIPHER_CTX_new(), let mac = EVP_MAC_fetch(nil, "CMAC", nil),
            let macContext = EVP_MAC_CTX_new(mac)
        else { throw CryptoError(.libraryFailure, "reference setup") }
        EVP_MAC_free(mac)
        self.cbc = cbc
        self.ecb = ecb
        self.cipherContext = cipherContext
        self.macContext = macContext
        self.encryptionKey = encryptionKey.secret.withUnsafeBytes { Array($0) }
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
        guard initialized == 1 else { throw CryptoError(.libraryFailure, "reference CMAC") }
    }

    deinit {
        EVP_CIPHER_free(cbc)
        EVP_CIPHER_free(ecb)
        EVP_CIPHER_CTX_free(cipherContext)
        EVP_MAC_CTX_free(macContext)
    }

    func exchange(responseLength: Int) {
        let padded = (responseLength / 16 + 1) * 16
        let commandMACInput = [UInt8](repeating: 1, count: 48)
        let responseMACInput = [UInt8](repeating: 2, count: ((16 + padded + 4 + 4) / 16 + 1) * 16)
        let data = [UInt8](repeating: 3, count: padded)
        mac(commandMACInput)
        mac(commandMACInput)
        let iv = crypt(ecb, [UInt8](repeating: 0, count: 16), iv: nil, encrypt: true)
        let cryptogram = crypt(cbc, data, iv: iv, encrypt: true)
        mac(responseMACInput)
        mac(responseMACInput)
        let iv2 = crypt(ecb, [UInt8](repeating: 0, count: 16), iv: nil, encrypt: true)
        _ = crypt(cbc, cryptogram, iv: iv2, encrypt: false)
    }

    private func mac(_ input: [UInt8]) {
        var length = 0
        EVP_MAC_init(macContext, nil, 0, nil)
        EVP_MAC_update(macContext, input, input.count)
        EVP_MAC_final(macContext, &output, &length, output.count)
    }

    private func crypt(_ cipher: OpaquePointer, _ input: [UInt8], iv: [UInt8]?, encrypt: Bool) -> [UInt8] {
        var length: Int32 = 0
        EVP_CipherInit_ex2(cipherContext, cipher, encryptionKey, iv, encrypt ? 1 : 0, nil)
        EVP_CIPHER_CTX_set_padding(cipherContext, 0)
        EVP_CipherUpdate(cipherContext, &output, &length, input, Int32(input.count))
        return Array(output.prefix(Int(length)))
    }
}
