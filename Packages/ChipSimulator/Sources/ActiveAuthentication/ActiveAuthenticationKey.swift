import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets

/// The chip's Active Authentication key (ICAO 9303-11 §6.1) with how it signs: RSA with an
/// ISO/IEC 9796-2 digital signature scheme 1 trailer, or ECDSA on a curve with a hash (named by
/// DG14's ActiveAuthenticationInfo) and a signature encoding. Its public half goes into DG15.
public struct ActiveAuthenticationKey: Sendable, CustomStringConvertible {
    public enum Algorithm: Sendable {
        case rsa(RSAKeyPair, trailer: ISO9796Trailer)
        /// The signature is plain r‖s (TR-03111, what ActiveAuthenticationInfo's ecdsa-plain OIDs
        /// say) or DER, which real chips send too under the same OID.
        case ecdsa(KeyAgreementKeyPair, hash: HashAlgorithm, encoding: ECDSASignatureFormat)
    }

    public let algorithm: Algorithm

    private init(_ algorithm: Algorithm) { self.algorithm = algorithm }

    /// An RSA key whose modulus is whole bytes (the representative `6A ‖ M1 ‖ H ‖ trailer` fills
    /// them) with room for the hash, the trailer and some recoverable message.
    public static func rsa(_ key: RSAKeyPair, trailer: ISO9796Trailer) throws(ChipSimulatorError)
        -> ActiveAuthenticationKey
    {
        guard key.modulusBits % 8 == 0 else {
            throw ChipSimulatorError("an Active Authentication RSA modulus of whole bytes, not \(key.modulusBits) bits")
        }
        guard key.modulusBits / 8 > 1 + trailer.hash.digestLength + trailer.bytes.count else {
            throw ChipSimulatorError("an RSA key of \(key.modulusBits) bits is too short for \(trailer)")
        }
        return ActiveAuthenticationKey(.rsa(key, trailer: trailer))
    }

    /// An ECDSA key: a key pair on a curve.
    public static func ecdsa(
        _ key: KeyAgreementKeyPair, hash: HashAlgorithm = .sha256, encoding: ECDSASignatureFormat = .plain
    ) throws(ChipSimulatorError) -> ActiveAuthenticationKey {
        guard case .ellipticCurve = key.domainParameters else {
            throw ChipSimulatorError("an ECDSA Active Authentication key lies on a curve, not in a DH group")
        }
        return ActiveAuthenticationKey(.ecdsa(key, hash: hash, encoding: encoding))
    }

    /// The signature INTERNAL AUTHENTICATE returns over `challenge` (M2 = RND.IFD): RSA signs
    /// `6A ‖ M1 ‖ H(M1 ‖ M2) ‖ trailer` with M1 fresh random bytes filling the modulus; ECDSA
    /// signs H(challenge) with a fresh nonce.
    func sign(challenge: [UInt8], random: RandomSource) throws -> [UInt8] {
        switch algorithm {
        case .rsa(let key, let trailer):
            let length = key.modulusBits / 8 - 1 - trailer.hash.digestLength - trailer.bytes.count
            let recoverable = try random.bytes(count: length).withUnsafeBytes { Array($0) }
            return try Self.iso9796Signature(
                key, recoverable: recoverable, digest: trailer.hash.hash(recoverable + challenge),
                trailer: trailer.bytes)
        case .ecdsa(let key, let hash, let encoding):
            guard case .ellipticCurve(let curve) = key.domainParameters else {
                throw ChipSimulatorError("an ECDSA key off a curve")
            }
            let signature = try ECDSA.sign(
                digest: hash.hash(challenge), privateKey: key.privateKey, curve: curve, random: random)
            switch encoding {
            case .plain: return try signature.rawRepresentation(length: curve.orderLength)
            case .der: return signature.derRepresentation
            }
        }
    }

    /// ISO/IEC 9796-2 digital signature scheme 1 with partial message recovery: the representative
    /// F = `6A ‖ M1 ‖ digest ‖ trailer` in the modulus's length, signed F^d mod n. `digest` is the
    /// hash of the whole message M1 ‖ M2, which the verifier recomputes with M2 (the challenge).
    static func iso9796Signature(
        _ key: RSAKeyPair, recoverable: [UInt8], digest: [UInt8], trailer: [UInt8]
    ) throws -> [UInt8] {
        let length = key.modulusBits / 8
        guard recoverable.count == length - 1 - digest.count - trailer.count else {
            throw ChipSimulatorError("M1 must fill the representative of a \(key.modulusBits)-bit key")
        }
        let representative = [0x6A] + recoverable + digest + trailer
        return try key.privateOperation(BigInt(bytes: representative)).bytes(length: length)
    }

    public var description: String {
        switch algorithm {
        case .rsa(let key, let trailer): "RSA \(key.modulusBits) bits, ISO/IEC 9796-2 trailer \(trailer)"
        case .ecdsa(let key, let hash, let encoding):
            "ECDSA \(key.parametersName), \(hash.rawValue.uppercased()), \(encoding == .plain ? "plain" : "DER")"
        }
    }
}

extension ActiveAuthenticationKey {
    /// A fresh key by the short name a command line gives: `rsa:BITS[:TRAILER]` with TRAILER `bc`
    /// (SHA-1, implicit) or a hash for the explicit trailer, `sha1`, `sha224`, `sha256` (the
    /// default), `sha384`, `sha512`; or `ecdsa:PARAMETERS[:HASH][:der]` (the curve's ID or name,
    /// the hash of ActiveAuthenticationInfo, default sha256; plain r‖s unless `der`).
    public static func generate(named text: String) throws(ChipSimulatorError) -> ActiveAuthenticationKey {
        let fields = text.lowercased().split(separator: ":").map(String.init)
        let usage = "\(text) is no Active Authentication key (rsa:BITS[:bc|sha256…] or ecdsa:PARAM[:HASH][:der])"
        guard fields.count >= 2 else { throw ChipSimulatorError(usage) }
        switch fields[0] {
        case "rsa":
            guard fields.count <= 3, let bits = Int(fields[1]) else { throw ChipSimulatorError(usage) }
            var trailer = ISO9796Trailer.explicit(.sha256)
            if fields.count == 3 {
                if fields[2] == "bc" {
                    trailer = .implicit
                } else if let hash = HashAlgorithm(rawValue: fields[2]) {
                    trailer = .explicit(hash)
                } else {
                    throw ChipSimulatorError(usage)
                }
            }
            return try .rsa(try RSAKeyPair.generate(bits: bits), trailer: trailer)
        case "ecdsa":
            let parameters = try PACEOffer.parameters(named: fields[1], for: .ecdh, in: text)
            var hash = HashAlgorithm.sha256
            var encoding = ECDSASignatureFormat.plain
            for option in fields.dropFirst(2) {
                if option == "der" {
                    encoding = .der
                } else if let named = HashAlgorithm(rawValue: option) {
                    hash = named
                } else {
                    throw ChipSimulatorError(usage)
                }
            }
            return try .ecdsa(try KeyAgreementKeyPair.generate(on: parameters), hash: hash, encoding: encoding)
        default:
            throw ChipSimulatorError(usage)
        }
    }
}
