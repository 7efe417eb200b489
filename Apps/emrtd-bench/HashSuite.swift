import COpenSSL
import CryptoPrimitives
import Foundation

/// `emrtd-bench hash`: one-shot hashing through `HashAlgorithm.hash` against OpenSSL's one-shot
/// `EVP_Digest` (with `EVP_sha*()`, the usual way to call it), and `IncrementalHash` reused across
/// messages, per algorithm and message size. Rates in MB/s.
let hashSuite = Suite(name: "hash", title: "hash: emrtd vs OpenSSL EVP_Digest") { run in
    for size in [64, 1024, 65536] {
        let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for (algorithm, reference) in [
            (HashAlgorithm.sha1, EVP_sha1()), (.sha256, EVP_sha256()), (.sha512, EVP_sha512()),
        ] {
            var digest = [UInt8](repeating: 0, count: 64)
            let evpDigest = { (_: Int) in _ = EVP_Digest(message, message.count, &digest, nil, reference, nil) }
            let oneShot = run.compare(emrtd: { _ in _ = algorithm.hash(message) }, reference: evpDigest)
            let hasher = IncrementalHash(algorithm)
            let reused = run.compare(
                emrtd: { _ in
                    hasher.update(message)
                    _ = hasher.finalize()
                },
                reference: evpDigest
            )
            for (label, rates) in [("one-shot", oneShot), ("reused context", reused)] {
                run.record(
                    BenchRow(
                        name: "\(algorithm) \(size) B \(label)", emrtd: rates.emrtd * Double(size) / 1e6,
                        reference: rates.reference * Double(size) / 1e6, unit: "MB/s"))
            }
        }
    }
}
