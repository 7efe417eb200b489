import Arithmetic
import CMS
import CryptoPrimitives
import ICAO
import LDS
import Secrets
import SecureMessaging
import Transport

/// Active Authentication (ICAO 9303-11 §6.1): the chip signs the reader's 8-byte challenge with
/// the private key whose public half DG15 holds. INTERNAL AUTHENTICATE `0C 88 00 00` carries the
/// challenge; the answer is the signature: RSA with ISO/IEC 9796-2 scheme 1 (M2 = the challenge),
/// or ECDSA over the challenge with the hash DG14's ActiveAuthenticationInfo names, encoded r‖s
/// or DER.
public enum ActiveAuthentication {
    /// What a verified signature was.
    public enum Scheme: Sendable, Hashable, CustomStringConvertible {
        case iso9796Part2(HashAlgorithm, implicitTrailer: Bool)
        case ecdsa(HashAlgorithm, plain: Bool)

        public var description: String {
            switch self {
            case .iso9796Part2(let hash, let implicit):
                "RSA ISO/IEC 9796-2 scheme 1, \(hash.displayName), \(implicit ? "implicit trailer BC" : "explicit trailer")"
            case .ecdsa(let hash, let plain): "ECDSA with \(hash.displayName), \(plain ? "plain r‖s" : "DER")"
            }
        }
    }

    /// Sends INTERNAL AUTHENTICATE with `challenge` over `channel` and returns the chip's
    /// signature. Le asks for the whole signature the key in DG15 gives (extended length when it
    /// exceeds 256 bytes and the link has it; DO'97' follows from Le).
    public static func internalAuthenticate(
        challenge: [UInt8], publicKey: SubjectPublicKeyInfo, over channel: SecureChannel
    ) throws(ChipAuthenticationError) -> [UInt8] {
        let expected = publicKey.keySize.map { publicKey.algorithm == .ec ? 2 * ($0 + 7) / 8 + 9 : ($0 + 7) / 8 } ?? 256
        let expectedLength =
            expected > CommandAPDU.maximumShortExpectedLength && channel.supportsExtendedLength
            ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength
        let answer = try ChipCommand.exchange(
            CommandAPDU(ins: 0x88, p1: 0x00, p2: 0x00, data: challenge, expectedLength: expectedLength), over: channel,
            step: "INTERNAL AUTHENTICATE")
        guard answer.statusWord.isSuccess else {
            throw ChipAuthenticationError(
                .refused, "the chip refused INTERNAL AUTHENTICATE (\(answer.statusWord))", statusWord: answer.statusWord
            )
        }
        guard !answer.data.isEmpty else {
            throw ChipAuthenticationError(
                .protocolViolation, "the chip answered INTERNAL AUTHENTICATE without a signature")
        }
        return answer.data
    }

    /// Verifies the chip's `signature` over `challenge` with DG15's `publicKey`; `info` is DG14's
    /// ActiveAuthenticationInfo (it names the ECDSA hash). Returns the scheme that verified.
    ///
    /// - Throws: `.verificationFailed` for a signature that does not verify, `.unusableKey` for a
    ///   key or algorithm this reader cannot check.
    public static func verify(
        signature: [UInt8], challenge: [UInt8], publicKey: SubjectPublicKeyInfo, info: ActiveAuthenticationInfo?
    ) throws(ChipAuthenticationError) -> Scheme {
        switch publicKey.algorithm {
        case .rsa:
            guard let modulus = publicKey.rsaModulus, let exponent = publicKey.rsaPublicExponent else {
                throw ChipAuthenticationError(.unusableKey, "DG15's RSA key has no modulus")
            }
            return try verifyRSA(signature: signature, challenge: challenge, modulus: modulus, exponent: exponent)
        case .ec:
            return try verifyECDSA(signature: signature, challenge: challenge, publicKey: publicKey, info: info)
        case .dh, .unknown:
            throw ChipAuthenticationError(
                .unusableKey,
                "DG15 holds a \(publicKey.algorithmIdentifier.name ?? publicKey.algorithmIdentifier.dotted) key, "
                    + "which signs nothing")
        }
    }

    static func verifyRSA(signature: [UInt8], challenge: [UInt8], modulus: [UInt8], exponent: [UInt8])
        throws(ChipAuthenticationError) -> Scheme
    {
        let representative = try ISO9796Part2.recover(signature: signature, modulus: modulus, exponent: exponent)
        guard representative.isPartialRecovery else {
            throw ChipAuthenticationError(
                .verificationFailed, "the signature is not ISO/IEC 9796-2 partial recovery (header 6A)")
        }
        let hash: HashAlgorithm
        if let identifier = representative.hashIdentifier {
            guard let named = ISO9796Part2.hashAlgorithm(identifier: identifier) else {
                throw ChipAuthenticationError(
                    .unusableKey,
                    "the signature names hash ID \(String(identifier, radix: 16, uppercase: true)), which 9303 does not use"
                )
            }
            hash = named
        } else {
            hash = .sha1
        }
        guard representative.digest.count == hash.digestLength,
            constantTimeEquals(hash.hash(representative.recoveredMessage + challenge), representative.digest)
        else {
            throw ChipAuthenticationError(
                .verificationFailed, "the signature's hash is not the \(hash.displayName) of M1 and the challenge")
        }
        return .iso9796Part2(hash, implicitTrailer: representative.hashIdentifier == nil)
    }

    static func verifyECDSA(
        signature: [UInt8], challenge: [UInt8], publicKey: SubjectPublicKeyInfo, info: ActiveAuthenticationInfo?
    ) throws(ChipAuthenticationError) -> Scheme {
        let curve: EllipticCurve
        let point: ECPoint
        do {
            guard case .curve(let keyCurve, _) = try KeyAgreementDomain(publicKeyInfo: publicKey) else {
                throw ChipAuthenticationError(.unusableKey, "DG15's EC key has no curve")
            }
            curve = keyCurve
            point = try curve.decodePoint(publicKey.publicKey)
        } catch let error as ChipAuthenticationError {
            throw error
        } catch {
            throw ChipAuthenticationError(.unusableKey, "DG15's EC key cannot be used: \(error)")
        }
        var hashes = HashAlgorithm.allCases
        if let identifier = info?.signatureAlgorithm {
            guard case .ecdsa(let hash)? = SignatureAlgorithm(identifier: identifier) else {
                throw ChipAuthenticationError(
                    .unusableKey, "DG14's ActiveAuthenticationInfo names \(identifier.dotted), not an ECDSA algorithm")
            }
            hashes = [hash]
        }
        var parsed: [(ECDSASignature, Bool)] = []
        if let plain = try? ECDSASignature(rawRepresentation: signature), signature.count == 2 * curve.orderLength {
            parsed.append((plain, true))
        }
        if let der = try? ECDSASignature(derRepresentation: signature) { parsed.append((der, false)) }
        guard !parsed.isEmpty else {
            throw ChipAuthenticationError(
                .verificationFailed,
                "the signature is neither r‖s of the curve's length nor DER (\(signature.count) bytes)")
        }
        for hash in hashes {
            let digest = hash.hash(challenge)
            for (candidate, plain) in parsed
            where (try? ECDSA.verify(publicKey: point, digest: digest, signature: candidate, curve: curve)) == true {
                return .ecdsa(hash, plain: plain)
            }
        }
        throw ChipAuthenticationError(
            .verificationFailed,
            "the ECDSA signature does not verify over the challenge with "
                + hashes.map(\.displayName).joined(separator: ", "))
    }
}
