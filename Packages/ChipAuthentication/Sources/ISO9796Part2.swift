import Arithmetic
import CryptoPrimitives

/// ISO/IEC 9796-2 digital signature scheme 1, the RSA signature of Active Authentication (ICAO
/// 9303-11 §6.1): the signature opens (J = s^e mod n, or n − J, whichever ends in nibble C) to the
/// message representative
///
/// ```
/// F = header ‖ padding ‖ M1 ‖ H ‖ trailer
///     header: nibble 6 (partial recovery: M2 travels apart) or 4 (total recovery)
///     padding: nibbles B…B then A, ending on a byte boundary (6A for partial recovery)
///     H = Hash(M1 ‖ M2)
///     trailer: BC (implicit hash: SHA-1 for 9303) or XX CC, XX the ISO/IEC 10118 hash ID
/// ```
public enum ISO9796Part2 {
    /// What a signature opens to.
    public struct Representative: Sendable, Hashable {
        /// Partial recovery: the signed message is M1 ‖ M2, M2 given by the verifier.
        public let isPartialRecovery: Bool
        /// M1, the recoverable part.
        public let recoveredMessage: [UInt8]
        public let digest: [UInt8]
        /// The explicit trailer's hash ID (33 SHA-1, 38 SHA-224, 34 SHA-256, 36 SHA-384,
        /// 35 SHA-512, …); nil for the implicit trailer BC.
        public let hashIdentifier: UInt8?
        /// F itself.
        public let bytes: [UInt8]
    }

    /// The digest length of each ISO/IEC 10118-3 hash ID, the ones 9303 allows and RIPEMD's.
    static let digestLengths: [UInt8: Int] = [0x31: 20, 0x32: 16, 0x33: 20, 0x34: 32, 0x35: 64, 0x36: 48, 0x38: 28]

    /// The hash function of an explicit trailer's ID, nil for one this reader does not compute.
    public static func hashAlgorithm(identifier: UInt8) -> HashAlgorithm? {
        switch identifier {
        case 0x33: .sha1
        case 0x38: .sha224
        case 0x34: .sha256
        case 0x36: .sha384
        case 0x35: .sha512
        default: nil
        }
    }

    /// Opens `signature` with the RSA public key (`modulus`, `exponent`, big-endian) and parses F.
    /// A hash of the implicit trailer is taken as 20 bytes long (SHA-1, and RIPEMD-160).
    public static func recover(signature: [UInt8], modulus: [UInt8], exponent: [UInt8]) throws(ChipAuthenticationError)
        -> Representative
    {
        let key: RSAPublicKey
        do {
            key = try RSAPublicKey(modulus: modulus, exponent: exponent)
        } catch {
            throw ChipAuthenticationError(.unusableKey, "the RSA key cannot be used: \(error)")
        }
        return try recover(signature: signature, key: key, modulus: BigInt(bytes: modulus))
    }

    /// `recover` with a key built once (Active Authentication's verifier keeps it).
    static func recover(signature: [UInt8], key: RSAPublicKey, modulus n: BigInt) throws(ChipAuthenticationError)
        -> Representative
    {
        guard BigInt(bytes: signature) < n else {
            throw ChipAuthenticationError(.verificationFailed, "the signature is not below the RSA modulus")
        }
        let opened: [UInt8]
        do {
            opened = try key.rawPublicOperation(signature)
        } catch {
            throw ChipAuthenticationError(.verificationFailed, "the signature does not open: \(error)")
        }
        var candidate = BigInt(bytes: opened)
        if opened.last.map({ $0 & 0x0F }) != 0x0C { candidate = n - candidate }
        guard let f = try? candidate.bytes(length: opened.count) else {
            throw ChipAuthenticationError(.verificationFailed, "the signature opens to no message representative")
        }
        return try parse(Array(f.drop { $0 == 0 }))
    }

    /// Parses a message representative F.
    public static func parse(_ f: [UInt8]) throws(ChipAuthenticationError) -> Representative {
        func fail(_ reason: String) -> ChipAuthenticationError {
            ChipAuthenticationError(.verificationFailed, "the signature's message representative \(reason)")
        }
        guard f.count >= 4 else { throw fail("is too short") }
        let isPartial: Bool
        switch f[0] >> 4 {
        case 0x6: isPartial = true
        case 0x4: isPartial = false
        default: throw fail("does not begin with the header nibble 6 or 4")
        }
        // The padding B…B A read a byte at a time (a nibble array of F cost an array per byte): the A
        // must be a byte's low nibble, so every byte before it after the header's is BB.
        let noPadding = fail("has no padding ending in A on a byte boundary")
        var padEnd = 0
        while f[padEnd] & 0x0F == 0xB {
            padEnd += 1
            guard padEnd < f.count, f[padEnd] >> 4 == 0xB else { throw noPadding }
        }
        guard f[padEnd] & 0x0F == 0xA else { throw noPadding }
        let start = padEnd + 1
        let hashIdentifier: UInt8?
        let trailerLength: Int
        switch f[f.count - 1] {
        case 0xBC: (hashIdentifier, trailerLength) = (nil, 1)
        case 0xCC: (hashIdentifier, trailerLength) = (f[f.count - 2], 2)
        default: throw fail("ends in neither trailer BC nor XX CC")
        }
        guard let digestLength = hashIdentifier.map({ digestLengths[$0] }) ?? 20 else {
            throw fail(
                "names hash ID \(String(hashIdentifier ?? 0, radix: 16, uppercase: true)), which this reader does not know"
            )
        }
        let digestEnd = f.count - trailerLength
        guard digestEnd - digestLength >= start else { throw fail("is too short for its hash") }
        return Representative(
            isPartialRecovery: isPartial, recoveredMessage: Array(f[start..<(digestEnd - digestLength)]),
            digest: Array(f[(digestEnd - digestLength)..<digestEnd]), hashIdentifier: hashIdentifier, bytes: f)
    }
}
