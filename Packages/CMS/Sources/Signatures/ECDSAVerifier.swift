import ASN1
import Arithmetic
import ICAO

/// ECDSA through `Arithmetic`, on named curves and on explicit domain parameters alike.
enum ECDSAVerifier {
    static func verify(digest: [UInt8], signature: [UInt8], key: PublicKeyInfo) throws(CMSError) -> Bool {
        let curve = try curve(for: key)
        let point = key.publicKey
        let isDER = (try? ASN1Node.parse(signature, rules: .ber))?.tag == .sequence
        do {
            return try ECDSA.verify(
                publicKey: point, digest: digest, signature: signature, format: isDER ? .der : .plain, curve: curve)
        } catch {
            throw CMSError(.invalidKey, "EC public key: \(error)")
        }
    }

    /// The key's curve: explicit parameters are built (capped by Arithmetic before anything costly),
    /// named and standardized ones are ICAO's table.
    private static func curve(for key: PublicKeyInfo) throws(CMSError) -> EllipticCurve {
        switch key.parameterEncoding {
        case .explicit:
            guard let parameters = key.ecParameters else {
                throw CMSError(.invalidKey, "explicit EC parameters missing")
            }
            do {
                return try EllipticCurve(
                    p: parameters.prime, a: parameters.a, b: parameters.b, generator: parameters.generator,
                    order: parameters.order, cofactor: parameters.cofactor ?? [])
            } catch {
                throw CMSError(.invalidKey, "explicit EC domain parameters: \(error)")
            }
        case .named:
            guard let oid = key.namedCurve, let curve = StandardizedDomainParameters(curveIdentifier: oid)?.curve else {
                throw CMSError(.unsupported, "named curve \(key.namedCurve?.dotted ?? "?")")
            }
            return curve
        case .standardized:
            guard let id = key.standardizedDomainParameterId, let curve = StandardizedDomainParameters(id: id)?.curve
            else {
                throw CMSError(
                    .unsupported, "standardized domain parameters \(key.standardizedDomainParameterId ?? -1)")
            }
            return curve
        case .none:
            throw CMSError(.unsupported, "EC key with implicitlyCA parameters")
        }
    }
}
