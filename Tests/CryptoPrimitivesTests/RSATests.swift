import COpenSSL
import TestSupport
import Testing

@testable import CryptoPrimitives

/// Differential tests: keys are generated and messages signed by libcrypto's own
/// signing code (a path this package never uses), then verified with
/// `RSAPublicKey` and tampered with.
struct RSATests {
    /// A freshly generated key pair, signing with libcrypto.
    final class OpenSSLSigner {
        let key: OpaquePointer

        init(bits: Int32) throws {
            let context = try #require(EVP_PKEY_CTX_new_from_name(nil, "RSA", nil))
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            #expect(EVP_PKEY_keygen_init(context) == 1)
            #expect(EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1)
            #expect(EVP_PKEY_generate(context, &key) == 1)
            self.key = try #require(key)
        }

        deinit { EVP_PKEY_free(key) }

        func parameter(_ name: String) throws -> [UInt8] {
            var number: OpaquePointer?
            #expect(EVP_PKEY_get_bn_param(key, name, &number) == 1)
            let bn = try #require(number)
            defer { BN_free(bn) }
            var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(bn) + 7) / 8))
            BN_bn2bin(bn, &bytes)
            return bytes
        }

        var subjectPublicKeyInfo: [UInt8] {
            var buffer: UnsafeMutablePointer<UInt8>?
            let length = i2d_PUBKEY(key, &buffer)
            defer { CRYPTO_free(buffer, #file, #line) }
            return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
        }

        /// The private-key operation on `encodedMessage` with no padding.
        func signRaw(_ encodedMessage: [UInt8]) throws -> [UInt8] {
            let context = try #require(EVP_PKEY_CTX_new_from_pkey(nil, key, nil))
            defer { EVP_PKEY_CTX_free(context) }
            #expect(EVP_PKEY_sign_init(context) == 1)
            #expect(EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1)
            var length = encodedMessage.count
            var signature = [UInt8](repeating: 0, count: length)
            #expect(EVP_PKEY_sign(context, &signature, &length, encodedMessage, encodedMessage.count) == 1)
            return Array(signature.prefix(length))
        }

        func sign(_ message: [UInt8], padding: RSASignaturePadding) throws -> [UInt8] {
            let digest = padding.hash.hash(message)
            let context = try #require(EVP_PKEY_CTX_new_from_pkey(nil, key, nil))
            defer { EVP_PKEY_CTX_free(context) }
            #expect(EVP_PKEY_sign_init(context) == 1)
            #expect(EVP_PKEY_CTX_set_signature_md(context, EVP_get_digestbyname(padding.hash.openSSLName)) == 1)
            switch padding {
            case .pkcs1v15:
                #expect(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1)
            case .pss(_, let mgf1Hash, let saltLength):
                #expect(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1)
                #expect(EVP_PKEY_CTX_set_rsa_mgf1_md(context, EVP_get_digestbyname(mgf1Hash.openSSLName)) == 1)
                #expect(EVP_PKEY_CTX_set_rsa_pss_saltlen(context, Int32(saltLength)) == 1)
            }
            var length = 0
            #expect(EVP_PKEY_sign(context, nil, &length, digest, digest.count) == 1)
            var signature = [UInt8](repeating: 0, count: length)
            #expect(EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1)
            return Array(signature.prefix(length))
        }
    }

    static let message = Array("the document signer signs the LDS security object".utf8)

    static let paddings: [RSASignaturePadding] =
        HashAlgorithm.allCases.map { .pkcs1v15(hash: $0) } + [
            .pss(hash: .sha256, mgf1Hash: .sha256, saltLength: 32),
            .pss(hash: .sha1, mgf1Hash: .sha1, saltLength: 20),
            .pss(hash: .sha512, mgf1Hash: .sha512, saltLength: 64),
            .pss(hash: .sha384, mgf1Hash: .sha256, saltLength: 0),
            .pss(hash: .sha224, mgf1Hash: .sha1, saltLength: 7),
        ]

    @Test(arguments: paddings)
    func verifiesWhatOpenSSLSignsAndRejectsTampering(padding: RSASignaturePadding) throws {
        let signer = try OpenSSLSigner(bits: 2048)
        let signature = try signer.sign(Self.message, padding: padding)
        let fromParts = try RSAPublicKey(modulus: [0] + signer.parameter("n"), exponent: signer.parameter("e"))
        let fromSPKI = try RSAPublicKey(subjectPublicKeyInfo: signer.subjectPublicKeyInfo)
        #expect(fromParts.modulusBits == 2048 && fromSPKI.modulusByteCount == 256)
        for key in [fromParts, fromSPKI] {
            #expect(try key.isValidSignature(signature, for: Self.message, padding: padding))
            #expect(try key.isValidSignature(signature, forDigest: padding.hash.hash(Self.message), padding: padding))
            #expect(try !key.isValidSignature(signature, for: Self.message + [0], padding: padding))
            var flipped = signature
            flipped[flipped.count / 2] ^= 0x01
            #expect(try !key.isValidSignature(flipped, for: Self.message, padding: padding))
            #expect(try !key.isValidSignature(signature + [0], for: Self.message, padding: padding))
        }
        // The same signature under other parameters must not verify.
        let other: RSASignaturePadding
        switch padding {
        case .pkcs1v15(let hash): other = .pss(hash: hash, mgf1Hash: hash, saltLength: hash.digestLength)
        case .pss(let hash, let mgf1Hash, let saltLength):
            other = .pss(hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength + 1)
        }
        #expect(try !fromParts.isValidSignature(signature, for: Self.message, padding: other))
    }

    /// A DigestInfo without the NULL parameters (RFC 4055 §2.1 form), signed by
    /// libcrypto's raw private operation: accepted; any other change is not.
    @Test(arguments: HashAlgorithm.allCases)
    func pkcs1v15WithoutNullParametersIsAccepted(hash: HashAlgorithm) throws {
        let signer = try OpenSSLSigner(bits: 1024)
        let oid: [UInt8] =
            switch hash {
            case .sha1: hex("2B0E03021A")
            case .sha224: hex("608648016503040204")
            case .sha256: hex("608648016503040201")
            case .sha384: hex("608648016503040202")
            case .sha512: hex("608648016503040203")
            }
        let digest = hash.hash(Self.message)
        func encode(_ digestInfo: [UInt8]) -> [UInt8] {
            [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 128 - 3 - digestInfo.count) + [0x00] + digestInfo
        }
        let algorithm = [0x30, UInt8(oid.count + 2), 0x06, UInt8(oid.count)] + oid
        let withoutNull =
            [0x30, UInt8(algorithm.count + 2 + digest.count)] + algorithm + [0x04, UInt8(digest.count)] + digest
        let key = try RSAPublicKey(subjectPublicKeyInfo: signer.subjectPublicKeyInfo)
        let padding = RSASignaturePadding.pkcs1v15(hash: hash)
        #expect(try key.isValidSignature(try signer.signRaw(encode(withoutNull)), for: Self.message, padding: padding))
        var wrongDigest = withoutNull
        wrongDigest[wrongDigest.count - 1] ^= 1
        #expect(try !key.isValidSignature(try signer.signRaw(encode(wrongDigest)), for: Self.message, padding: padding))
        var shortPadding = encode(withoutNull)
        shortPadding[1] = 0x02
        #expect(try !key.isValidSignature(try signer.signRaw(shortPadding), for: Self.message, padding: padding))
    }

    @Test func pssWithTheWrongMGF1HashFails() throws {
        let signer = try OpenSSLSigner(bits: 1024)
        let padding = RSASignaturePadding.pss(hash: .sha256, mgf1Hash: .sha1, saltLength: 20)
        let signature = try signer.sign(Self.message, padding: padding)
        let key = try RSAPublicKey(subjectPublicKeyInfo: signer.subjectPublicKeyInfo)
        #expect(try key.isValidSignature(signature, for: Self.message, padding: padding))
        #expect(
            try !key.isValidSignature(
                signature,
                for: Self.message,
                padding: .pss(hash: .sha256, mgf1Hash: .sha256, saltLength: 20)
            )
        )
    }

    /// The raw public operation on a PKCS#1 v1.5 signature reveals its encoded
    /// message: 00 01 FF…FF 00 DigestInfo(SHA-256) digest (RFC 8017 §9.2).
    @Test func rawOperationRecoversTheEncodedMessage() throws {
        let signer = try OpenSSLSigner(bits: 1024)
        let signature = try signer.sign(Self.message, padding: .pkcs1v15(hash: .sha256))
        let key = try RSAPublicKey(modulus: signer.parameter("n"), exponent: signer.parameter("e"))
        let recovered = try key.rawPublicOperation(signature)
        let digestInfoPrefix = hex("3031300d060960864801650304020105000420")
        let expected =
            [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 128 - 3 - 19 - 32) + [0x00] + digestInfoPrefix
            + HashAlgorithm.sha256.hash(Self.message)
        #expect(recovered == expected)
        // Small inputs come back padded to the modulus length: 2^e mod n with e = 65537 is not 2.
        #expect(try key.rawPublicOperation([2]).count == 128)
        #expect { try key.rawPublicOperation(signer.parameter("n")) } throws: {
            ($0 as? CryptoError)?.code == .invalidParameter
        }
        #expect { try key.rawPublicOperation([UInt8](repeating: 0xFF, count: 129)) } throws: {
            ($0 as? CryptoError)?.code == .invalidParameter
        }
    }

    @Test func refusesUnusableKeys() throws {
        let cases: [() throws -> RSAPublicKey] = [
            { try RSAPublicKey(modulus: [], exponent: [1, 0, 1]) },
            { try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 63) + [0xFE], exponent: [1, 0, 1]) },
            { try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 64), exponent: [1]) },
            { try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 64), exponent: []) },
            { try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 2049), exponent: [3]) },
            { try RSAPublicKey(subjectPublicKeyInfo: hex("3000")) },
            { try RSAPublicKey(subjectPublicKeyInfo: []) },
        ]
        for make in cases {
            #expect(throws: CryptoError.self) { try make() }
        }
        let signer = try OpenSSLSigner(bits: 1024)
        #expect { try RSAPublicKey(subjectPublicKeyInfo: signer.subjectPublicKeyInfo + [0]) } throws: {
            ($0 as? CryptoError)?.code == .invalidPublicKey
        }
    }

    @Test func refusesAnECKeyInfo() throws {
        // SubjectPublicKeyInfo of a P-256 key (RFC 5480 structure, generator point as the key).
        let ecSPKI = hex(
            "3059301306072a8648ce3d020106082a8648ce3d03010703420004"
                + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
        )
        #expect { try RSAPublicKey(subjectPublicKeyInfo: ecSPKI) } throws: {
            ($0 as? CryptoError)?.reason == "the SubjectPublicKeyInfo holds no RSA key"
        }
    }
}

extension HashAlgorithm {
    /// libcrypto's names, for the signing side of the differential tests.
    var openSSLName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }
}
