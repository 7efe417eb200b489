import ASN1
import Foundation
import JSON
import TestSupport
import Testing

/// `emrtd seal` as a user runs it: a seal's bytes, hexadecimal, standard input, and barcode
/// images made by Debian's encoders (libdmtx's `dmtxwrite`, `qrencode`) and read back by its
/// readers (`dmtxread`, `zbarimg`); one bit changed is denied.
@Suite struct SealCLITests {
    // Made by Fuzz/Seeds/make-seal-seeds.py (SealsTests holds the same seals and certificates).
    static let visa = """
        DC02D9C5D9CAC8A51A792DF5BA2E1CCA5D01022CDD52134A74DA1347C6FED95CB89F9FCE133C133C133C133C203833734AAF
        47F0C32F1A1E20EB2625393AFE3104031E0000050633BE1FED20C6FF409E0228F0FB65F3797C9C099775542AB63FEAF3F65E
        EAD989DE43BBBC0C90DDEDDB1FAE62A80E1A6F8B5BD8667C2A77263B61637709FE49CC7777242600D7D3CF
        """
    static let vdsNC = #"""
        {"data": {"hdr": {"t": "icao.test", "v": 1, "is": "UTO"}, "msg": {"pid": {"n": "Smith Bill", "i": "A1234567Z"}}}, "sig": {"alg": "ES256", "cer": "MIIBTDCB86ADAgECAgFcMAoGCCqGSM49BAMCMCQxCzAJBgNVBAYTAlVUMRUwEwYDVQQDDAxVVCBTZWFsIENTQ0EwHhcNMjYwMTAxMDAwMDAwWhcNMzUxMjMwMDAwMDAwWjAaMQswCQYDVQQGEwJVVDELMAkGA1UEAwwCVFMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATtzFoET-xF7sJsdt4KNl7_DXoasQXnZOcJ5M9Jw_jBOfURDGY__bvWVeoOjb-0y7GjM0Du1i1s7aj0YMyvaxFFoyAwHjAOBgNVHQ8BAf8EBAMCB4AwDAYDVR0TAQH_BAIwADAKBggqhkjOPQQDAgNIADBFAiAiGWx-0rwc-WWpHNBeyx28yOYw8dskmMD73xXvgXWrjQIhAPhw0HZI6Lfn88BqrOeA4s9YOOGbsjOV2037ABLbVBjY", "sigvl": "8P2PMQP6a3z__OabaB1AwmhsnFy0613X9IQ7IcOEiW2SDikgrQdoPG_inYGFPfr5Le2DACQro9qkiB34fif6pQ"}}
        """#
    static let csca =
        "MIIBXjCCAQOgAwIBAgIBATAKBggqhkjOPQQDAjAkMQswCQYDVQQGEwJVVDEVMBMGA1UEAwwMVVQgU2VhbCBDU0NBMB4XDTI2MDEwMTAwMDAwMFoXDTM1MTIzMDAwMDAwMFowJDELMAkGA1UEBhMCVVQxFTATBgNVBAMMDFVUIFNlYWwgQ1NDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABDBVTqkUcY214uu7WoNGzOwvKFe/AOtq+C9Y9bUL0y1AuyUIAll+7ox4wzXdkiiLUITXuezgZ3Fl/BdB8ObJpz2jJjAkMA4GA1UdDwEB/wQEAwIBBjASBgNVHRMBAf8ECDAGAQH/AgEAMAoGCCqGSM49BAMCA0kAMEYCIQDbYa0SQMSh4eoAQ5SpMj/JQaVbGiwrcpv7PDwfw0VpOQIhANvG4gbZ6GZODp7tNIQdRRH7uPU56ICl16y3DEppGDh8"
    static let signer =
        "MIIBTDCB86ADAgECAgFcMAoGCCqGSM49BAMCMCQxCzAJBgNVBAYTAlVUMRUwEwYDVQQDDAxVVCBTZWFsIENTQ0EwHhcNMjYwMTAxMDAwMDAwWhcNMzUxMjMwMDAwMDAwWjAaMQswCQYDVQQGEwJVVDELMAkGA1UEAwwCVFMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATtzFoET+xF7sJsdt4KNl7/DXoasQXnZOcJ5M9Jw/jBOfURDGY//bvWVeoOjb+0y7GjM0Du1i1s7aj0YMyvaxFFoyAwHjAOBgNVHQ8BAf8EBAMCB4AwDAYDVR0TAQH/BAIwADAKBggqhkjOPQQDAgNIADBFAiAiGWx+0rwc+WWpHNBeyx28yOYw8dskmMD73xXvgXWrjQIhAPhw0HZI6Lfn88BqrOeA4s9YOOGbsjOV2037ABLbVBjY"

    /// A folder holding the seal's forms and the two certificates.
    static func fixture() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let bytes = Hex.decode(visa.filter { !$0.isWhitespace }) ?? []
        var flipped = bytes
        flipped[40] ^= 0x04
        let files: [(String, [UInt8])] = [
            ("visa.bin", bytes), ("visa.hex", Array(Hex.encode(bytes).utf8)), ("flipped.bin", flipped),
            ("vds-nc.json", Array(vdsNC.utf8)), ("csca.der", Array(Data(base64Encoded: csca) ?? Data())),
            ("signer.der", Array(Data(base64Encoded: signer) ?? Data())),
        ]
        for (name, content) in files { try Data(content).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    static func trust(_ directory: URL) -> [String] {
        [
            "--no-builtin", "--csca", directory.appendingPathComponent("csca.der").path, "--csca",
            directory.appendingPathComponent("signer.der").path,
        ]
    }

    static func status(_ result: Subprocess.Result) -> String? {
        guard case .string(let status)? = (try? JSONValue.parse(result.output))?["verdict"]?["status"] else {
            return nil
        }
        return status
    }

    @Test func bytesHexAndStandardInput() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in ["visa.bin", "visa.hex", "vds-nc.json"] {
            let result = try Subprocess.run(
                emrtd, ["seal", directory.appendingPathComponent(file).path] + Self.trust(directory))
            #expect(result.status == 0, "\(file): \(result.combinedOutput)")
            #expect(Self.status(result) == "authenticated")
        }
        let piped = try Subprocess.run(
            "/bin/sh",
            [
                "-c", "e=$0; f=$1; shift; \"$e\" seal - \"$@\" < \"$f\"", emrtd,
                directory.appendingPathComponent("visa.hex").path,
            ]
                + Self.trust(directory))
        #expect(Self.status(piped) == "authenticated", "\(piped.combinedOutput)")
        let flipped = try Subprocess.run(
            emrtd, ["seal", directory.appendingPathComponent("flipped.bin").path] + Self.trust(directory))
        #expect(flipped.status == 3)
        #expect(Self.status(flipped) == "denied")
        let untrusted = try Subprocess.run(
            emrtd, ["seal", directory.appendingPathComponent("visa.bin").path, "--no-builtin"])
        #expect(untrusted.status == 3)
        #expect(Self.status(untrusted) == "authorityCertificatesNotProvided")
        let page = ["--mrz-lines", "VCD<<DENT<<ARTHUR<PETER<<<<<<<<<<<<<", "1234567XY7GBR5203116M2005250<<<<<<<<"]
        let strict = try Subprocess.run(
            emrtd,
            ["seal", directory.appendingPathComponent("visa.bin").path, "--strict"] + page + Self.trust(directory))
        #expect(strict.status == 3)
        #expect(strict.errorOutput.contains("strict mode: the seal differs from the page"))
        let notASeal = try Subprocess.run(emrtd, ["seal", directory.appendingPathComponent("csca.der").path])
        #expect(notASeal.status == 1)
    }

    /// `--make` writes a test seal and its PKI that `seal` authenticates; the page it carries
    /// matches, another page does not.
    @Test func madeSealRoundTrip() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seal-make-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = [
            "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ]
        let made = try Subprocess.run(emrtd, ["seal", "--make", directory.path, "--mrz-lines"] + lines)
        #expect(made.status == 0, "\(made.combinedOutput)")
        #expect(made.errorOutput.contains("never for a real document"))
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let trust = ["--no-builtin", "--csca", path("CSCA.der"), "--csca", path("signer.der")]
        let checked = try Subprocess.run(emrtd, ["seal", path("seal.bin"), "--strict", "--mrz-lines"] + lines + trust)
        #expect(checked.status == 0, "\(checked.combinedOutput)")
        #expect(Self.status(checked) == "authenticated")
        var other = lines
        other[2] = "ERIKSSON<<ANNE<MARIA<<<<<<<<<<"
        let differing = try Subprocess.run(
            emrtd, ["seal", path("seal.bin"), "--strict", "--mrz-lines"] + other + trust)
        #expect(differing.status == 3)
    }

    /// The visa names passport 47110815P; the simulator's specimen chip is L898902C.
    @Test func againstTheChip() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try OptionGroupCLITests.specimenDump(emrtd, in: directory)
        let seal = directory.appendingPathComponent("visa.bin").path
        let result = try Subprocess.run(emrtd, ["seal", seal, "--dir", dump.path] + Self.trust(directory))
        #expect(result.status == 0, "\(result.combinedOutput)")
        guard case .array(let checks)? = try JSONValue.parse(result.output)["checks"], let chip = checks.first,
            case .array(let differences)? = chip["differences"], let difference = differences.first
        else {
            Issue.record("no difference in \(result.output)")
            return
        }
        #expect(chip["against"] == "chip")
        #expect(difference["seal"] == "47110815P")
        #expect(difference["other"] == "L898902C")
        let strict = try Subprocess.run(emrtd, ["seal", seal, "--dir", dump.path, "--strict"] + Self.trust(directory))
        #expect(strict.status == 3)
        #expect(strict.errorOutput.contains("the seal differs from the chip"))
    }

    /// DataMatrix through libdmtx both ways, QR through qrencode and zbar (the VDS-NC, and the
    /// VDS as bytes, which zbar prints as ISO 8859-1 in UTF-8).
    @Test func barcodeImages() throws {
        guard let emrtd = CLITests.emrtd(),
            let dmtxwrite = Prerequisites.tool("dmtxwrite", package: "dmtx-utils"),
            let qrencode = Prerequisites.tool("qrencode", package: "qrencode"),
            Prerequisites.tool("dmtxread", package: "dmtx-utils") != nil,
            Prerequisites.tool("zbarimg", package: "zbar-tools") != nil
        else { return }
        let directory = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let images: [(String, String, [String], String)] = [
            ("visa.bin", dmtxwrite, ["-e", "b", "-o", path("visa.png"), path("visa.bin")], "authenticated"),
            ("flipped.bin", dmtxwrite, ["-e", "b", "-o", path("flipped.png"), path("flipped.bin")], "denied"),
            ("vds-nc.json", qrencode, ["-r", path("vds-nc.json"), "-o", path("vds-nc.png")], "authenticated"),
            ("visa.bin", qrencode, ["-8", "-r", path("visa.bin"), "-o", path("visa-qr.png")], "authenticated"),
        ]
        for (source, encoder, arguments, expected) in images {
            let encoded = try Subprocess.run(encoder, arguments)
            #expect(encoded.status == 0, "\(source): \(encoded.combinedOutput)")
            let image = arguments[arguments.firstIndex(of: "-o").map { $0 + 1 } ?? 0]
            let result = try Subprocess.run(emrtd, ["seal", "--image", image] + Self.trust(directory))
            #expect(Self.status(result) == expected, "\(image): \(result.combinedOutput)")
        }
    }

    /// A picture is bounded before the readers see it: a PNG header declaring 10⁵×10⁵ pixels and
    /// a JPEG 2000 codestream (which ImageMagick would hand to OpenJPEG) are refused with one
    /// line, exit 1, the readers never run.
    @Test func hostilePicturesAreRefusedFromTheirHeaders() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let directory = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        func bigEndian(_ value: Int) -> [UInt8] {
            (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        let huge: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + Array("IHDR".utf8)
            + bigEndian(100_000) + bigEndian(100_000) + [8, 0, 0, 0, 0] + bigEndian(0)
        let pictures: [(String, [UInt8], String)] = [
            ("huge.png", huge, "a picture of 100000×100000 pixels is refused"),
            ("face.j2k", [0xFF, 0x4F, 0xFF, 0x51] + [UInt8](repeating: 0, count: 60), "is not a PNG or JPEG picture"),
        ]
        for (name, bytes, message) in pictures {
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try Subprocess.run(emrtd, ["seal", "--image", path] + Self.trust(directory))
            #expect(result.status == 1, "\(name): \(result.combinedOutput)")
            #expect(result.errorOutput.contains(message), "\(name): \(result.errorOutput)")
        }
    }
}
