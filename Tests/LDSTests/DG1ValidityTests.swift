import Testing

@testable import LDS

/// DG1 whose zone has a wrong check digit or an impossible date still parses (it is what the chip
/// holds), with a warning; a good one has none.
@Suite struct DG1ValidityTests {
    static func dataGroup1(_ lines: [String]) -> [UInt8] {
        let text = Array(lines.joined().utf8)
        let inner = [0x5F, 0x1F, UInt8(text.count)] + text
        return [0x61, UInt8(inner.count)] + inner
    }

    static let line1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"

    @Test func aGoodZoneHasNoWarning() throws {
        let group = try MRZDataGroup(Self.dataGroup1([Self.line1, "L898902C<3UTO6908061F9406236ZE184226B<<<<<14"]))
        #expect(group.warnings.isEmpty)
    }

    @Test func aWrongCheckDigitIsWarned() throws {
        let group = try MRZDataGroup(Self.dataGroup1([Self.line1, "L898902C<4UTO6908061F9406236ZE184226B<<<<<14"]))
        #expect(group.machineReadableZone.fields.documentNumber == "L898902C")
        #expect(
            group.warnings == [
                "the check digit of the document number does not match", "the composite check digit does not match",
            ])
        let parsed = LDSFileParser.parseLeniently(group.rawBytes, as: .dg1)
        #expect(parsed.warnings.allSatisfy { $0.hasPrefix("dg1: ") } && parsed.warnings.count == 2)
    }
}
