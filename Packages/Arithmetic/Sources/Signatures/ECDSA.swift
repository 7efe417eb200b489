import ASN1
import Secrets

/// An ECDSA signature (r, s).
public struct ECDSASignature: Sendable, Hashable {
    public let r: BigInt
    public let s: BigInt

    public init(r: BigInt, s: BigInt) {
        self.r = r
        self.s = s
    }

    /// The plain format of TR-03111 (and ICAO chip signatures): r‖s, two halves of equal length.
    public init(rawRepresentation bytes: [UInt8]) throws {
        guard !bytes.isEmpty, bytes.count % 2 == 0 else {
            throw ArithmeticError(.malformedSignature, "a plain signature of odd length \(bytes.count)")
        }
        let half = bytes.count / 2
        r = BigInt(bytes: bytes[..<half])
        s = BigInt(bytes: bytes[half...])
    }

    /// The X9.62 DER format: SEQUENCE { r INTEGER, s INTEGER }, strictly DER (minimal lengths and
    /// integers, no trailing bytes).
    public init(derRepresentation bytes: [UInt8]) throws {
        var reader = MinimalDERReader(bytes: bytes)
        let sequence = try reader.read(tag: 0x30)
        guard reader.isAtEnd else { throw ArithmeticError(.malformedSignature, "bytes after the signature") }
        var inner = MinimalDERReader(bytes: sequence)
        r = try inner.readPositiveInteger()
        s = try inner.readPositiveInteger()
        guard inner.isAtEnd else { throw ArithmeticError(.malformedSignature, "extra fields in the signature") }
    }

    /// r‖s, each half `length` bytes (the order's length).
    public func rawRepresentation(length: Int) throws -> [UInt8] {
        try r.bytes(length: length) + s.bytes(length: length)
    }

    /// SEQUENCE { r INTEGER, s INTEGER } in DER.
    public var derRepresentation: [UInt8] {
        func integer(_ value: BigInt) -> [UInt8] {
            var content = value.minimalBytes
            if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
            return [0x02] + MinimalDERReader.length(content.count) + content
        }
        let body = integer(r) + integer(s)
        return [0x30] + MinimalDERReader.length(body.count) + body
    }
}

/// ECDSA verification (X9.62 / TR-03111) on any curve, explicit parameters included.
public enum ECDSA {
    /// Verifies `signature` over a message digest with the public key `publicKey` (an encoded point).
    /// The digest is truncated to the bit length of n as X9.62 prescribes.
    /// - Returns: whether the signature is valid.
    /// - Throws: `invalidPoint` / `malformedEncoding` when the public key is not a valid point.
    public static func verify(
        publicKey: [UInt8], digest: [UInt8], signature: ECDSASignature, curve: EllipticCurve
    ) throws -> Bool {
        try verify(publicKey: curve.decodePoint(publicKey), digest: digest, signature: signature, curve: curve)
    }

    /// As above with a signature in DER (`SEQUENCE { r, s }`) or plain (r‖s) form, told by `format`.
    public static func verify(
        publicKey: [UInt8], digest: [UInt8], signature: [UInt8], format: ECDSASignatureFormat, curve: EllipticCurve
    ) throws -> Bool {
        let parsed: ECDSASignature
        do {
            switch format {
            case .der: parsed = try ECDSASignature(derRepresentation: signature)
            case .plain: parsed = try ECDSASignature(rawRepresentation: signature)
            }
        } catch {
            return false
        }
        return try verify(publicKey: publicKey, digest: digest, signature: parsed, curve: curve)
    }

    /// Verification with an already validated public point.
    public static func verify(
        publicKey: ECPoint, digest: [UInt8], signature: ECDSASignature, curve: EllipticCurve
    ) throws -> Bool {
        try curve.validate(publicKey)
        let n = curve.order
        let (r, s) = (signature.r, signature.s)
        guard r.signum > 0, r < n, s.signum > 0, s < n else { return false }
        let e = truncatedDigest(digest, orderBits: n.bitWidth)
        guard let w = s.inverse(modulo: n) else { return false }
        let u1 = e.multiplied(by: w, modulo: n)
        let u2 = r.multiplied(by: w, modulo: n)
        return curve.linearCombinationHasX([(u1, curve.generator), (u2, publicKey)], congruentTo: r)
    }

    /// Signs a digest (X9.62 / TR-03111): k fresh in [1, n), r = x(k·G) mod n, s = k⁻¹(e + r·d) mod n.
    /// k·G is the constant-time secret multiplication, since k reveals d.
    /// - Throws: `ArithmeticError` when the random source fails or no nonce gives a signature.
    public static func sign(
        digest: [UInt8], privateKey: BigInt, curve: EllipticCurve, random: RandomSource = .system
    ) throws -> ECDSASignature {
        let order = curve.order
        let e = truncatedDigest(digest, orderBits: order.bitWidth)
        for _ in 0..<16 {
            let nonce = try BigInt.random(below: order, using: random)
            guard !nonce.isZero, let x = try curve.multiplyGenerator(by: nonce).x,
                let inverse = nonce.inverse(modulo: order)
            else { continue }
            let r = x.modulo(order)
            let s = inverse.multiplied(by: (e + r * privateKey).modulo(order), modulo: order)
            if !r.isZero && !s.isZero { return ECDSASignature(r: r, s: s) }
        }
        throw ArithmeticError(.noResult, "no ECDSA nonce gave a signature")
    }

    /// The digest as an integer, keeping its leftmost ⌈bits of n⌉ bits.
    static func truncatedDigest(_ digest: [UInt8], orderBits: Int) -> BigInt {
        let value = BigInt(bytes: digest)
        let digestBits = digest.count * 8
        return digestBits > orderBits ? value >> (digestBits - orderBits) : value
    }
}

/// How an ECDSA signature is encoded.
public enum ECDSASignatureFormat: Sendable, Hashable {
    /// X9.62 DER: SEQUENCE { r INTEGER, s INTEGER } (certificates, CMS).
    case der
    /// TR-03111 plain: r‖s (chip signatures, Active Authentication).
    case plain
}

/// Just enough DER for an ECDSA signature: two INTEGERs in a SEQUENCE, framed by ASN1's header reader.
struct MinimalDERReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(tag: UInt8) throws -> [UInt8] {
        func fail(_ reason: String) -> ArithmeticError { ArithmeticError(.malformedSignature, reason) }
        guard offset + 2 <= bytes.count, bytes[offset] == tag else { throw fail("expected tag \(tag)") }
        var index = offset
        let header: ASN1Header
        do {
            header = try ASN1Header.read(from: bytes[...], at: &index, rules: .der)
        } catch {
            throw fail("bad DER header: \(error.reason)")
        }
        guard let length = header.length, length <= bytes.count - index else { throw fail("DER length past the end") }
        offset = index + length
        return Array(bytes[index..<offset])
    }

    mutating func readPositiveInteger() throws -> BigInt {
        let content = try read(tag: 0x02)
        guard let first = content.first else { throw ArithmeticError(.malformedSignature, "an empty INTEGER") }
        guard first & 0x80 == 0 else { throw ArithmeticError(.malformedSignature, "a negative INTEGER") }
        if content.count > 1 && first == 0 && content[1] & 0x80 == 0 {
            throw ArithmeticError(.malformedSignature, "a non-minimal INTEGER")
        }
        return BigInt(bytes: content)
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }
}
