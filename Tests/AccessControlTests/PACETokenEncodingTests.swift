import ICAO
import TestSupport
import Testing

@testable import AccessControl

/// The reader's tokens are over the DH value in its fewest octets (TR-03110-3 D.2.1.1), as
/// OpenPACE computes them; a point keeps its fixed length.
@Suite struct PACETokenEncodingTests {
    @Test func theDHValueLosesItsLeadingZerosAndAPointKeepsThem() throws {
        let paceProtocol = try #require(PACEProtocol(mapping: .genericMapping, keyAgreement: .dh, cipher: .aes128))
        #expect(
            PACECommands.publicKeyDataObject(paceProtocol, keyTag: 0x84, key: hex("00 00 A1 B2 C3"))
                == hex("7F49 11 060A 04007F00070202040102 8403 A1B2C3"))
        let ecdh = try #require(PACEProtocol(mapping: .genericMapping, keyAgreement: .ecdh, cipher: .aes128))
        #expect(
            PACECommands.publicKeyDataObject(ecdh, keyTag: 0x86, key: hex("04 00 11 00 22"))
                == hex("7F49 13 060A 04007F00070202040202 8605 0400110022"))
    }
}
