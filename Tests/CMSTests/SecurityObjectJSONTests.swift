import CryptoPrimitives
import Foundation
import JSON
import Testing

@testable import CMS

/// The JSON form of EF.SOD that `emrtd parse` prints, checked against the files it describes.
@Suite struct SecurityObjectJSONTests {
    @Test func listsTheHashesOfTheFilesBesideIt() throws {
        guard let folder = TestFiles.shared("gmrtd/sod_samples") else { return }
        let sod = try DocumentSecurityObject(
            bytes: TestFiles.bytes(folder.appendingPathComponent("NZ_EF_SOD.bin")))
        let json = sod.json
        #expect(json["eContentType"] == "ldsSecurityObject")
        #expect(json["hashAlgorithm"] == "SHA-256")
        guard case .array(let hashes)? = json["dataGroupHashes"] else {
            Issue.record("no dataGroupHashes array")
            return
        }
        #expect(hashes.map { $0["dataGroupNumber"] } == [1, 2, 12, 13, 14, 15].map { JSONValue.integer($0) })
        let dg15 = try TestFiles.bytes(folder.appendingPathComponent("NZ_DG15.bin"))
        #expect(hashes.last?["hash"] == .bytes(HashAlgorithm.sha256.hash(dg15)))
        guard case .array(let signers)? = json["signerInfos"], case .array(let certificates)? = json["certificates"]
        else {
            Issue.record("no signerInfos or certificates")
            return
        }
        #expect(signers.first?["signingTime"] == "2017-11-15T00:36:12Z")
        #expect(certificates.count == 1)
        #expect(certificates.first?["commonName"] == "Document Signer 201710020001")
    }
}
