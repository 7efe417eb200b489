import CMS
import Foundation
import Seals

/// A barcode reader's output (VDS bytes, hexadecimal, base256 text, IDB text, VDS-NC JSON),
/// decoded and verified as `emrtd seal` does with no trusted certificate, then its JSON. A VDS's
/// signed bytes are what precedes its signature zone in the bytes read.
let sealTarget = FuzzTarget(name: "seal") { input in
    guard let seal = try? Seal(barcode: input) else { return }
    if case .vds(let vds) = seal, input.first == 0xDC {
        fuzzCheck(input.starts(with: vds.signedBytes), "signed bytes not a prefix of the seal")
        fuzzCheck(vds.signature.map { $0.count % 2 == 0 } ?? true, "a signature of odd length")
    }
    let verdict = seal.verify(trustStore: TrustStore(), at: Date(timeIntervalSince1970: 1_780_000_000))
    fuzzCheck(verdict.status != .authenticated, "authenticated without a trusted certificate")
    _ = seal.json.serialized()
    _ = verdict.json.serialized()
}
