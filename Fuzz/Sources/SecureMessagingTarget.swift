import ASN1
import CryptoPrimitives
import SecureMessaging
import Transport

/// The response side of secure messaging under known session keys (the ICAO 9303-11 App. D
/// 3DES keys, the BSI worked example's AES keys). The first byte picks the cipher and how the
/// rest is used, so the fuzzer reaches past the MAC check:
/// - bits 0–1 = 0: the rest is a response APDU (data, SW1 SW2), unwrapped as the chip sent it;
/// - 1: the same, with DO'8E' appended carrying the right MAC, so hostile data objects,
///   cryptograms and padding reach decryption;
/// - 2 or 3: the rest is a plain answer (data, SW1 SW2) to READ BINARY (INS B0, or B1 for 3),
///   protected by a chip-side session with the same keys; unwrapping must give it back.
/// Bit 2 selects AES-128 instead of 3DES.
let secureMessagingTarget = FuzzTarget(name: "sm") { input in
    guard let mode = input.first, let response = try? ResponseAPDU(encoded: Array(input.dropFirst())),
        var reader = try? knownSession(aes: mode & 4 != 0), var chip = try? knownSession(aes: mode & 4 != 0)
    else { return }
    switch mode & 3 {
    case 0:
        _ = try? reader.unwrap(response)
    case 1:
        guard let mac = try? responseMAC(over: response.data, session: reader) else { return }
        let authenticated = response.data + [0x8E, 0x08] + mac
        _ = try? reader.unwrap(ResponseAPDU(data: authenticated, statusWord: response.statusWord))
    default:
        let readBinary = CommandAPDU(ins: mode & 3 == 3 ? 0xB1 : 0xB0, p1: 0, p2: 0, expectedLength: 256)
        guard let protected = try? chip.wrapResponse(response, to: readBinary) else { return }
        let unwrapped = try? reader.unwrap(protected)
        fuzzCheck(unwrapped == response, "\(response) protected and unwrapped gives \(String(describing: unwrapped))")
    }
}

/// A fresh session with published keys: 3DES after the 9303-11 BAC example (its SSC), or AES-128
/// after the BSI EAC worked example's PACE (SSC zero).
func knownSession(aes: Bool) throws -> SecureMessagingSession {
    if aes {
        return try SecureMessagingSession(
            encryptionKey: SymmetricKey(.aes128, bytes: Hex.decode("68406B4162100563D9C901A6154D2901") ?? []),
            macKey: SymmetricKey(.aes128, bytes: Hex.decode("73FF268784F72AF833FDC9464049AFC9") ?? []))
    }
    return try SecureMessagingSession(
        encryptionKey: SymmetricKey(.tripleDES, bytes: Hex.decode("979EC13B1CBFE9DCD01AB0FED307EAE5") ?? []),
        macKey: SymmetricKey(.tripleDES, bytes: Hex.decode("F1CB1F1FB5ADF208806B89DC579DC1F8") ?? []),
        sendSequenceCounter: Hex.decode("887022120C06C226") ?? [])
}

/// The MAC a chip puts in DO'8E' over `objects` for the session's next SSC (9303-11 §9.8.6.2):
/// the retail MAC for 3DES, AES-CMAC truncated to 8 bytes over the padded input for AES.
private func responseMAC(over objects: [UInt8], session: SecureMessagingSession) throws -> [UInt8] {
    var counter = session.sendSequenceCounter
    for index in counter.indices.reversed() {
        counter[index] &+= 1
        if counter[index] != 0 { break }
    }
    if session.cipher == .tripleDES { return try session.macKey.retailMAC(counter + objects) }
    return try session.macKey.cmac(ISO7816Padding.pad(counter + objects, blockSize: 16), truncatedTo: 8)
}
