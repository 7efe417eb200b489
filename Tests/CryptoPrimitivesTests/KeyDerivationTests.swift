import ICAO
import Secrets
import TestSupport
import Testing

@testable import CryptoPrimitives

struct KeyDerivationTests {
    private func derivedBytes(
        _ secret: [UInt8],
        nonce: [UInt8] = [],
        _ purpose: ICAOKeyDerivation.Purpose,
        _ cipher: BlockCipher
    ) -> [UInt8] {
        let key = ICAOKeyDerivation.deriveKey(from: SecretBytes(secret), nonce: nonce, purpose: purpose, cipher: cipher)
        #expect(key.cipher == cipher)
        return key.secret.withUnsafeBytes { Array($0) }
    }

    /// ICAO 9303-11 App. D.1 (document basic access keys, with DES parity) and D.3 (session keys).
    @Test func bacKeysWithParity() {
        let mrzInformation = Array("L898902C<369080619406236".utf8)
        let keySeed = Array(HashAlgorithm.sha1.hash(mrzInformation).prefix(16))
        #expect(keySeed == hex("239AB9CB282DAF66231DC5A4DF6BFBAE"))
        #expect(derivedBytes(keySeed, .encryption, .tripleDES) == hex("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(derivedBytes(keySeed, .mac, .tripleDES) == hex("7962D9ECE03D1ACD4C76089DCE131543"))
        let sessionSeed = hex("0036D272F5C350ACAC50C3F572D23600")
        #expect(derivedBytes(sessionSeed, .encryption, .tripleDES) == hex("979EC13B1CBFE9DCD01AB0FED307EAE5"))
        #expect(derivedBytes(sessionSeed, .mac, .tripleDES) == hex("F1CB1F1FB5ADF208806B89DC579DC1F8"))
    }

    /// ICAO 9303-11 App. G.1: K_π from the MRZ (counter 3), and the BSI EAC worked
    /// example / App. H.1: K_π from PIN "123456" used as is.
    @Test func pacePasswordKeys() {
        let mrzSeed = HashAlgorithm.sha1.hash(Array("T22000129364081251010318".utf8))
        #expect(mrzSeed == hex("7E2D2A41C74EA0B38CD36F863939BFA8E9032AAD"))
        #expect(derivedBytes(mrzSeed, .password, .aes128) == hex("89DED1B26624EC1E634C1989302849DD"))
        #expect(derivedBytes(Array("123456".utf8), .password, .aes128) == hex("591468CDA83D65219CCCB8560233600F"))
    }

    /// BSI EAC worked example (ECDH): PACE session keys; CA v2 session keys with nonce r.
    @Test func aes128SessionKeysWithAndWithoutNonce() {
        let paceSecret = hex("6E7D077CCD367C2EAA683F1E8EC534302E2D00B6ADAF8A87A6EDA78740F17606")
        #expect(derivedBytes(paceSecret, .encryption, .aes128) == hex("68406B4162100563D9C901A6154D2901"))
        #expect(derivedBytes(paceSecret, .mac, .aes128) == hex("73FF268784F72AF833FDC9464049AFC9"))
        let caSecret = hex("791DA04273CCFE862E52DF60347E2557192E1F8D7517822CE3D306056C1CDEB4")
        let r = hex("4287B3072A3EDC60")
        #expect(derivedBytes(caSecret, nonce: r, .encryption, .aes128) == hex("94ABCD271AB7D9A5590BA52CB518B831"))
        #expect(derivedBytes(caSecret, nonce: r, .mac, .aes128) == hex("78B5709E7ABEDB185B424D0EE3A82499"))
    }

    /// AES-192/256 take SHA-256 (no published example; expected values computed
    /// independently with Python's hashlib: SHA-256(K || 00000001), SHA-256(K || 00000002)).
    @Test func aes192And256UseSHA256() {
        let secret = hex("6E7D077CCD367C2EAA683F1E8EC534302E2D00B6ADAF8A87A6EDA78740F17606")
        #expect(
            derivedBytes(secret, .encryption, .aes256)
                == hex("93AC36A08C11182B1B55A51C9AFAFD0509062BED549CC5EB663759121192F5D4")
        )
        #expect(derivedBytes(secret, .mac, .aes192) == hex("290345C4D27BF6039AA3DCA049DD29682B762288F07C9C37"))
    }

    @Test func desParityMakesEveryByteOdd() {
        for byte in UInt8.min...UInt8.max {
            let adjusted = withDESParity(byte)
            #expect(adjusted.nonzeroBitCount % 2 == 1)
            #expect(adjusted & 0xFE == byte & 0xFE)
        }
    }
}
