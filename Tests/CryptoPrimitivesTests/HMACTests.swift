import Secrets
import TestSupport
import Testing

@testable import CryptoPrimitives

/// HMAC against RFC 4231's test cases (HMAC-SHA-224/256/384/512), written here so the test needs
/// no file.
struct HMACTests {
    static let longKey = [UInt8](repeating: 0xAA, count: 131)
    static let cases: [Int: (key: [UInt8], data: [UInt8])] = [
        1: ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8)),
        2: (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)),
        3: ([UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50)),
        4: (Array(1...25), [UInt8](repeating: 0xCD, count: 50)),
        6: (longKey, Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
        7: (
            longKey,
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                    + "to be hashed before being used by the HMAC algorithm.").utf8)
        ),
    ]

    /// RFC 4231 §4.2–4.8 (test case 5, a truncated output, is not an HMAC property).
    @Test(arguments: [
        (1, HashAlgorithm.sha224, "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22"),
        (1, .sha256, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (
            1, .sha384,
            "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"
        ),
        (
            1, .sha512,
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
        (2, .sha256, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (3, .sha256, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (4, .sha256, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (6, .sha256, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (7, .sha256, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        (
            7, .sha512,
            "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
        ),
    ])
    func rfc4231(testCase: Int, algorithm: HashAlgorithm, expected: String) throws {
        let vector = try #require(Self.cases[testCase])
        let mac = try HMAC(algorithm, key: SecretBytes(vector.key))
        #expect(try mac.authenticate(vector.data) == hex(expected))
        // The same key object again: no state carried between messages.
        #expect(try mac.authenticate(vector.data) == hex(expected))
    }

    @Test func emptyKeyIsRefused() {
        #expect(throws: CryptoError.self) { try HMAC(.sha256, key: SecretBytes([])) }
    }
}
