import ASN1
import Foundation
import ICAO
import Testing

@testable import LDS

struct NamedCurveTests {
    /// OpenSSL's names for the table's curves where they differ.
    static let opensslNames = ["secp192r1": "prime192v1", "secp256r1": "prime256v1"]

    static let curves = StandardizedDomainParameters.allCases.filter { $0.curve != nil }

    /// Each curve's explicit parameters as `openssl ecparam -param_enc explicit` writes them are
    /// recognised as that curve: ICAO's table (Arithmetic's values) equals OpenSSL's.
    @Test(arguments: curves)
    func tableMatchesOpenSSL(parameters: StandardizedDomainParameters) throws {
        guard let openssl = SharedData.tool("openssl", package: "openssl") else { return }
        let directory = try SharedData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("parameters.der")
        let arguments = [
            "ecparam", "-name", Self.opensslNames[parameters.name] ?? parameters.name, "-param_enc", "explicit",
            "-outform", "DER", "-out", output.path,
        ]
        #expect(try SharedData.run(openssl, arguments) == 0)
        let node = try ASN1Node.parse([UInt8](try Data(contentsOf: output)))
        let (encoding, curveName, bits, _, domain) = try PublicKeyInfo.ecParameters(node)
        #expect(encoding == .explicit)
        #expect(curveName == parameters.name)
        #expect(bits == parameters.fieldBits)
        #expect(domain?.cofactor == [1])
    }

    @Test func aChangedParameterIsExplicitNotNamed() throws {
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let length = curve.coordinateLength
        let domain = PublicKeyInfo.ECDomainParameters(
            prime: try curve.p.bytes(length: length), a: try curve.a.bytes(length: length),
            b: try curve.b.bytes(length: length), generator: try curve.encode(curve.generator, compressed: true),
            order: try curve.order.bytes(length: length), cofactor: [1])
        #expect(domain.standardized == .brainpoolP256r1)
        var changed = domain.order
        changed[changed.count - 1] ^= 1
        let other = PublicKeyInfo.ECDomainParameters(
            prime: domain.prime, a: domain.a, b: domain.b, generator: domain.generator, order: changed, cofactor: [1])
        #expect(other.standardized == nil)
    }
}
