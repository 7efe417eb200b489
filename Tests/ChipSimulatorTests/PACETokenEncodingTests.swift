import ASN1
import CryptoPrimitives
import ICAO
import TestSupport
import Testing

@testable import ChipSimulator

/// The chip's authentication tokens are over the DH value as an unsigned integer in its fewest
/// octets (TR-03110-3 D.2.1.1), as OpenPACE's terminals compute them; a point keeps its length.
@Suite struct PACETokenEncodingTests {
    static let oid: ASN1ObjectIdentifier = "0.4.0.127.0.7.2.2.4.1.2"

    @Test func aDHValueWithLeadingZerosGivesTheTokenOfItsShortestForm() throws {
        let mac = try SymmetricKey(.aes128, bytes: hex("F5F0E35C0D7161EE6724EE513A0D9A7F"))
        let padded = try PACEHandler.token(mac: mac, protocol: Self.oid, keyTag: 0x84, publicKey: hex("0000 A1B2C3"))
        let minimal = try PACEHandler.token(mac: mac, protocol: Self.oid, keyTag: 0x84, publicKey: hex("A1B2C3"))
        #expect(padded == minimal)
        // The MAC over 7F49 { 06 OID, 84 A1B2C3 }, written out here.
        let object = hex("7F49 11 060A 04007F00070202040102 8403 A1B2C3")
        #expect(minimal == (try mac.cmac(object, truncatedTo: 8)))
        // A point is never shortened.
        let point = try PACEHandler.token(mac: mac, protocol: Self.oid, keyTag: 0x86, publicKey: hex("04 00 11 00 22"))
        #expect(point == (try mac.cmac(hex("7F49 13 060A 04007F00070202040102 8605 0400110022"), truncatedTo: 8)))
    }
}
