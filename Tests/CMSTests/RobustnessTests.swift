import Foundation
import Testing

@testable import CMS

/// Truncated and mutated EF.SODs, certificates and master lists give verdicts or typed
/// errors, never crashes; a truncated EF.SOD is never authenticated.
@Suite struct RobustnessTests {
    /// A small deterministic generator (SplitMix64), so failures replay.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let checkTime = TestFiles.date("2026-06-01")

    func fixture(_ pki: String) throws -> (sod: [UInt8], store: TrustStore, groups: [Int: [UInt8]]) {
        let folder = TestFiles.fixtures.appendingPathComponent("pa-faults/\(pki)")
        var store = TrustStore()
        try store.add(pemOrDer: TestFiles.bytes(folder.appendingPathComponent("csca.pem")))
        let valid = folder.appendingPathComponent("valid")
        return (
            try TestFiles.bytes(valid.appendingPathComponent("SOD.bin")), store,
            try TestFiles.dataGroups(in: valid) { "DG\($0).bin" }
        )
    }

    @Test(arguments: ["rsa", "ecdsa"])
    func truncatedSecurityObjects(pki: String) throws {
        let (sod, store, groups) = try fixture(pki)
        for length in 0..<sod.count {
            let verdict = PassiveAuthentication.verify(
                securityObject: Array(sod.prefix(length)), dataGroups: groups, trustStore: store, at: Self.checkTime)
            #expect(verdict.status == .denied)
            #expect(!verdict.failures.isEmpty)
        }
    }

    @Test(arguments: ["rsa", "ecdsa"])
    func mutatedSecurityObjects(pki: String) throws {
        let (sod, store, groups) = try fixture(pki)
        var random = SplitMix(state: pki == "rsa" ? 1 : 2)
        for _ in 0..<400 {
            var mutated = sod
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<mutated.count, using: &random)
                mutated[index] = UInt8.random(in: 0...255, using: &random)
            }
            let verdict = PassiveAuthentication.verify(
                securityObject: mutated, dataGroups: groups, trustStore: store, at: Self.checkTime)
            // Every verdict but a genuine one explains itself.
            #expect(verdict.status == .authenticated || !verdict.failures.isEmpty)
        }
    }

    @Test func truncatedAndMutatedCertificates() throws {
        let pem = try TestFiles.bytes(TestFiles.fixtures.appendingPathComponent("pa-faults/ecdsa/csca.pem"))
        let der = try #require(CertificateFile(bytes: pem).certificates.first).der
        for length in 0..<der.count {
            #expect(throws: CMSError.self) { try Certificate(derEncoded: der.prefix(length)) }
        }
        var random = SplitMix(state: 3)
        for _ in 0..<1000 {
            var mutated = der
            mutated[Int.random(in: 0..<mutated.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            _ = try? CertificateFile(bytes: mutated)
        }
    }

    /// Arbitrary bytes as a certificate file, master list or EF.SOD.
    @Test func randomInput() {
        var random = SplitMix(state: 4)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            _ = try? CertificateFile(bytes: bytes)
            _ = try? MasterList(bytes: bytes)
            let verdict = PassiveAuthentication.verify(
                securityObject: bytes, dataGroups: [1: bytes], trustStore: TrustStore(), at: Self.checkTime)
            #expect(verdict.status == .denied)
        }
    }

    /// A real BER EF.SOD (New Zealand, indefinite lengths) cut short at every length.
    @Test func truncatedRealSecurityObject() throws {
        guard let url = TestFiles.shared("gmrtd/sod_samples/NZ_EF_SOD.bin") else { return }
        let sod = try TestFiles.bytes(url)
        for length in stride(from: 0, to: sod.count, by: 7) {
            #expect(throws: CMSError.self) { try DocumentSecurityObject(bytes: sod.prefix(length)) }
        }
    }
}
