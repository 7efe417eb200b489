import ICAO
import Secrets
import TestSupport
import Testing

@testable import CryptoPrimitives

struct CipherTests {
    /// FIPS 197 Appendix C: one block under 128/192/256-bit keys.
    @Test(arguments: [
        (BlockCipher.aes128, "000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
        (.aes192, "000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
        (
            .aes256, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "8ea2b7ca516745bfeafc49904b496089"
        ),
    ])
    func aesECBKnownAnswer(cipher: BlockCipher, key: String, expected: String) throws {
        let key = try SymmetricKey(cipher, bytes: hex(key))
        let plaintext = hex("00112233445566778899aabbccddeeff")
        #expect(try key.encryptECB(plaintext) == hex(expected))
        #expect(try key.decryptECB(hex(expected)) == plaintext)
    }

    /// NIST SP 800-38A F.2.1/F.2.2 (CBC-AES128).
    @Test func aesCBCKnownAnswer() throws {
        let key = try SymmetricKey(.aes128, bytes: hex("2b7e151628aed2a6abf7158809cf4f3c"))
        let iv = hex("000102030405060708090a0b0c0d0e0f")
        let plaintext = hex(
            "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
                + "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710"
        )
        let ciphertext = hex(
            "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
                + "73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7"
        )
        #expect(try key.encryptCBC(plaintext, iv: iv) == ciphertext)
        #expect(try key.decryptCBC(ciphertext, iv: iv) == plaintext)
    }

    /// ICAO 9303-11 App. D.3: E_IFD = 3DES-CBC(K_enc, IV 0, S).
    @Test func tripleDESCBCKnownAnswer() throws {
        let key = try SymmetricKey(.tripleDES, bytes: hex("AB94FDECF2674FDFB9B391F85D7F76F2"))
        let s = hex("781723860C06C2264608F919887022120B795240CB7049B01C19B33E32804F0B")
        let eIFD = hex("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2")
        let zero = [UInt8](repeating: 0, count: 8)
        #expect(try key.encryptCBC(s, iv: zero) == eIFD)
        #expect(try key.decryptCBC(eIFD, iv: zero) == s)
        // D.3: the chip's response decrypts to RND.IC || RND.IFD || K.IC under the same key.
        let response = hex("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F")
        #expect(
            try key.decryptCBC(response, iv: zero)
                == hex("4608F91988702212781723860C06C2260B4F80323EB3191CB04970CB4052790B")
        )
    }

    /// Two-key 3DES ECB equals E_K1(D_K2(E_K1(x))); with K1 = K2 it is single DES.
    /// FIPS 81 / NBS single-DES known answer: key 0123456789ABCDEF, "Now is t".
    @Test func tripleDESWithEqualHalvesIsSingleDES() throws {
        let key = try SymmetricKey(.tripleDES, bytes: hex("0123456789ABCDEF 0123456789ABCDEF"))
        #expect(try key.encryptECB(hex("4E6F772069732074")) == hex("3FA40E8A984D4815"))
    }

    @Test func rejectsPartialBlocksWrongIVsAndWrongKeys() throws {
        let key = try SymmetricKey(.aes128, bytes: [UInt8](repeating: 1, count: 16))
        #expect(
            throws: CryptoError(.invalidInputLength, "aes128 input of 15 bytes is not a multiple of the 16-byte block")
        ) {
            try key.encryptECB([UInt8](repeating: 0, count: 15))
        }
        #expect { try key.encryptCBC([UInt8](repeating: 0, count: 16), iv: [0]) } throws: {
            ($0 as? CryptoError)?.code == .invalidInputLength
        }
        #expect { try SymmetricKey(.aes256, bytes: [UInt8](repeating: 1, count: 16)) } throws: {
            ($0 as? CryptoError)?.code == .invalidKeyLength
        }
        #expect(try key.encryptECB([]) == [])
    }

    @Test func keysNeverPrintTheirBytes() throws {
        let key = try SymmetricKey(.tripleDES, bytes: hex("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(!"\(key)".uppercased().contains("AB94"))
        #expect("\(key.secret)" == "SecretBytes(16 bytes, redacted)")
        #expect(!String(reflecting: key.secret).contains("171"))
    }

    /// CBC into a caller's buffer, in place or apart, gives what `encryptCBC`/`decryptCBC` give,
    /// and ECB into a buffer what `encryptECB` gives.
    @Test(arguments: [BlockCipher.tripleDES, .aes128, .aes192, .aes256])
    func cbcIntoBuffersMatchesTheArrayCalls(cipher: BlockCipher) throws {
        let key = try SymmetricKey(
            cipher, bytes: (0..<cipher.keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
        let iv = (0..<cipher.blockSize).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let plaintext = (0..<(cipher.blockSize * 5)).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        let ciphertext = try key.encryptCBC(plaintext, iv: iv)
        var inPlace = plaintext
        try iv.withUnsafeBytes { iv in
            try inPlace.withUnsafeMutableBytes { buffer in
                try key.cbc(UnsafeRawBufferPointer(buffer), into: buffer, iv: iv, encrypt: true)
            }
        }
        #expect(inPlace == ciphertext)
        var decrypted = [UInt8](repeating: 0, count: ciphertext.count)
        try iv.withUnsafeBytes { iv in
            try ciphertext.withUnsafeBytes { input in
                try decrypted.withUnsafeMutableBytes { try key.cbc(input, into: $0, iv: iv, encrypt: false) }
            }
        }
        #expect(decrypted == plaintext)
        var block = [UInt8](repeating: 0, count: cipher.blockSize)
        try iv.withUnsafeBytes { input in try block.withUnsafeMutableBytes { try key.encryptECB(input, into: $0) } }
        #expect(block == (try key.encryptECB(iv)))
        #expect(throws: CryptoError.self) {
            try plaintext.withUnsafeBytes { input in
                try block.withUnsafeMutableBytes { try key.encryptECB(input, into: $0) }
            }
        }
    }

    /// A key's cached CBC contexts are never re-initialised: each message starts from its IV by
    /// xoring it and the context's chaining value into the first block. Many messages in a row
    /// under one key (lengths, IVs, in place or apart, both directions interleaved) still give
    /// CBC as defined, C(i) = E(P(i) xor C(i-1)), rebuilt here block by block with ECB.
    @Test(arguments: [BlockCipher.tripleDES, .aes128, .aes256])
    func cbcMessagesInARowMatchCBCBuiltFromECB(cipher: BlockCipher) throws {
        let blockSize = cipher.blockSize
        let key = try SymmetricKey(
            cipher, bytes: (0..<cipher.keyLength).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 5) })
        for round in 0..<12 {
            let blocks = [1, 3, 16, 2, 5, 17][round % 6]
            let iv = (0..<blockSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round &* 7) }
            let plaintext = (0..<(blocks * blockSize)).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ round) }
            var expected: [UInt8] = []
            var chain = iv
            for start in stride(from: 0, to: plaintext.count, by: blockSize) {
                chain = try key.encryptECB(zip(plaintext[start..<(start + blockSize)], chain).map { $0 ^ $1 })
                expected += chain
            }
            var ciphertext = plaintext
            try iv.withUnsafeBytes { iv in
                try ciphertext.withUnsafeMutableBytes { buffer in
                    if round.isMultiple(of: 2) {
                        try key.cbc(UnsafeRawBufferPointer(buffer), into: buffer, iv: iv, encrypt: true)
                    } else {
                        try plaintext.withUnsafeBytes { try key.cbc($0, into: buffer, iv: iv, encrypt: true) }
                    }
                }
            }
            #expect(ciphertext == expected, "\(cipher), message \(round), encrypted")
            #expect(try key.encryptCBC(plaintext, iv: iv) == expected, "\(cipher), message \(round), array call")
            var decrypted = ciphertext
            try iv.withUnsafeBytes { iv in
                try decrypted.withUnsafeMutableBytes { buffer in
                    try key.cbc(UnsafeRawBufferPointer(buffer), into: buffer, iv: iv, encrypt: false)
                }
            }
            #expect(decrypted == plaintext, "\(cipher), message \(round), decrypted in place")
            #expect(try key.decryptCBC(expected, iv: iv) == plaintext, "\(cipher), message \(round), array call")
        }
    }

    /// Copies of a key share its cached contexts and their chaining values: used from several tasks
    /// at once, every CBC message and MAC still equals the one computed alone.
    @Test func keyCopiesUsedFromSeveralTasksAgreeWithSerialResults() async throws {
        let key = try SymmetricKey(.aes128, bytes: (0..<16).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 2) })
        func results(_ key: SymmetricKey, task: Int) throws -> [[UInt8]] {
            try (0..<50).map { round in
                let iv = (0..<16).map { UInt8(truncatingIfNeeded: $0 &+ round &* 3 &+ task) }
                let message = (0..<(16 * (1 + round % 7))).map { UInt8(truncatingIfNeeded: $0 &* task &+ round) }
                let ciphertext = try key.encryptCBC(message, iv: iv)
                var mac = [UInt8](repeating: 0, count: 8)
                try message.withUnsafeBytes { bytes in
                    try mac.withUnsafeMutableBytes { output in try key.paddedMAC(into: output) { $0(bytes) } }
                }
                return ciphertext + mac
            }
        }
        let expected = try (0..<8).map { try results(key, task: $0) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [[UInt8]]).self) { group in
            for task in 0..<8 {
                let copy = key
                group.addTask { (task, try results(copy, task: task)) }
            }
            var collected = [[[UInt8]]](repeating: [], count: 8)
            for try await (task, result) in group { collected[task] = result }
            return collected
        }
        #expect(concurrent == expected)
    }
}
