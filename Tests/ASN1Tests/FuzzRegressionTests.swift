import ASN1
import Testing

/// Inputs the `asn1` fuzz target (Tools/fuzz.sh) found, minimised, each with what it broke.
@Suite struct FuzzRegressionTests {
    /// EF.COM `60 { 5F01 "0107" … }`: the two-byte tag 5F01 (number 1, as ISO 7816-4 and
    /// ICAO write it) was taken for the one-byte tag 41, so re-encoding wrote `41` and
    /// `ASN1Tag(0x5F01) == ASN1Tag(0x41)`.
    @Test func shortTagNumberInTwoBytesKeepsItsForm() throws {
        let input: [UInt8] = [0x60, 0x07, 0x5F, 0x01, 0x04, 0x30, 0x31, 0x30, 0x37]
        let node = try ASN1Node.parse(input, rules: .der)
        let version = try node.child(at: 0, "LDS version")
        #expect(version.tag == ASN1Tag(0x5F01))
        #expect(version.tag != ASN1Tag(0x41))
        #expect(version.tag.encoded == [0x5F, 0x01])
        #expect(version.tag.description == "5F01")
        #expect(DER.constructed(node.tag, [DER.tlv(version.tag, version.content)]) == input)
        #expect(ASN1Tag(0x5F0E).with(constructed: true) == ASN1Tag(0x7F0E))
        #expect(ASN1Tag.application(1, constructed: false) == ASN1Tag(0x41))
    }
}
