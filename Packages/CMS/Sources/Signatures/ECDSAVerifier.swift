import ASN1
import Arithmetic
import ICAO

/// ECDSA through `Arithmetic`, on named curves and on explicit domain parameters alike.
enum ECDSAVerifier {
    static func verify(digest: [UInt8], signature: [UInt8], point: [UInt8], domain: ECDomain) throws(CMSError) -> Bool {
        let curve = try curve(for: domain)
        let isDER = (try? ASN1Node.parse(signature, rules: .ber))?.tag == .sequence
        do {
            return try ECDSA.verify(
                publicKey: point, digest: digest, signature: signature, format: isDER ? .der : .plain, curve: curve)
        } catch {
            throw CMSError(.invalidKey, "EC public key: \(error)")
        }
    }

    private static func curve(for domain: ECDomain) throws(CMSError) -> EllipticCurve {
        switch domain {
        case .explicit(let parameters):
            do {
                return try EllipticCurve(
                    p: parameters.prime, a: parameters.a, b: parameters.b, generator: parameters.generator,
                    order: parameters.order, cofactor: parameters.cofactor ?? [])
            } catch {
                throw CMSError(.invalidKey, "explicit EC domain parameters: \(error)")
            }
        case .named(let oid):
            guard let curve = StandardizedDomainParameters(curveIdentifier: oid)?.curve else {
                throw CMSError(.unsupported, "named curve \(oid)")
            }
            return curve
        case .inherited:
            throw CMSError(.unsupported, "EC key with implicitlyCA parameters")
        }
    }
}
