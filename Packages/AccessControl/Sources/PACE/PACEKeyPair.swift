import Arithmetic

/// An ephemeral key pair of the terminal (mapping or key agreement). The private key is a
/// `BigInt`, whose storage wipes its limbs when released.
struct PACEKeyPair: Sendable {
    let privateKey: BigInt
    let publicKey: PACEPublicKey
}
