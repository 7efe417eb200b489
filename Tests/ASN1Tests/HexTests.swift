import ASN1
import Testing

@Suite struct HexTests {
    @Test func encodesInEitherCaseWithAnySeparator() {
        #expect(Hex.encode([0x00, 0xA4, 0x02, 0x0C]) == "00A4020C")
        #expect(Hex.encode([0x00, 0xA4, 0x02, 0x0C], separator: " ") == "00 A4 02 0C")
        #expect(Hex.encode([0xDE, 0xAD], uppercase: false) == "dead")
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x7F], separator: ":") == "7F")
    }

    @Test func decodesWhatItEncodesForEveryByte() {
        let all = (0...255).map(UInt8.init)
        #expect(Hex.decode(Hex.encode(all)) == all)
        #expect(Hex.decode(Hex.encode(all, uppercase: false, separator: " ")) == all)
        #expect(Hex.decode("0a 0B\n0c\t0D") == [0x0A, 0x0B, 0x0C, 0x0D])
        #expect(Hex.decode("") == [])
    }

    @Test func refusesOddCountsAndOtherCharacters() {
        for bad in ["0", "ABC", "0G", "0x00", "00-01", "é0"] { #expect(Hex.decode(bad) == nil, "\(bad)") }
    }
}
