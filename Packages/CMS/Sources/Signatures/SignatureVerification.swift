import ASN1
import CryptoPrimitives

extension PublicKey {
    /// Whether `signature` over `message` verifies under this key with `algorithm`.
    /// A wrong signature is `false`; a key or scheme that cannot be used throws.
    public func isValidSignature(
        _ signature: [UInt8], over message: some Collection<UInt8>, algorithm: SignatureAlgorithm
    ) throws(CMSError) -> Bool {
        switch (keyAlgorithm, algorithm) {
        case (.rsa, .rsaPKCS1(let hash)):
            return try verifyRSA(signature, message, .pkcs1v15(hash: hash))
        case (.rsa, .rsaPSS(let hash, let mgf1Hash, let saltLength)):
            return try verifyRSA(
                signature, message, .pss(hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength))
        case (.ec, .ecdsa(let hash)) where isECDSAKey:
            return try ECDSAVerifier.verify(digest: hash.hash(message), signature: signature, key: self)
        default:
            throw CMSError(.unsupported, "a \(algorithmName) key cannot check a \(algorithm) signature")
        }
    }

    private func verifyRSA(
        _ signature: [UInt8], _ message: some Collection<UInt8>, _ padding: RSASignaturePadding
    ) throws(CMSError) -> Bool {
        do {
            let key = try RSAPublicKey(modulus: rsaModulus ?? [], exponent: rsaPublicExponent ?? [])
            return try key.isValidSignature(signature, for: message, padding: padding)
        } catch {
            throw CMSError(.invalidKey, "RSA: \(error)")
        }
    }
}
