import Secrets
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// The chip replays ICAO 9303-11 Appendix D (BAC D.3 and 3DES secure messaging D.4) byte for byte
/// when its nonce and key material are those of the example. Values from
/// ../shared/vectors/icao9303-11.json (`bac`, `sm_examples`).
@Suite struct WorkedExampleTests {
    static let efCom = hex("60145F0104303130365F36063034303030305C026175")

    static func exampleChip(faults: [ChipFault] = []) -> SimulatedChip {
        var files = ChipFiles()
        files.com = efCom
        let configuration = ChipConfiguration(
            files: files,
            credentials: Credentials(
                mrz: MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")),
            faults: faults)
        // RND.IC for GET CHALLENGE, K.IC for EXTERNAL AUTHENTICATE, however often they are asked for.
        let example = RandomSource { (count) throws(SecretsError) in
            SecretBytes(count == 8 ? hex("4608F91988702212") : hex("0B4F80323EB3191CB04970CB4052790B"))
        }
        return SimulatedChip(configuration: configuration, random: example)
    }

    static func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

    static func exchange(_ chip: SimulatedChip, _ command: String) throws -> [UInt8] {
        try chip.transmit(CommandAPDU(encoded: hex(command))).encoded
    }

    static func authenticate(_ chip: SimulatedChip) throws {
        #expect(try exchange(chip, "00A4040C07A0000002471001") == hex("9000"))
        #expect(try exchange(chip, "0084000008") == hex("4608F919887022129000"))
        #expect(
            try exchange(
                chip,
                "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728")
                == hex("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F2F2D235D074D74499000"))
    }

    @Test func keySeedInputHasCheckDigits() {
        let key = MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect(key.keySeedInput == Self.secret("L898902C<369080619406236"))
    }

    @Test func keySeedInputFromMachineReadableZones() {
        let td3 =
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
            + "L898902C<3UTO6908061F9406236ZE184226B<<<<<14"
        #expect(MRZPassword(machineReadableZone: td3)?.keySeedInput == Self.secret("L898902C<369080619406236"))
        let td1 =
            "I<UTOD231458907<<<<<<<<<<<<<<<" + "7408122F1204159UTO<<<<<<<<<<<6"
            + "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"
        #expect(MRZPassword(machineReadableZone: td1)?.keySeedInput == Self.secret("D23145890774081221204159"))
        #expect(MRZPassword(machineReadableZone: "too short") == nil)
    }

    @Test func basicAccessControlAndSecureMessagingTranscript() throws {
        let chip = Self.exampleChip()
        try Self.authenticate(chip)
        #expect(
            try Self.exchange(chip, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800")
                == hex("990290008E08FA855A5D4C50A8ED9000"))
        #expect(
            try Self.exchange(chip, "0CB000000D9701048E08ED6705417E96BA5500")
                == hex("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000"))
        #expect(
            try Self.exchange(chip, "0CB000040D9701128E082EA28A70F3C7B53500")
                == hex("871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D749000"))
    }

    @Test func wrongCryptogramIsRefused() throws {
        let chip = Self.exampleChip()
        #expect(try Self.exchange(chip, "00A4040C07A0000002471001") == hex("9000"))
        #expect(try Self.exchange(chip, "0084000008") == hex("4608F919887022129000"))
        // The same cryptogram with one bit of M.IFD flipped.
        #expect(
            try Self.exchange(
                chip,
                "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A628")
                == hex("6300"))
        // The challenge is spent: a replay of the right cryptogram needs a new GET CHALLENGE.
        #expect(
            try Self.exchange(
                chip,
                "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728")
                == hex("6985"))
        // And nothing in the application is readable.
        #expect(try Self.exchange(chip, "00B09E0004") == hex("6982"))
    }

    @Test func commandWithWrongMACEndsTheSession() throws {
        let chip = Self.exampleChip()
        try Self.authenticate(chip)
        #expect(try Self.exchange(chip, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F900") == hex("6988"))
        // The session is gone: the next correctly protected command is refused too.
        #expect(try Self.exchange(chip, "0CB000000D9701048E08ED6705417E96BA5500") == hex("6988"))
    }

    @Test func plainCommandEndsTheSession() throws {
        let chip = Self.exampleChip()
        try Self.authenticate(chip)
        #expect(try Self.exchange(chip, "00B09E0004") == hex("6982"))
        #expect(try Self.exchange(chip, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800") == hex("6988"))
    }

    @Test func wrongResponseMACFault() throws {
        let chip = Self.exampleChip(faults: [.wrongResponseMAC(.secureCommand(2))])
        try Self.authenticate(chip)
        #expect(
            try Self.exchange(chip, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800")
                == hex("990290008E08FA855A5D4C50A8ED9000"))
        // The first MAC byte AD becomes AC.
        #expect(
            try Self.exchange(chip, "0CB000000D9701048E08ED6705417E96BA5500")
                == hex("8709019FF0EC34F9922651990290008E08AC55CC17140B2DED9000"))
    }

    @Test func faultsByFile() throws {
        let bare = Self.exampleChip(faults: [.bareStatusWord(0x6A82, .readOf(0x011E))])
        try Self.authenticate(bare)
        _ = try Self.exchange(bare, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800")
        #expect(try Self.exchange(bare, "0CB000000D9701048E08ED6705417E96BA5500") == hex("6A82"))

        let dropped = Self.exampleChip(faults: [.dropSession(.secureCommand(1))])
        try Self.authenticate(dropped)
        #expect(try Self.exchange(dropped, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800") == hex("6988"))

        let lost = Self.exampleChip(faults: [.tagLost(.readOf(0x011E))])
        try Self.authenticate(lost)
        _ = try Self.exchange(lost, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800")
        #expect(throws: TransportError.TagLost) {
            try Self.exchange(lost, "0CB000000D9701048E08ED6705417E96BA5500")
        }
    }

    @Test func responsesWithoutStatusWordObject() throws {
        let chip = Self.exampleChip(faults: [.omitStatusWordObject])
        try Self.authenticate(chip)
        let answer = try Self.exchange(chip, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800")
        #expect(answer.count == 12 && answer.prefix(2) == [0x8E, 0x08] && answer.suffix(2) == [0x90, 0x00])
    }
}
