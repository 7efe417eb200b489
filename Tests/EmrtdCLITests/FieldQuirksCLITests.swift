import JSON
import TestSupport
import Testing

/// Real chips' quirks (`Packages/ChipSimulator/FIELD-QUIRKS.md`) as a user meets them: named with
/// `--chip-fault` on the simulated chip, read by `emrtd read`.
@Suite struct FieldQuirksCLITests {
    /// A chip whose READ BINARY answers are quirky (nothing above 160 bytes, 6B00 past a file's
    /// end, padding after the last byte) is read whole and authenticated.
    @Test func quirkyReadAnswersAreReadWhole() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let result = try Subprocess.run(
            emrtd,
            [
                "read", "--simulator", "--no-render", "--json", "--chip-fault", "read-empty-above-160",
                "--chip-fault", "read-past-end-6b00", "--chip-fault", "padded-end-of-file",
            ] + OptionGroupCLITests.mrz)
        #expect(result.status == 0, "\(result.combinedOutput)")
        let document = try JSONValue.parse(result.output)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authenticated")
        #expect(document["authenticationStatus"]?["chip"]?["status"] == "authenticated")
    }

    /// A wrong MAC from the chip fails the read closed, the error naming the file and the frame;
    /// `--debug`, the diagnostic, prints the frame as the chip sent it, DO'8E' included.
    @Test func aWrongMACIsAnErrorAndDebugShowsTheFrame() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let result = try Subprocess.run(
            emrtd,
            ["read", "--simulator", "--no-pace", "--short-only", "--chip-fault", "sod-wrong-mac", "--debug"]
                + OptionGroupCLITests.mrz)
        #expect(result.status == 1, "\(result.combinedOutput)")
        let error = result.errorOutput
        #expect(error.contains("emrtd read: reading the data groups failed"), "\(error)")
        #expect(error.contains("EF.SOD") && error.contains("at offset") && error.contains("MAC"), "\(error)")
        #expect(error.contains(#/\n\s*< 87 [0-9A-F ]+ 8E 08 /#), "\(error)")
    }
}
