import CMS
import Foundation
import JSON
import Seals
import TestSupport
import Testing

/// Every VDS, IDB and VDS-NC vector of ../shared/vectors/seals against its manifest: the parse
/// errors expected, and each signature valid or invalid as the independent verifier found it,
/// with the signer certificates the manifest names. Two readings differ by design: the
/// Meldebescheinigung's header names no certificate there is (its pairing with UTTS5B was found by
/// trying them), and the DEZV edge case read by the plain ICAO rule (this package applies
/// TR-03171's decimal length, under which it is an error, as the vectors' other entry expects).
struct SharedVectorTests {
    @Test func manifest() throws {
        guard let bytes = Prerequisites.sharedBytes("vectors/seals/manifest.json"),
            case .array(let vectors)? = try JSONValue.parse(String(decoding: bytes, as: UTF8.self))["vectors"]
        else { return }
        var checked = 0
        for vector in vectors {
            guard case .string(let id)? = vector["id"], case .string(let kind)? = vector["kind"],
                ["vds", "vdsnc", "idb"].contains(kind), case .string(let file)? = vector["file"],
                let input = Prerequisites.sharedBytes("vectors/seals/" + file)
            else { continue }
            if id == "vds_edge_dezv_hex_certref_len_icao_rule" || id == "vds_tr03171_meldebescheinigung_DEZV" {
                continue
            }
            let expected = vector["expected"]
            if expected?["parse"] == "error" {
                #expect(throws: SealError.self, "\(id)") { try Seal(barcode: input) }
                checked += 1
                continue
            }
            let seal = try Seal(barcode: input)
            var store = TrustStore()
            for key in ["signer_cert", "issuer_cert"] {
                guard case .string(let path)? = vector[key],
                    let der = Prerequisites.sharedBytes("vectors/seals/" + path)
                else { continue }
                store.add([try Certificate(derEncoded: der)])
            }
            let verdict = seal.verify(trustStore: store, at: Date(timeIntervalSince1970: 1_780_000_000))
            switch expected?["signature"] {
            case "valid": #expect(verdict.signatureValid, "\(id): \(verdict.errors)")
            case "invalid": #expect(!verdict.signatureValid, "\(id)")
            default: break
            }
            checked += 1
        }
        #expect(checked == 38)
    }
}
