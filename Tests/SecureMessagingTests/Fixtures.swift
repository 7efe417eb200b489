import CryptoPrimitives
import TestSupport
import Transport

@testable import SecureMessaging

/// ICAO 9303-11 App. D.3/D.4: the session keys and SSC after the BAC example.
func icaoSession() throws -> SecureMessagingSession {
    try SecureMessagingSession(
        encryptionKey: SymmetricKey(.tripleDES, bytes: hex("979EC13B1CBFE9DCD01AB0FED307EAE5")),
        macKey: SymmetricKey(.tripleDES, bytes: hex("F1CB1F1FB5ADF208806B89DC579DC1F8")),
        sendSequenceCounter: hex("887022120C06C226")
    )
}

/// BSI "Worked Example for EAC" v1.01 (ECDH): the PACE session keys, SSC zero.
func bsiSession() throws -> SecureMessagingSession {
    try SecureMessagingSession(
        encryptionKey: SymmetricKey(.aes128, bytes: hex("68406B4162100563D9C901A6154D2901")),
        macKey: SymmetricKey(.aes128, bytes: hex("73FF268784F72AF833FDC9464049AFC9"))
    )
}

func command(_ text: String) throws -> CommandAPDU { try CommandAPDU(encoded: hex(text)) }
func response(_ text: String) throws -> ResponseAPDU { try ResponseAPDU(encoded: hex(text)) }

/// A reader session and a chip session with the same keys, to exercise
/// exchanges that have no published transcript.
struct SessionPair {
    var reader: SecureMessagingSession
    var chip: SecureMessagingSession

    init(_ make: () throws -> SecureMessagingSession) rethrows {
        reader = try make()
        chip = try make()
    }

    /// Reader wraps, chip unwraps and answers `answer`, reader unwraps.
    mutating func exchange(
        _ plain: CommandAPDU,
        answer: ResponseAPDU,
        includeProcessingStatus: Bool = true
    ) throws -> (received: CommandAPDU, response: ResponseAPDU) {
        let received = try chip.unwrapCommand(try reader.wrap(plain))
        let protected = try chip.wrapResponse(answer, to: received, includeProcessingStatus: includeProcessingStatus)
        return (received, try reader.unwrap(protected))
    }
}
