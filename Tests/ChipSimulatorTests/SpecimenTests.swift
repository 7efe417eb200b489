import ASN1
import CryptoPrimitives
import Foundation
import LDS
import TestSupport
import Testing

@testable import ChipSimulator

/// The specimen's test PKI and EF.SOD, judged by OpenSSL's own CMS and X.509 verification.
@Suite struct SpecimenTests {
    static func dataGroups() -> ChipFiles {
        var files = ChipFiles()
        files[dataGroup: 1] = [0x61, 0x03, 0x5F, 0x1F, 0x00]
        files[dataGroup: 2] = [0x75, 0x02, 0x7F, 0x61]
        files[dataGroup: 12] = [0x6C, 0x00]
        return files
    }

    /// Runs `openssl` with `arguments`; nil (test skipped, or failed in CI) without the binary.
    static func openssl(_ arguments: [String]) throws -> (status: Int32, output: String)? {
        guard let binary = Prerequisites.tool("openssl", package: "openssl") else { return nil }
        let result = try Subprocess.run(binary, arguments)
        return (result.status, result.combinedOutput)
    }

    @Test func securityObjectVerifiesWithOpenSSL() throws {
        let specimen = try Specimen.signing(Self.dataGroups())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("specimen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sod = try #require(specimen.files.sod)
        let contentInfo = try ASN1Node.parse(sod, rules: .der).children[0]
        let paths = ["sod.der", "csca.pem", "dsc.pem", "content.der"].map { directory.appendingPathComponent($0).path }
        try Data(contentInfo.encodedBytes).write(to: URL(fileURLWithPath: paths[0]))
        try Data(specimen.countrySigningCertificatePEM.utf8).write(to: URL(fileURLWithPath: paths[1]))
        let signerPEM =
            "-----BEGIN CERTIFICATE-----\n"
            + Data(specimen.documentSignerCertificate).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END CERTIFICATE-----\n"
        try Data(signerPEM.utf8).write(to: URL(fileURLWithPath: paths[2]))
        guard
            let verified = try Self.openssl([
                "cms", "-verify", "-inform", "DER", "-in", paths[0], "-CAfile", paths[1], "-purpose", "any", "-out",
                paths[3],
            ])
        else { return }
        #expect(verified.status == 0, "openssl cms -verify: \(verified.output)")
        // The signed content is the LDSSecurityObject with one SHA-256 hash per data group.
        let content = try ASN1Node.parse(Array(try Data(contentsOf: URL(fileURLWithPath: paths[3]))), rules: .der)
        let hashes = content.children[2].children
        #expect(try hashes.map { try $0.children[0].intValue() } == [1, 2, 12])
        #expect(
            Array(try hashes[1].children[1].octetString())
                == HashAlgorithm.sha256.hash(Self.dataGroups()[dataGroup: 2] ?? []))
        // The document signer chains to the CSCA.
        let chain = try #require(
            try Self.openssl(["verify", "-CAfile", paths[1], "-purpose", "any", paths[2]]))
        #expect(chain.status == 0, "openssl verify: \(chain.output)")
    }

    @Test func anotherPKIDoesNotVerify() throws {
        let first = try Specimen.signing(Self.dataGroups())
        let second = try Specimen.signing(Self.dataGroups())
        #expect(first.countrySigningCertificate != second.countrySigningCertificate)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("specimen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sod = try #require(first.files.sod)
        let sodPath = directory.appendingPathComponent("sod.der").path
        let cscaPath = directory.appendingPathComponent("csca.pem").path
        try Data(try ASN1Node.parse(sod, rules: .der).children[0].encodedBytes).write(to: URL(fileURLWithPath: sodPath))
        try Data(second.countrySigningCertificatePEM.utf8).write(to: URL(fileURLWithPath: cscaPath))
        guard
            let verified = try Self.openssl([
                "cms", "-verify", "-inform", "DER", "-in", sodPath, "-CAfile", cscaPath, "-purpose", "any", "-out",
                "/dev/null",
            ])
        else { return }
        #expect(verified.status != 0)
    }

    @Test func tooFewDataGroups() {
        var files = ChipFiles()
        files[dataGroup: 1] = [0x61, 0x00]
        #expect(throws: ChipSimulatorError.self) { try Specimen.signing(files) }
    }
}

/// The synthetic face decodes with an independent JPEG decoder (Pillow's libjpeg) to the drawing.
@Suite struct SyntheticFaceTests {
    @Test func decodesWithPillow() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("face-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data(SyntheticFace.jpeg()).write(to: path)
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]); image.load()
            print(image.format, image.mode, image.size[0], image.size[1])
            print(" ".join(str(image.getpixel((8 * x + 4, 8 * y + 4))) for y in range(15) for x in range(12)))
            """
        guard let python = Prerequisites.tool("python3", package: "python3") else { return }
        let output = try Subprocess.run(python, ["-c", script, path.path]).combinedOutput
        if output.contains("No module named 'PIL'") {
            Prerequisites.unavailable("Pillow (Debian package python3-pil)")
            return
        }
        let lines = output.split(separator: "\n")
        #expect(lines.first == "JPEG L 96 120", "\(output)")
        let expected = SyntheticFace.cells.flatMap { $0.map(SyntheticFace.shade) }
        let decoded = lines.dropFirst().first?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(decoded == expected)
    }
}

/// The generated specimen's files parse with the LDS package and open with the MRZ's BAC key.
@Suite struct GeneratedSpecimenTests {
    @Test func everyFileParses() throws {
        let specimen = try Specimen.generate(rich: true)
        let files = specimen.files
        #expect(
            Set(files.application.keys)
                == Set([0x011E, 0x011D] + [1, 2, 3, 5, 7, 11, 12, 13, 14, 15, 16].map { 0x0100 + UInt16($0) }))
        let com = try CommonFile(try #require(files.com))
        #expect(com.dataGroups == [.dg1, .dg2, .dg3, .dg5, .dg7, .dg11, .dg12, .dg13, .dg14, .dg15, .dg16])
        for number in [1, 2, 3, 5, 7, 11, 12, 13, 14, 15, 16] {
            let kind = try #require(LDSFileKind.dataGroup(number))
            let result = LDSFileParser.parseLeniently(try #require(files[dataGroup: number]), as: kind)
            #expect(result.model != nil, "\(kind): \(result.warnings)")
        }
        let face = try EncodedIdentificationFeaturesFace(try #require(files[dataGroup: 2]))
        #expect(face.images.first?.format == .jpeg && face.images.first?.size.width == UInt32(SyntheticFace.width))
        let mrz = try MRZDataGroup(try #require(files[dataGroup: 1]))
        #expect(mrz.machineReadableZone.fields.documentNumber == "L898902C")
        #expect(
            SimulatedChip.machineReadableZone(files[dataGroup: 1] ?? []).flatMap(MRZPassword.init(machineReadableZone:))
                == MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623"))
        #expect(try AdditionalPersonalDetails(try #require(files[dataGroup: 11])).placeOfBirthText == "ZENITH,UTOPIA")
    }
}
