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
        challenge: [UInt8], publicKey: PublicKeyInfo, over channel: any CommandChannel
    ) throws(ChipAuthenticationError) -> [UInt8] {
        let bits = Int(publicKey.keySize)
        let expected = bits == 0 ? 256 : publicKey.keyAlgorithm == .ec ? 2 * (bits + 7) / 8 + 9 : (bits + 7) / 8
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
        signature: [UInt8], challenge: [UInt8], publicKey: PublicKeyInfo, info: ActiveAuthenticationInfo?
    ) throws(ChipAuthenticationError) -> Scheme {
        try ActiveAuthenticationVerifier(publicKey: publicKey, info: info).verify(
            signature: signature, challenge: challenge)
    }
}

/// DG15's key made ready to check Active Authentication signatures (an RSA key built once, or the
/// curve and point decoded and validated once), with the hashes an ECDSA signature may use.
public struct ActiveAuthenticationVerifier: Sendable {
    enum Key: Sendable {
        case rsa(RSAPublicKey, modulus: BigInt)
        case ecdsa(EllipticCurve, ECPoint, hashes: [HashAlgorithm])
    }

    let key: Key

    /// - Throws: `.unusableKey` for a key this reader cannot check with (a DH key, an unknown
    ///   curve, a point off its curve, an ActiveAuthenticationInfo naming no ECDSA algorithm).
    public init(publicKey: PublicKeyInfo, info: ActiveAuthenticationInfo?) throws(ChipAuthenticationError) {
        switch publicKey.keyAlgorithm {
        case .rsa:
            guard let modulus = publicKey.rsaModulus, let exponent = publicKey.rsaPublicExponent else {
                throw ChipAuthenticationError(.unusableKey, "DG15's RSA key has no modulus")
            }
            do {
                key = .rsa(try RSAPublicKey(modulus: modulus, exponent: exponent), modulus: BigInt(bytes: modulus))
            } catch {
                throw ChipAuthenticationError(.unusableKey, "DG15's RSA key cannot be used: \(error)")
            }
        case .ec:
            var hashes = HashAlgorithm.allCases
            if let identifier = info?.signatureAlgorithm {
                guard case .ecdsa(let hash)? = SignatureAlgorithm(identifier: identifier) else {
                    throw ChipAuthenticationError(
                        .unusableKey,
                        "DG14's ActiveAuthenticationInfo names \(identifier.dotted), not an ECDSA algorithm")
                }
                hashes = [hash]
            }
            do {
                guard case .curve(let curve, _) = try KeyAgreementDomain(publicKeyInfo: publicKey) else {
                    throw ChipAuthenticationError(.unusableKey, "DG15's EC key has no curve")
                }
                key = .ecdsa(curve, try curve.decodePoint(publicKey.publicKey), hashes: hashes)
            } catch let error as ChipAuthenticationError {
                throw error
            } catch {
                throw ChipAuthenticationError(.unusableKey, "DG15's EC key cannot be used: \(error)")
            }
        case .dh, .unknown:
            throw ChipAuthenticationError(
                .unusableKey,
                "DG15 holds a \(publicKey.algorithmIdentifier.name ?? publicKey.algorithmIdentifier.dotted) key, "
                    + "which signs nothing")
        }
    }

    /// Checks the chip's `signature` over `challenge`; returns the scheme that verified.
    ///
    /// - Throws: `.verificationFailed` for a signature that does not verify, `.unusableKey` for an
    ///   RSA signature naming a hash 9303 does not use.
    public func verify(signature: [UInt8], challenge: [UInt8]) throws(ChipAuthenticationError)
        -> ActiveAuthentication.Scheme
    {
        switch key {
        case .rsa(let key, let modulus):
            return try Self.verifyRSA(signature: signature, challenge: challenge, key: key, modulus: modulus)
        case .ecdsa(let curve, let point, let hashes):
            return try Self.verifyECDSA(
                signature: signature, challenge: challenge, curve: curve, point: point, hashes: hashes)
        }
    }

    /// ISO/IEC 9796-2 scheme 1 with partial recovery: H = Hash(M1 ‖ challenge), the hash the
    /// trailer names (BC: SHA-1).
    static func verifyRSA(signature: [UInt8], challenge: [UInt8], key: RSAPublicKey, modulus: BigInt)
        throws(ChipAuthenticationError) -> ActiveAuthentication.Scheme
    {
        let representative = try ISO9796Part2.recover(signature: signature, key: key, modulus: modulus)
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

    /// ECDSA over the challenge with each allowed hash, the signature as r‖s (when its length is
    /// twice the order's) or DER.
    static func verifyECDSA(
        signature: [UInt8], challenge: [UInt8], curve: EllipticCurve, point: ECPoint, hashes: [HashAlgorithm]
    ) throws(ChipAuthenticationError) -> ActiveAuthentication.Scheme {
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
