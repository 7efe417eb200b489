import ASN1
import Foundation
import Testing

@Suite struct ValueTests {
    @Test(arguments: [0, 1, 127, 128, 255, 256, -1, -128, -129, 65_535, Int.max, Int.min])
    func integerRoundTrip(value: Int) throws {
        #expect(try ASN1Node.parse(DER.integer(value), rules: .der).intValue() == value)
    }

    @Test func integerViews() throws {
        let negative = try ASN1Node.parse([0x02, 0x02, 0xFF, 0x7F])
        #expect(try negative.intValue() == -129)
        #expect(Array(try negative.integerBytes()) == [0xFF, 0x7F])
        #expect(throws: ASN1Error.self) { try negative.unsignedIntegerBytes() }
        // Non-minimal positive INTEGER, as some chips write key IDs: tolerated in BER.
        let padded = try ASN1Node.parse([0x02, 0x03, 0x00, 0x00, 0x81])
        #expect(try padded.intValue() == 129)
        #expect(Array(try padded.unsignedIntegerBytes()) == [0x81])
        #expect(try ASN1Node.parse(DER.unsignedInteger([0x00, 0x80, 0x01])).unsignedIntegerBytes() == [0x80, 0x01])
        #expect(throws: ASN1Error.self) { try ASN1Node.parse([0x02, 0x09, 1, 0, 0, 0, 0, 0, 0, 0, 0]).intValue() }
    }

    @Test(arguments: [
        "0.4.0.127.0.7.2.2.4.2.4", "2.23.136.1.1.1", "1.2.840.113549.1.1.10", "2.999.1", "1.3.36.3.3.2.8.1.1.7",
    ])
    func objectIdentifierRoundTrip(dotted: String) throws {
        let oid = try #require(ASN1ObjectIdentifier(dotted: dotted))
        #expect(try ASN1Node.parse(DER.objectIdentifier(oid)).objectIdentifier().dotted == dotted)
    }

    @Test func objectIdentifierNames() throws {
        #expect(ASN1ObjectIdentifier("0.4.0.127.0.7.2.2.4.2.4").name == "id-PACE-ECDH-GM-AES-CBC-CMAC-256")
        #expect(ASN1ObjectIdentifier("0.4.0.127.0.7.2.2.3.2.2").name == "id-CA-ECDH-AES-CBC-CMAC-128")
        #expect(ASN1ObjectIdentifier("0.4.0.127.0.7.2.2.4.6.2").name == "id-PACE-ECDH-CAM-AES-CBC-CMAC-128")
        #expect(ASN1ObjectIdentifier("2.23.136.1.1.1").name == "ldsSecurityObject")
        #expect(ASN1ObjectIdentifier("1.2.840.113549.1.1.10").name == "id-RSASSA-PSS")
        #expect(KnownObjectIdentifiers.oid(named: "brainpoolP256r1")?.dotted == "1.3.36.3.3.2.8.1.1.7")
        #expect(ASN1ObjectIdentifier(dotted: "1.2.") == nil && ASN1ObjectIdentifier(dotted: "3.1") == nil)
        // 40·2 + y must fit the first encoded arc (found by the fuzzing helper).
        #expect(ASN1ObjectIdentifier(dotted: "2.18446744073709551615") == nil)
        #expect(ASN1ObjectIdentifier(dotted: "2.18446744073709551535")?.content.count == 10)
        #expect(throws: ASN1Error.self) { try ASN1ObjectIdentifier(content: [0x2A, 0x86]) }
        #expect(throws: ASN1Error.self) { try ASN1ObjectIdentifier(content: [0x2A, 0x80, 0x01]) }
    }

    @Test func booleanNullBitString() throws {
        #expect(try ASN1Node.parse(DER.boolean(true)).booleanValue())
        #expect(try !ASN1Node.parse(DER.boolean(false)).booleanValue())
        try ASN1Node.parse(DER.null()).nullValue()
        let bits = try ASN1Node.parse(DER.bitString([0x05, 0xA0], unusedBits: 5)).bitString()
        #expect(Array(bits.bytes) == [0x05, 0xA0] && bits.unusedBits == 5)
        #expect(throws: ASN1Error.self) { try ASN1Node.parse([0x03, 0x01, 0x03]).bitString() }
        #expect(throws: ASN1Error.self) { try ASN1Node.parse(DER.integer(1)).octetString() }
    }

