import AccessControl
import ChipSimulator
import Foundation
import LDS
import MRZ

/// `emrtd-bench read`: the APDUs, bytes and link time of a whole read (BAC, then EF.COM, EF.SOD,
/// the data groups, DG14 and DG15 tried as the read tries them) of documents of about 12, 40 and
/// 90 KB against the simulator's link model, beside the least the link allows for the same files.
///
/// The minimum: access control as measured, one APDU for each file the read tries that the chip
/// refuses or lacks (DG3; DG14 and DG15, which the read always tries), then for each file read
/// one READ BINARY per full answer
/// (extended: 65,280 bytes, B1 65,276; short: what a 3DES answer carries in 256 bytes, 231, B1
/// 228), each exchange costing its 45 bytes of secure-messaging overhead (command: header, Lc,
/// DO'97', DO'8E', Le; answer: DO'87''s header and padding on average, DO'99', DO'8E', SW) on
/// top of the file's bytes. Rows are rates so the table reads as the other suites do: reads per
/// second of link time, and reads per thousand APDUs, ours against the minimum's (ratio 1 is
/// the minimum; the goal is at least 1/1.2 for time and 1/1.15 for APDUs). A note under each
/// document gives the figures and what a JMRTD-style reader (SELECT, then 223-byte READs) needs.
let readSuite = Suite(
    name: "read",
    title: "whole reads over the simulator's link model vs the least the link allows (no wall clock)"
) { run in
    let links: [(name: String, model: LinkModel)] = [
        ("106 kbit/s 30 ms", LinkModel(bitsPerSecond: 106_000, latencyPerExchange: .milliseconds(30))),
        ("106 kbit/s 5 ms", LinkModel(bitsPerSecond: 106_000, latencyPerExchange: .milliseconds(5))),
        ("424 kbit/s 30 ms", LinkModel(bitsPerSecond: 424_000, latencyPerExchange: .milliseconds(30))),
        ("424 kbit/s 5 ms", LinkModel(bitsPerSecond: 424_000, latencyPerExchange: .milliseconds(5))),
    ]
    let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
    for target in [12_000, 40_000, 90_000] {
        let base = try Specimen.generate(rich: true).files
        let rest = base.application.filter { $0.key != ChipFiles.dataGroupIdentifier(2) }.values.reduce(0) {
            $0 + $1.count
        }
        let files = try Specimen.generate(rich: true, faceSize: max(0, target - rest - 200)).files
        let readable = files.application.filter { $0.key != ChipFiles.dataGroupIdentifier(3) }
        let total = readable.values.reduce(0) { $0 + $1.count }
        for extended in [false, true] {
            for link in links {
                let configuration = ChipConfiguration(
                    files: files, supportsExtendedLength: extended, extendedLengthRefusal: .endsSecureMessaging,
                    link: link.model)
                let chip = SimulatedChip(configuration: configuration)
                var session = try ChipAccess.open(chip, accessKey: key)
                let access = chip.statistics
                // What the read's plan tries: EF.COM, EF.SOD, DG14, the data groups on the chip
                // (DG3 refused), DG15.
                let present = (1...16).filter { files[dataGroup: $0] != nil }.compactMap(LDSFileKind.dataGroup)
                for kind in [LDSFileKind.com, .sod, .dg14] + present + [.dg15] { _ = session.fileReader.read(kind) }
                let ours = chip.statistics
                let perAnswer = extended ? (even: 65_280, odd: 65_276) : (even: 231, odd: 228)
                func reads(_ size: Int) -> Int {
                    var (offset, count) = (0, 0)
                    while offset < size {
                        offset += offset <= 0x7FFF ? perAnswer.even : perAnswer.odd
                        count += 1
                    }
                    return count
                }
                // A file the plan tries that the chip refuses (DG3) or lacks (DG14, DG15) takes one
                // APDU whatever the reader.
                let tried = 3 + present.count + 1 - readable.count
                let minimumAPDUs = access.exchanges + tried + readable.values.reduce(0) { $0 + reads($1.count) }
                let minimumBytes = access.bytes + total + (minimumAPDUs - access.exchanges) * 45
                let minimumTime =
                    link.model.latencyPerExchange * minimumAPDUs
                    + .nanoseconds(Int64(minimumBytes) * 8_000_000_000 / Int64(link.model.bitsPerSecond))
                let jmrtdAPDUs =
                    access.exchanges + tried + readable.values.reduce(0) { $0 + 1 + ($1.count + 222) / 223 }
                let jmrtdTime =
                    link.model.latencyPerExchange * jmrtdAPDUs
                    + .nanoseconds(
                        Int64(access.bytes + total + (jmrtdAPDUs - access.exchanges) * 45) * 8_000_000_000
                            / Int64(link.model.bitsPerSecond))
                let name = "\(total / 1000) KB, \(extended ? "extended" : "short only"), \(link.name)"
                let seconds = { (duration: Duration) in
                    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                }
                run.record(
                    BenchRow(
                        name: "\(name): time", emrtd: 1 / seconds(ours.linkTime), reference: 1 / seconds(minimumTime),
                        unit: "reads/s"))
                run.record(
                    BenchRow(
                        name: "\(name): APDUs", emrtd: 1000 / Double(ours.exchanges),
                        reference: 1000 / Double(minimumAPDUs), unit: "reads/kAPDU"))
                run.note(
                    "\(name): ours \(ours.exchanges) APDUs, \(ours.bytes) bytes, \(Int(seconds(ours.linkTime) * 1000)) ms;"
                        + " minimum \(minimumAPDUs) APDUs, \(minimumBytes) bytes, \(Int(seconds(minimumTime) * 1000)) ms;"
                        + " JMRTD-style \(jmrtdAPDUs) APDUs, \(Int(seconds(jmrtdTime) * 1000)) ms")
            }
        }
    }
}
