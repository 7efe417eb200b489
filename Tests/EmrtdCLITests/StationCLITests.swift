import Foundation
import JSON
import TestSupport
import Testing

/// `emrtd mrz --correct` and `emrtd station`'s command line (the page itself is driven in
/// chromium by `Tools/test-station.sh`).
@Suite struct StationCLITests {
    /// The specimen's line 2 with its date of birth's 0 read as O.
    static let confused = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO69O8061F9406236ZE184226B<<<<<14",
    ]

    @Test func mrzCorrectPutsADateRightAndSaysSo() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let plain = try Subprocess.run(emrtd, ["mrz"] + Self.confused)
        #expect(plain.status == 3, "without --correct the check digit fails: \(plain.combinedOutput)")
        let corrected = try Subprocess.run(emrtd, ["mrz", "--correct"] + Self.confused)
        #expect(corrected.status == 0, "\(corrected.combinedOutput)")
        #expect(corrected.errorOutput.contains("corrected line 2, column 16 (dateOfBirth): O → 0"))
        let json = try JSONValue.parse(corrected.output)
        guard case .array(let lines)? = json["lines"], case .object(let corrections)? = json["corrections"] else {
            Issue.record("no lines or corrections in \(corrected.output)")
            return
        }
        #expect(lines.last == .string("L898902C<3UTO6908061F9406236ZE184226B<<<<<14"))
        #expect(corrections.first { $0.key == "changes" }?.value.serialized(.compact).contains("\"to\":\"0\"") == true)
    }

    @Test func stationRefusesAnAddressBeyondLoopbackWithoutAToken() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let open = try Subprocess.run(emrtd, ["station", "--listen", "0.0.0.0:0"])
        #expect(open.status == 2 && open.errorOutput.contains("needs --token"), "\(open.combinedOutput)")
        let stray = try Subprocess.run(emrtd, ["station", "extra"])
        #expect(stray.status == 2, "\(stray.combinedOutput)")
    }
}
