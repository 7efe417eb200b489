import ASN1
import COpenSSL
import CryptoPrimitives
import Foundation

/// An OpenSSL key pair owned by a value: the `EVP_PKEY` is freed when the last copy goes.
///
/// The specimen's CSCA and document signer are made at run time, so no private key is ever
/// stored in the repository and every generated document is signed by a fresh CSCA.
struct TestKeyPair: @unchecked Sendable {
    private final class Storage {
        let key: OpaquePointer
        init(_ key: OpaquePointer) { self.key = key }
        deinit { EVP_PKEY_free(key) }
    }

    private let storage: Storage
    var pointer: OpaquePointer { storage.key }

    /// A fresh EC key on a named curve (`P-256`, `brainpoolP256r1`, …).
    static func ellipticCurve(_ curve: String) throws(ChipSimulatorError) -> TestKeyPair {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw ChipSimulatorError("OpenSSL: no EC key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, curve) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw ChipSimulatorError("OpenSSL: cannot generate an EC key on \(curve)") }
        return TestKeyPair(storage: Storage(key))
    }

    /// The DER SubjectPublicKeyInfo.
    func subjectPublicKeyInfo() throws(ChipSimulatorError) -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw ChipSimulatorError("OpenSSL: cannot encode a public key") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        guard written == length else { throw ChipSimulatorError("OpenSSL: cannot encode a public key") }
        return bytes
    }

    /// An ECDSA-with-SHA-256 signature (DER `Ecdsa-Sig-Value`) over `message`.
    func signSHA256(_ message: [UInt8]) throws(ChipSimulatorError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw ChipSimulatorError("OpenSSL: no digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, pointer, nil) == 1 else {
            throw ChipSimulatorError("OpenSSL: cannot start a signature")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw ChipSimulatorError("OpenSSL: cannot size a signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw ChipSimulatorError("OpenSSL: cannot sign")
        }
        return Array(signature.prefix(length))
    }
}

/// X.509 certificates for the specimen's test PKI, built with the DER writer and signed through
/// OpenSSL: a self-signed CSCA (CA, keyCertSign) and a document signer under it
/// (digitalSignature), each with key identifiers so chains can be matched by them too.
enum TestCertificate {
    /// `Name` from (short attribute name, value) pairs: C as PrintableString, others UTF8String.
    static func name(_ attributes: [(String, String)]) -> [UInt8] {
        let types: [String: ASN1ObjectIdentifier] = [
            "C": .countryName, "O": .organizationName, "OU": .organizationalUnitName, "CN": .commonName,
        ]
        return DER.sequence(
            attributes.compactMap { attribute in
                guard let oid = types[attribute.0] else { return nil }
                let value =
                    attribute.0 == "C" ? DER.printableString(attribute.1) : DER.utf8String(attribute.1)
                return DER.set([DER.sequence([DER.objectIdentifier(oid), value])])
            })
    }

    /// The SHA-1 of the subjectPublicKey bits (RFC 5280 §4.2.1.2 method 1).
    static func keyIdentifier(ofSubjectPublicKeyInfo info: [UInt8]) throws(ChipSimulatorError) -> [UInt8] {
        guard let node = try? ASN1Node.parse(info, rules: .der), node.children.count == 2,
            let bits = try? node.children[1].bitString()
        else { throw ChipSimulatorError("cannot read a SubjectPublicKeyInfo") }
        return HashAlgorithm.sha1.hash(bits.bytes)
    }

    /// A DER certificate for `subjectKey`, signed by `issuerKey` with ECDSA-SHA256.
    static func make(
        serial: Int, issuer: [UInt8], subject: [UInt8], subjectKey: TestKeyPair, issuerKey: TestKeyPair,
        authorityKeyIdentifier: [UInt8], isAuthority: Bool, notBefore: Date, notAfter: Date
    ) throws(ChipSimulatorError) -> [UInt8] {
        let publicKeyInfo = try subjectKey.subjectPublicKeyInfo()
        let subjectKeyIdentifier = try keyIdentifier(ofSubjectPublicKeyInfo: publicKeyInfo)
        // keyUsage: keyCertSign + cRLSign (bits 5, 6) for a CSCA, digitalSignature (bit 0) otherwise.
        let keyUsage = isAuthority ? DER.bitString([0x06], unusedBits: 1) : DER.bitString([0x80], unusedBits: 7)
        var extensions = [
            extensionField(.keyUsage, critical: true, keyUsage),
            extensionField(.subjectKeyIdentifier, critical: false, DER.octetString(subjectKeyIdentifier)),
            extensionField(
                .authorityKeyIdentifier, critical: false,
                DER.sequence([DER.tlv(.contextSpecific(0, constructed: false), authorityKeyIdentifier)])),
        ]
        if isAuthority {
            extensions.append(
                extensionField(.basicConstraints, critical: true, DER.sequence([DER.boolean(true), DER.integer(0)])))
        }
        let signatureAlgorithm = DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.ecdsaWithSHA256)])
        let toBeSigned = DER.sequence([
            DER.tlv(.contextSpecific(0, constructed: true), DER.integer(2)),
            DER.integer(serial),
            signatureAlgorithm,
            issuer,
            DER.sequence([DER.time(notBefore), DER.time(notAfter)]),
            subject,
            publicKeyInfo,
            DER.tlv(.contextSpecific(3, constructed: true), DER.sequence(extensions)),
        ])
        let signature = try issuerKey.signSHA256(toBeSigned)
        return DER.sequence([toBeSigned, signatureAlgorithm, DER.bitString(signature)])
    }

    /// A fresh P-256 CSCA (serial 1, valid from the day before `time` for ten years) and a signer
    /// under it (valid from the day before for a year): the two certificates and both keys.
    static func authorityAndSigner(
        authorityName: [UInt8], signerName: [UInt8], signerSerial: Int, at time: Date
    ) throws(ChipSimulatorError) -> (
        authority: [UInt8], signer: [UInt8], signerKey: TestKeyPair, authorityKey: TestKeyPair
    ) {
        let authorityKey = try TestKeyPair.ellipticCurve("P-256")
        let signerKey = try TestKeyPair.ellipticCurve("P-256")
        let authorityKeyIdentifier = try keyIdentifier(ofSubjectPublicKeyInfo: authorityKey.subjectPublicKeyInfo())
        let day: TimeInterval = 86_400
        let authority = try make(
            serial: 1, issuer: authorityName, subject: authorityName, subjectKey: authorityKey, issuerKey: authorityKey,
            authorityKeyIdentifier: authorityKeyIdentifier, isAuthority: true,
            notBefore: time.addingTimeInterval(-day), notAfter: time.addingTimeInterval(3650 * day))
        let signer = try make(
            serial: signerSerial, issuer: authorityName, subject: signerName, subjectKey: signerKey,
            issuerKey: authorityKey, authorityKeyIdentifier: authorityKeyIdentifier, isAuthority: false,
            notBefore: time.addingTimeInterval(-day), notAfter: time.addingTimeInterval(365 * day))
        return (authority, signer, signerKey, authorityKey)
    }

    private static func extensionField(_ oid: ASN1ObjectIdentifier, critical: Bool, _ value: [UInt8]) -> [UInt8] {
        var fields = [DER.objectIdentifier(oid)]
        if critical { fields.append(DER.boolean(true)) }
        fields.append(DER.octetString(value))
        return DER.sequence(fields)
    }

}
