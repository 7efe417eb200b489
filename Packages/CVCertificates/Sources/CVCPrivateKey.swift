import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets

/// A CV certificate holder's private key: it signs the certificates below it (a CVCA's or a DV's)
/// or, an inspection system's, Terminal Authentication's challenge. ECDSA scalars are GMP integers
/// wiped when released, RSA keys libcrypto's; neither is ever printed.
public struct CVCPrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    public enum Key: Sendable {
        case ecdsa(scalar: BigInt, curve: EllipticCurve)
        case rsa(RSAPrivateKey)
    }

    public let key: Key

    public init(_ key: Key) { self.key = key }

    /// A fresh ECDSA key on `curve`.
    public static func generateECDSA(on curve: EllipticCurve, random: RandomSource = .system) throws(CVCError)
        -> CVCPrivateKey
    {
        do {
            var scalar = BigInt(0)
            while scalar.isZero { scalar = try BigInt.random(below: curve.order, using: random) }
            return CVCPrivateKey(.ecdsa(scalar: scalar, curve: curve))
        } catch {
            throw CVCError(.unusableKey, "generating an ECDSA key: \(error)")
        }
    }

    /// A fresh RSA key of `bits` bits.
    public static func generateRSA(bits: Int) throws(CVCError) -> CVCPrivateKey {
        do { return CVCPrivateKey(.rsa(try RSAPrivateKey.generate(bits: bits))) } catch {
            throw CVCError(.unusableKey, "generating an RSA key: \(error)")
        }
    }

    /// A key from PKCS#8 PrivateKeyInfo DER (as OpenSSL writes it) or a bare RFC 5915 ECPrivateKey
    /// (as OpenPACE's `cvc-create` does): an EC key on a named or explicit prime curve, or an RSA key.
    public init(pkcs8 der: SecretBytes) throws(CVCError) {
        guard der.count <= 16384 else { throw CVCError(.malformed, "a private key of \(der.count) bytes") }
        var copy = der.withUnsafeBytes { Array($0) }
        // Parsed in a function of its own: its nodes, which share the copy's storage, are gone
        // when the copy is wiped, so the wipe reaches the bytes themselves.
        defer { copy.wipe() }
        self.init(try Self.key(from: copy))
    }

    private static func key(from copy: [UInt8]) throws(CVCError) -> Key {
        let info: ASN1Node
        do { info = try ASN1Node.parse(copy, rules: .der, maxDepth: 8) } catch {
            throw CVCError(.malformed, "the private key is not DER: \(error)")
        }
        // cvc-create writes a bare ECPrivateKey (RFC 5915) with its curve in [0].
        if info.tag == .sequence, info.children.count >= 3, info.children[0].tag == .integer,
            info.children[0].content.elementsEqual([1]), info.children[1].tag == .octetString,
            let parameters = info.children[2].children.first,
            info.children[2].tag == .contextSpecific(0, constructed: true)
        {
            return try ecdsa(scalar: info.children[1].content, curve: try curve(parameters))
        }
        guard info.tag == .sequence, info.children.count >= 3, info.children[1].tag == .sequence,
            let algorithmNode = info.children[1].children.first, algorithmNode.tag == .objectIdentifier,
            info.children[2].tag == .octetString
        else { throw CVCError(.malformed, "the private key is not a PKCS#8 PrivateKeyInfo") }
        let algorithm = try? ASN1ObjectIdentifier(content: algorithmNode.content)
        if algorithm == .rsaEncryption {
            do { return .rsa(try RSAPrivateKey(privateKeyDER: copy)) } catch {
                throw CVCError(.unusableKey, "the RSA private key: \(error)")
            }
        }
        guard algorithm == .ecPublicKey, info.children[1].children.count == 2 else {
            throw CVCError(.unsupported, "a private key of algorithm \(algorithm?.dotted ?? "?"), not EC or RSA")
        }
        let curve = try curve(info.children[1].children[1])
        let ecKey: ASN1Node
        do { ecKey = try ASN1Node.parse(info.children[2].content, rules: .der, maxDepth: 6) } catch {
            throw CVCError(.malformed, "the EC private key: \(error)")
        }
        guard ecKey.tag == .sequence, ecKey.children.count >= 2, ecKey.children[1].tag == .octetString else {
            throw CVCError(.malformed, "the EC private key is not an ECPrivateKey")
        }
        return try ecdsa(scalar: ecKey.children[1].content, curve: curve)
    }

    private static func ecdsa(scalar bytes: ArraySlice<UInt8>, curve: EllipticCurve) throws(CVCError) -> Key {
        let scalar = BigInt(bytes: bytes)
        guard !scalar.isZero, scalar < curve.order else {
            throw CVCError(.unusableKey, "the EC private key is not in [1, n)")
        }
        return .ecdsa(scalar: scalar, curve: curve)
    }

    private static func curve(_ parameters: ASN1Node) throws(CVCError) -> EllipticCurve {
        let parsed: (PublicKeyInfo.ParameterEncoding, String?, Int?, Int?, PublicKeyInfo.ECDomainParameters?)
        do { parsed = try PublicKeyInfo.ecParameters(parameters) } catch {
            throw CVCError(.malformed, "the EC key's parameters: \(error)")
        }
        if let explicit = parsed.4 {
            return try CVCPublicKey.CurveParameters(
                prime: explicit.prime, a: explicit.a, b: explicit.b, generator: explicit.generator,
                order: explicit.order,
                cofactor: explicit.cofactor ?? [1]
            ).curve()
        }
        if parameters.tag == .objectIdentifier, let oid = try? ASN1ObjectIdentifier(content: parameters.content),
            let curve = StandardizedDomainParameters(curveIdentifier: oid)?.curve
        {
            return curve
        }
        throw CVCError(.unsupported, "the EC key's curve \(parsed.1 ?? "?") is not a standardized one")
    }

    /// The key as PKCS#8 DER (EC keys: the curve named when standardized, else explicit), wiped
    /// when released.
    public func pkcs8() throws(CVCError) -> SecretBytes {
        switch key {
        case .rsa(let rsa):
            do { return try rsa.pkcs8DER() } catch { throw CVCError(.unusableKey, "encoding the RSA key: \(error)") }
        case .ecdsa(let scalar, let curve):
            do {
                var scalarBytes = try scalar.bytes(length: curve.orderLength)
                defer { scalarBytes.wipe() }
                let parameters: [UInt8]
                if let oid = curve.standardParameterID.flatMap(StandardizedDomainParameters.init(id:))?.curveIdentifier
                {
                    parameters = DER.objectIdentifier(oid)
                } else {
                    let c = try CVCPublicKey.CurveParameters(curve)
                    parameters = DER.sequence([
                        DER.integer(1),
                        DER.sequence([DER.objectIdentifier(.primeField), DER.unsignedInteger(c.prime)]),
                        DER.sequence([DER.octetString(c.a), DER.octetString(c.b)]),
                        DER.octetString(c.generator), DER.unsignedInteger(c.order), DER.unsignedInteger(c.cofactor),
                    ])
                }
                var inner = DER.sequence([DER.integer(1), DER.octetString(scalarBytes)])
                defer { inner.wipe() }
                var outer = DER.sequence([
                    DER.integer(0), DER.sequence([DER.objectIdentifier(.ecPublicKey), parameters]),
                    DER.octetString(inner),
                ])
                return SecretBytes(consuming: &outer)
            } catch let error as CVCError {
                throw error
            } catch {
                throw CVCError(.unusableKey, "encoding the EC key: \(error)")
            }
        }
    }

    /// The public half for a certificate under `algorithm`; `includingCurve` for a CVCA's.
    public func publicKey(algorithm: TerminalAuthenticationAlgorithm, includingCurve: Bool) throws(CVCError)
        -> CVCPublicKey
    {
        switch key {
        case .ecdsa(let scalar, let curve):
            guard algorithm.isECDSA else { throw CVCError(.unusableKey, "an EC key cannot sign with \(algorithm)") }
            let point: [UInt8]
            do { point = try curve.encode(curve.multiplyGenerator(by: scalar)) } catch {
                throw CVCError(.unusableKey, "the EC public point: \(error)")
            }
            return try CVCPublicKey(
                algorithm: algorithm,
                key: .ecdsa(point: point, curve: includingCurve ? try CVCPublicKey.CurveParameters(curve) : nil))
        case .rsa(let rsa):
            guard !algorithm.isECDSA else { throw CVCError(.unusableKey, "an RSA key cannot sign with \(algorithm)") }
            let numbers = rsa.publicNumbers
            return try CVCPublicKey(
                algorithm: algorithm, key: .rsa(modulus: numbers.modulus, exponent: numbers.exponent))
        }
    }

    /// The signature of `message` under `algorithm` (ECDSA plain r‖s, as TR-03110 transmits it).
    public func sign(_ message: [UInt8], algorithm: TerminalAuthenticationAlgorithm, random: RandomSource = .system)
        throws(CVCError) -> [UInt8]
    {
        switch (key, algorithm.rsaPadding) {
        case (.ecdsa(let scalar, let curve), nil):
            do {
                return try ECDSA.sign(
                    digest: algorithm.hash.hash(message), privateKey: scalar, curve: curve, random: random
                ).rawRepresentation(length: curve.orderLength)
            } catch {
                throw CVCError(.unusableKey, "ECDSA signature: \(error)")
            }
        case (.rsa(let rsa), .some(let padding)):
            do { return try rsa.sign(message, padding: padding) } catch {
                throw CVCError(.unusableKey, "RSA signature: \(error)")
            }
        default:
            throw CVCError(.unusableKey, "this key cannot sign with \(algorithm)")
        }
    }

    public var description: String {
        switch key {
        case .ecdsa(_, let curve): "CVCPrivateKey(ECDSA on \(curve.name ?? "an explicit curve"), redacted)"
        case .rsa(let rsa): "CVCPrivateKey(RSA \(rsa.modulusBits) bits, redacted)"
        }
    }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
