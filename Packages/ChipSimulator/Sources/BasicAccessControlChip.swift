import CryptoPrimitives
import Secrets
import Transport

/// The chip's side of Basic Access Control (ICAO 9303-11 §4.3): GET CHALLENGE gives RND.IC,
/// EXTERNAL AUTHENTICATE checks the terminal's cryptogram and answers with the chip's half of
/// the key material, from which both sides derive the 3DES session keys.
struct BasicAccessControlChip {
    private let encryptionKey: SymmetricKey
    private let macKey: SymmetricKey

    /// K_seed = SHA-1(MRZ information)[0..<16], then K_enc and K_mac by the 9303-11 KDF.
    init(keyInput: BACKeyInput) {
        var digest = HashAlgorithm.sha1.hash(Array(keyInput.keySeedInput.utf8))
        let seed = SecretBytes(digest.prefix(16))
        for index in digest.indices { digest[index] = 0 }
        encryptionKey = ICAOKeyDerivation.deriveKey(from: seed, purpose: .encryption, cipher: .tripleDES)
        macKey = ICAOKeyDerivation.deriveKey(from: seed, purpose: .mac, cipher: .tripleDES)
    }

    /// Verifies E.IFD ‖ M.IFD against the challenge given, and on success returns the answer
    /// E.IC ‖ M.IC (carrying K.IC, `chipKeyMaterial`) and the session it opens. Nil for any
    /// mismatch (the chip answers 6300).
    func authenticate(_ data: [UInt8], challenge: [UInt8], chipKeyMaterial: [UInt8]) -> (
        answer: [UInt8], session: ChipSession
    )? {
        guard data.count == 40 else { return nil }
        let cryptogram = Array(data.prefix(32))
        let zeroIV = [UInt8](repeating: 0, count: 8)
        guard let mac = try? macKey.retailMAC(cryptogram), constantTimeEquals(mac, data.suffix(8)),
            var plain = try? encryptionKey.decryptCBC(cryptogram, iv: zeroIV)
        else { return nil }
        defer { for index in plain.indices { plain[index] = 0 } }
        let terminalNonce = Array(plain[0..<8])
        guard constantTimeEquals(plain[8..<16], challenge), chipKeyMaterial.count == 16 else { return nil }
        var answerPlain = challenge + terminalNonce + chipKeyMaterial
        defer { for index in answerPlain.indices { answerPlain[index] = 0 } }
        guard let answerCryptogram = try? encryptionKey.encryptCBC(answerPlain, iv: zeroIV),
            let answerMAC = try? macKey.retailMAC(answerCryptogram)
        else { return nil }
        var seed = zip(plain[16..<32], chipKeyMaterial).map { $0 ^ $1 }
        let sessionSeed = SecretBytes(consuming: &seed)
        let session = ChipSession(
            encryptionKey: ICAOKeyDerivation.deriveKey(from: sessionSeed, purpose: .encryption, cipher: .tripleDES),
            macKey: ICAOKeyDerivation.deriveKey(from: sessionSeed, purpose: .mac, cipher: .tripleDES),
            counter: Array(challenge.suffix(4)) + Array(terminalNonce.suffix(4)))
        return (answerCryptogram + answerMAC, session)
    }
}
