import ChipSimulator
import LDS
import Synchronization
import Testing
import Transport

@testable import Emrtd

/// Data groups above 32 KB (READ BINARY B1) on chips without extended length, on each Le limit
/// of the ladder, with BAC (3DES) and PACE (AES), on a chip that ends secure messaging (6988) at
/// the first extended APDU or 2-byte DO'97' it sees: the read only succeeds if none is sent.
///
/// The chips here hold no Chip or Active Authentication keys (`Credentials()`: no DG14, no DG15),
/// so every APDU counted is a read.
@Suite struct LargeFileReadTests {
    /// The chip's READ BINARY limits: none (a short answer's worth), then each ladder step, each
    /// refused the way some chip refuses it.
    static let limits: [(maximum: Int, answer: OversizedReadAnswer)] = [
        (65536, .truncate), (223, .wrongLength), (192, .exactLength), (160, .truncate), (128, .wrongLength),
    ]

    static func chip(
        _ specimen: Specimen, pace: Bool, extendedLength: Bool = false,
        limit: (maximum: Int, answer: OversizedReadAnswer)
    ) throws -> SimulatedChip {
        var configuration = ChipConfiguration(
            files: specimen.files, supportsExtendedLength: extendedLength, extendedLengthRefusal: .endsSecureMessaging,
            maximumReadLength: limit.maximum, oversizedRead: limit.answer)
        if pace { try configuration.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")]) }
        return SimulatedChip(configuration: configuration)
    }

    @Test(arguments: [40_000, 90_000])
    func aLargeFaceOnAChipWithoutExtendedLength(faceSize: Int) throws {
        let specimen = try Specimen.generate(faceSize: faceSize, credentials: Credentials())
        let dg2 = try #require(specimen.files[dataGroup: 2])
        #expect(dg2.count > 32_768 + 1_000)
        for pace in [false, true] {
            for limit in Self.limits {
                let chip = try Self.chip(specimen, pace: pace, limit: limit)
                let document = try SecureReadTests.reader(specimen).read(
                    transport: chip, accessKey: SecureReadTests.accessKey)
                let name = "\(pace ? "PACE" : "BAC"), at most \(limit.maximum) (\(limit.answer))"
                #expect(document.accessControlProtocolUsed == (pace ? .pace : .bac), "\(name)")
                #expect(document.ldsMasterFile.dataGroups[2] == dg2, "\(name)")
                #expect(document.authenticationStatus.data.status == .authenticated, "\(name)")
                #expect(document.warnings.isEmpty, "\(name): \(document.warnings)")
                // Every file in full answers (B0 data, or B1's DO'53' with its 3-byte header, within
                // the limit and what a short answer carries: 231 with 3DES, 223 with AES), plus
                // access control (BAC 5 APDUs, PACE 10), DG14 and DG15 tried (2), and the ladder's
                // refused reads (at most 8).
                let capacity = min(limit.maximum, pace ? 223 : 231)
                let reads = specimen.files.application.values.reduce(0) { total, file in
                    let even = min(file.count, 32_768)
                    return total + (even + capacity - 1) / capacity + (file.count - even + capacity - 4)
                        / (capacity - 3)
                }
                #expect(chip.statistics.exchanges <= reads + 25, "\(name): \(chip.statistics.exchanges) APDUs")
            }
        }
    }

    @Test func aLargeFaceOnAChipWithExtendedLength() throws {
        let specimen = try Specimen.generate(faceSize: 90_000, credentials: Credentials())
        for pace in [false, true] {
            let chip = try Self.chip(specimen, pace: pace, extendedLength: true, limit: (65536, .truncate))
            let document = try SecureReadTests.reader(specimen).read(
                transport: chip, accessKey: SecureReadTests.accessKey)
            #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2])
            #expect(document.authenticationStatus.data.status == .authenticated)
            // DG2 in three answers (B0 to 32767 in one, then B1), every other file in one.
            #expect(chip.statistics.exchanges < 25, "\(chip.statistics.exchanges) APDUs")
        }
    }

    /// A link that announces extended length to a chip that refuses it with 6700: the reader
    /// steps down to short APDUs in the same session.
    @Test func aRefusedExtendedAttemptFallsBackInTheSameSession() throws {
        let specimen = try Specimen.generate(faceSize: 40_000, credentials: Credentials())
        var configuration = ChipConfiguration(
            files: specimen.files, supportsExtendedLength: false, extendedLengthRefusal: .wrongLength)
        configuration.maximumReadLength = 65536
        let link = AnnouncingExtendedLength(SimulatedChip(configuration: configuration))
        let document = try SecureReadTests.reader(specimen).read(transport: link, accessKey: SecureReadTests.accessKey)
        #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2])
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(link.refused.load(ordering: .relaxed) >= 1)
    }

    /// The APDUs of a read of a 9-file document (EF.COM, EF.SOD, DG1, DG2, DG5, DG7, DG11, DG12,
    /// DG13): access control, then one READ BINARY per file that fits one answer, plus one each for
    /// DG14 and DG15, which the read always tries (absent here: a 6A82 to a short-identifier read).
    @Test func nineFilesInOneReadBinaryEach() throws {
        var files = try Specimen.generate(rich: true, credentials: Credentials()).files
        files[dataGroup: 3] = nil
        files[dataGroup: 16] = nil
        files.com = CommonFile.encoded(
            ldsVersion: "0108", unicodeVersion: "040000", dataGroups: [.dg1, .dg2, .dg5, .dg7, .dg11, .dg12, .dg13])
        let specimen = try Specimen.signing(files)
        #expect(specimen.files.application.count == 9)
        for extendedLength in [true, false] {
            let chip = try Self.chip(specimen, pace: false, extendedLength: extendedLength, limit: (65536, .truncate))
            let document = try SecureReadTests.reader(specimen, debug: true).read(
                transport: chip, accessKey: SecureReadTests.accessKey)
            #expect(document.ldsMasterFile.filesRead.count == 9)
            #expect(document.authenticationStatus.data.status == .authenticated)
            // BAC: SELECT MF, SELECT EF.CardAccess (6A82), SELECT the application, GET CHALLENGE,
            // EXTERNAL AUTHENTICATE.
            let access = 5
            let perAnswer = extendedLength ? 65280 : 231
            let fileReads = specimen.files.application.values.reduce(0) { $0 + ($1.count + perAnswer - 1) / perAnswer }
            #expect(chip.statistics.exchanges == access + fileReads + 2, "extended \(extendedLength)")
            #expect(document.debugInfo.apduCount == chip.statistics.exchanges)
        }
    }
}

/// A link that claims extended length for a chip without it, counting the chip's 6700s.
final class AnnouncingExtendedLength: APDUTransport {
    let chip: SimulatedChip
    let refused = Atomic<Int>(0)

    init(_ chip: SimulatedChip) { self.chip = chip }

    var supportsExtendedLength: Bool { true }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let answer = try chip.transmit(command)
        if command.needsExtendedLength, answer.statusWord == .wrongLength { refused.add(1, ordering: .relaxed) }
        return answer
    }
}
