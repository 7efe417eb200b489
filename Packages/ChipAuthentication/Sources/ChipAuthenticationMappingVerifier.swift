import Arithmetic
import ICAO

/// PACE-CAM's proof (ICAO 9303-11 §4.4.3.5.2): the chip's authentication data CA_IC binds its
/// static key PK_IC to the mapping key it used in PACE, PK_Map,IC = CA_IC · PK_IC. Only the chip
/// that holds SK_IC can compute CA_IC = SK_Map,IC · SK_IC⁻¹ mod n. The static key must come from
/// signed data (EF.CardSecurity, or DG14 checked by Passive Authentication): the caller's job.
public enum ChipAuthenticationMappingVerifier {
    /// Checks CA_IC (decrypted by PACE) against `chipMappingPublicKey` (PK_Map,IC as exchanged in
    /// PACE's step 2) and each candidate static key (the ChipAuthenticationPublicKeyInfos on the
    /// PACE curve). Returns the key that verified.
    ///
    /// - Throws: `.verificationFailed` when no candidate key verifies; `.unusableKey` when no
    ///   candidate is an EC key on a curve this reader knows; `.protocolViolation` when CA_IC is
    ///   not a number in [1, n).
    public static func verify(
        chipAuthenticationData: [UInt8], chipMappingPublicKey: [UInt8], candidates: [PublicKeyInfo]
    ) throws(ChipAuthenticationError) -> PublicKeyInfo {
        var unusable: [String] = []
        var checked = 0
        for candidate in candidates {
            let curve: EllipticCurve
            let staticKey: ECPoint
            let mappingKey: ECPoint
            do {
                guard case .curve(let keyCurve, _) = try KeyAgreementDomain(publicKeyInfo: candidate) else {
                    unusable.append("a DH key (PACE-CAM is ECDH only)")
                    continue
                }
                curve = keyCurve
                guard
                    case .point(let point) = try KeyAgreementDomain.curve(curve, generator: curve.generator)
                        .publicKey(of: candidate).value
                else { continue }
                staticKey = point
                mappingKey = try curve.decodePoint(chipMappingPublicKey)
            } catch {
                unusable.append("\(error)")
                continue
            }
            let scalar = BigInt(bytes: chipAuthenticationData)
            guard scalar.signum > 0, scalar < curve.order else {
                throw ChipAuthenticationError(
                    .protocolViolation, "the chip authentication data is not a number in [1, n) of the PACE curve")
            }
            checked += 1
            if curve.multiply(staticKey, by: scalar) == mappingKey { return candidate }
        }
        guard checked > 0 else {
            throw ChipAuthenticationError(
                .unusableKey,
                candidates.isEmpty
                    ? "no Chip Authentication public key to check PACE-CAM against"
                    : "no usable key to check PACE-CAM against: \(unusable.joined(separator: "; "))")
        }
        throw ChipAuthenticationError(
            .verificationFailed,
            "PACE-CAM: the chip's authentication data does not bind its mapping key to "
                + (checked == 1 ? "the signed Chip Authentication key" : "any of the \(checked) signed keys"))
    }
}
