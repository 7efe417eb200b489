/// A way the chip's side of PACE misbehaves on demand (`ChipFault.pace`), for tests of the
/// reader's checks: each is something a broken or hostile chip could send.
public enum PACEFault: Sendable, Hashable {
    /// The chip's authentication token T_IC has one bit flipped.
    case wrongToken
    /// The chip answers the key agreement (step 3) with the terminal's own ephemeral key.
    case reflectedKey
    /// The chip's ephemeral key is not on the curve (ECDH: y + 1) or not below p (DH: p itself).
    case offCurveKey
    /// The chip's ephemeral key has small order: ECDH the point at infinity (`00`), DH p − 1
    /// (order 2).
    case smallSubgroupKey
    /// The encrypted nonce z is one byte short of whole cipher blocks.
    case unalignedNonce
    /// DH public keys (mapping and ephemeral) leave the chip without their leading zero bytes, as
    /// some chips send them (the tokens are over the fewest-octet encoding either way).
    case strippedLeadingZeros
    /// The chip derives its session keys from the DH shared secret without its leading zero bytes
    /// only, as chips built on OpenSSL's `DH_compute_key` (OpenPACE) do, about one DH session in
    /// 256; 9303-11 has K as an octet string as long as p.
    case strippedSharedSecret
    /// The chip loses its PACE run at this GENERAL AUTHENTICATE step (1–4): it answers 6985 and
    /// the terminal must start again with MSE:Set AT.
    case runDropped(step: Int)
    /// CAM's chip authentication data does not bind the static key to the mapping key:
    /// CA_IC + 1 mod n is sent (well encrypted and padded), as a chip without the private key
    /// of EF.CardSecurity's public key would fail to compute it.
    case wrongChipAuthenticationData
    /// MSE:Set AT without DO'84' (the parameter ID) is refused with 6A87, whatever the offers, as
    /// older Ukrainian passports answer.
    case requiresParameterID
}
