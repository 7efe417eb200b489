import ASN1
import Foundation
import Testing

@testable import LDS

struct NamedCurveTests {
    /// OpenSSL's names for the table's curves where they differ.
    static let opensslNames = ["secp192r1": "prime192v1", "secp256r1": "prime256v1"]

    /// Each curve's explicit parameters as `openssl ecparam -param_enc explicit` writes them are
    /// recognised as that curve: the table's values equal OpenSSL's.
    @Test(arguments: NamedCurve.all.map(\.name))
    func tableMatchesOpenSSL(name: String) throws {
        guard let openssl = SharedData.tool("openssl", package: "openssl") else { return }
        let directory = try SharedData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("parameters.der")
        let arguments = [
            "ecparam", "-name", Self.opensslNames[name] ?? name, "-param_enc", "explicit", "-outform", "DER",
            "-out", output.path,
        ]
        #expect(try SharedData.run(openssl, arguments) == 0)
        let node = try ASN1Node.parse([UInt8](try Data(contentsOf: output)))
        let (encoding, curveName, bits, _, domain) = try PublicKeyInfo.ecParameters(node)
        #expect(encoding == .explicit)
        #expect(curveName == name)
        #expect(bits == NamedCurve.all.first { $0.name == name }?.bitLength)
        #expect(domain?.cofactor == [1])
    }

    @Test func aChangedParameterIsExplicitNotNamed() throws {
        let curve = try #require(NamedCurve.all.first { $0.name == "brainpoolP256r1" })
        func bytes(_ hex: String) -> [UInt8] {
            let digits = Array(hex.count % 2 == 1 ? "0" + hex : hex)
            return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        }
        let domain = PublicKeyInfo.ECDomainParameters(
            prime: bytes(curve.p), a: bytes(curve.a), b: bytes(curve.b), generator: [0x02] + bytes(curve.gx),
            order: bytes(curve.n), cofactor: [1])
        #expect(PublicKeyInfo.identifyCurve(domain)?.name == "brainpoolP256r1")
        var changed = domain.order
        changed[changed.count - 1] ^= 1
        let other = PublicKeyInfo.ECDomainParameters(
            prime: domain.prime, a: domain.a, b: domain.b, generator: domain.generator, order: changed, cofactor: [1])
        #expect(PublicKeyInfo.identifyCurve(other) == nil)
    }
}