    @Test func stringTypes() throws {
        #expect(try ASN1Node.parse(DER.utf8String("Zoë Ærøskøbing")).string() == "Zoë Ærøskøbing")
        #expect(try ASN1Node.parse(DER.printableString("CSCA-FRANCE")).string() == "CSCA-FRANCE")
        #expect(try ASN1Node.parse(DER.tlv(.bmpString, [0x00, 0x44, 0x00, 0xE9])).string() == "Dé")
        #expect(try ASN1Node.parse(DER.tlv(.teletexString, [0x4D, 0xFC])).string() == "Mü")
        #expect(throws: ASN1Error.self) { try ASN1Node.parse(DER.tlv(.utf8String, [0xC3])).string() }
    }

    @Test func times() throws {
        let date = try #require(ISO8601DateFormatter().date(from: "2026-05-28T06:28:45Z"))
        #expect(try ASN1Node.parse(DER.time(date)).time() == date)
        #expect(try ASN1Node.parse(DER.generalizedTime(date)).time() == date)
        let old = try #require(ISO8601DateFormatter().date(from: "1999-12-31T23:59:59Z"))
        #expect(try ASN1Node.parse(DER.tlv(.utcTime, Array("991231235959Z".utf8))).time() == old)
        let far = try #require(ISO8601DateFormatter().date(from: "2051-01-01T00:00:00Z"))
        #expect(DER.time(far).first == ASN1Tag.generalizedTime.encoded.first)
        let offset = try ASN1Node.parse(DER.tlv(.utcTime, Array("9912312359+0100".utf8))).time()
        #expect(offset == old.addingTimeInterval(-3600 - 59))
        for bad in ["", "9913312359Z", "99123123Z", "991231235959", "20261301000000Z"] {
            #expect(throws: ASN1Error.self) { try ASN1Node.parse(DER.tlv(.utcTime, Array(bad.utf8))).time() }
        }
    }

    /// `UTCDateTime` against Foundation's Gregorian calendar in UTC (which the product avoids
    /// because it loads ICU): random moments from 1583 to 9999 (before October 1582 Foundation's
    /// calendar is Julian, `UTCDateTime` proleptic Gregorian as X.680 times are), the ends of
    /// months and leap days, and impossible fields refused.
    @Test func utcDateTimeAgreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SystemRandomNumberGenerator()
        let edges: [TimeInterval] = [
            0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, 1_780_272_000,
        ]
        let random = (0..<2000).map { _ in
            TimeInterval(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator))
        }
        for seconds in edges + random {
            let date = Date(timeIntervalSince1970: seconds)
            let ours = UTCDateTime(date)
            let theirs = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            #expect(
                [ours.year, ours.month, ours.day, ours.hour, ours.minute, ours.second]
                    == [theirs.year, theirs.month, theirs.day, theirs.hour, theirs.minute, theirs.second],
                "\(seconds)")
            #expect(ours.date == date, "\(seconds)")
        }
        #expect(UTCDateTime(Date(timeIntervalSince1970: 951_782_400)).iso8601 == "2000-02-29T00:00:00Z")
        #expect(UTCDateTime(Date(timeIntervalSince1970: -0.5)).iso8601 == "1969-12-31T23:59:59Z")
        #expect(UTCDateTime(year: 2100, month: 2, day: 29) == nil && UTCDateTime(year: 2000, month: 2, day: 29) != nil)
        #expect(UTCDateTime(year: 2026, month: 4, day: 31) == nil && UTCDateTime(year: 2026, month: 13, day: 1) == nil)
        #expect(UTCDateTime(year: 2026, month: 1, day: 1, hour: 24) == nil)
    }

    @Test func setOfIsSortedInDER() throws {
        let set = DER.set([DER.integer(300), DER.integer(2), DER.octetString([1])])
        let node = try ASN1Node.parse(set, rules: .der)
        #expect(node.children.map(\.tag) == [.integer, .integer, .octetString])
        #expect(try node.children[0].intValue() == 2)
    }

    /// DO'84' contents: the fewest bytes of a key ID or parameter ID; a negative key ID (a DG14
    /// INTEGER such as `02 01 81`) gives the INTEGER's own content rather than never ending.
    @Test func minimalUnsignedBytes() throws {
        let cases: [(Int, [UInt8])] = [
            (0, [0x00]), (13, [0x0D]), (200, [0xC8]), (256, [0x01, 0x00]), (-1, [0xFF]), (-127, [0x81]),
            (-128, [0x80]), (-129, [0xFF, 0x7F]), (Int.min, [0x80, 0, 0, 0, 0, 0, 0, 0]),
        ]
        for (value, bytes) in cases {
            #expect(DER.minimalUnsignedBytes(value) == bytes, "\(value)")
        }
        for value in [-1, -127, -128, -129, -40_000] {
            let integer = try ASN1Node.parse(DER.tlv(.integer, DER.minimalUnsignedBytes(value)))
            #expect(try integer.intValue() == value)
        }
    }
}
