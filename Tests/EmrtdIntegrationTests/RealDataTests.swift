import ChipSimulator
import Foundation
import TestSupport
import Testing

@testable import Emrtd

/// Real documents' files served by the simulator: the read gives the hash results their EF.SOD
/// implies (characterised independently in ../shared/data/SOURCES.md). Their test CSCAs are not
/// public, so the best verdict is `authorityCertificatesNotProvided`.
@Suite struct RealDataTests {
    /// Copies a JMRTD test document into a temporary directory in the `dump` layout.
    static func dumpDirectory(_ folder: String, names: [String: String]) throws -> URL? {
        guard let source = Prerequisites.shared("data/jmrtd/\(folder)") else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(folder)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (from, to) in names {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(from), to: directory.appendingPathComponent(to))
        }
        return directory
    }

    static func read(_ directory: URL, renderImages: Bool = true) throws -> TravelDocument {
        defer { try? FileManager.default.removeItem(at: directory) }
        let chip = SimulatedChip(
            configuration: ChipConfiguration(files: try ChipFiles(directory: directory), enforcesAccessControl: false))
        let reader = try EmrtdReader(
            config: ReaderConfig(useBuiltInAuthorityCertificates: false, renderImages: renderImages),
            chipAccess: PlainChipAccess())
        return try reader.read(transport: chip, accessKey: OrchestrationTests.accessKey)
    }

    /// BSI 2008 (Erika Mustermann): SHA-1 hashes of DG1, DG2, DG14 match; DG3 is refused by the
    /// chip (EAC), so it is `notRead`; DG15 is on the chip (and always tried) but not in EF.SOD, so
    /// `invalid`, and the data is `denied`.
    @Test func bsi2008() throws {
        guard
            let directory = try Self.dumpDirectory(
                "bsi2008",
                names: [
                    "EF_COM.bin": "COM.bin", "EF_SOD.bin": "SOD.bin", "Datagroup1.bin": "DG1.bin",
                    "Datagroup2.bin": "DG2.bin", "Datagroup3.bin": "DG3.bin", "Datagroup4.bin": "DG4.bin",
                    "Datagroup14.bin": "DG14.bin", "Datagroup15.bin": "DG15.bin",
                ])
        else { return }
        let document = try Self.read(directory)
        let data = document.authenticationStatus.data
        let hashes = Dictionary(uniqueKeysWithValues: data.dataGroupHashes.map { ($0.dataGroupNumber, $0.status) })
        #expect(hashes == [1: .valid, 2: .valid, 3: .notRead, 14: .valid, 15: .invalid])
        #expect(data.sodSignatureValid)
        #expect(data.hashAlgorithm == "SHA-1")
        #expect(data.status == .denied)
        // DG4 is on the chip but neither EF.COM nor EF.SOD names it: it is not asked for.
        #expect(document.deniedFiles == [.dg3])
        #expect(document.ldsMasterFile.dataGroups.keys.sorted() == [1, 2, 14, 15])
        // Read after the listed files (neither list names it), its key is still the document's.
        #expect(document.activeAuthenticationPublicKeyInfo != nil)
        #expect(document.machineReadableZoneInformation.fields.primaryIdentifier == "MUSTERMANN")
        #expect(document.encodedIdentificationFeaturesFace.images.first?.png != nil)
        #expect(document.securityOptions?.chipAuthenticationInfos.isEmpty == false)
        #expect(document.authenticationStatus.chip.reason.contains("Chip Authentication"))
    }

    /// JMRTD's loes2006 files under their `dump` names.
    static let loes2006Files = [
        "ef011E.bin": "COM.bin", "ef011D.bin": "SOD.bin", "ef0101.bin": "DG1.bin", "ef0102.bin": "DG2.bin",
        "ef010F.bin": "DG15.bin",
    ]

    /// Loes 2006 (the Netherlands): SHA-256 hashes of DG1, DG2 and DG15 match and the RSA
    /// signature verifies; without the Dutch test CSCA the verdict is
    /// `authorityCertificatesNotProvided`.
    @Test func loes2006() throws {
        guard let directory = try Self.dumpDirectory("loes2006", names: Self.loes2006Files) else { return }
        let document = try Self.read(directory)
        let data = document.authenticationStatus.data
        #expect(data.dataGroupHashes.map(\.dataGroupNumber) == [1, 2, 15])
        #expect(data.dataGroupHashes.allSatisfy { $0.status == .valid })
        #expect(data.sodSignatureValid && data.dataGroupHashesValid)
        #expect(data.hashAlgorithm == "SHA-256")
        #expect(data.status == .authorityCertificatesNotProvided)
        #expect(document.activeAuthenticationPublicKeyInfo != nil)
        #expect(document.machineReadableZoneInformation.fields.documentNumber == "XX0001328")
    }

    /// `renderImages: false`: the face comes without its PNG, and everything else of the read
    /// (its bytes, pixel size, the data verdict) is what a rendering read gives.
    @Test func readWithoutRenderingKeepsTheFace() throws {
        guard let first = try Self.dumpDirectory("loes2006", names: Self.loes2006Files),
            let second = try Self.dumpDirectory("loes2006", names: Self.loes2006Files)
        else { return }
        let rendered = try Self.read(first)
        let bare = try Self.read(second, renderImages: false)
        let renderedFace = try #require(rendered.encodedIdentificationFeaturesFace.images.first)
        let bareFace = try #require(bare.encodedIdentificationFeaturesFace.images.first)
        #expect(renderedFace.png != nil)
        #expect(bareFace.png == nil && bareFace.renderingFailure == nil)
        #expect(bareFace.bytes == renderedFace.bytes && bareFace.format == .jpeg2000)
        #expect(bareFace.size == ImageSize(width: 449, height: 598))
        #expect(bare.authenticationStatus.data == rendered.authenticationStatus.data)
        #expect(bare.warnings == rendered.warnings)
    }
}
