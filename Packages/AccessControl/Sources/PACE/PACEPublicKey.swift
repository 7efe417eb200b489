import Arithmetic

/// An ephemeral public key of PACE as sent on the link (an uncompressed point, or a DH value as an
/// unsigned integer of the modulus' length) with the value it encodes, so that keys are compared
/// by value (the reflection check) and MAC'ed as exchanged (the authentication tokens).
struct PACEPublicKey: Sendable, Equatable {
    enum Value: Sendable, Equatable {
        case point(ECPoint)
        case groupElement(BigInt)
    }

    let value: Value
    let encoded: [UInt8]

    static func == (lhs: PACEPublicKey, rhs: PACEPublicKey) -> Bool { lhs.value == rhs.value }
}
