import ASN1
import Arithmetic
import ICAO
import Testing

/// The one public-key model on keys written here: each form of parameters, chips' sloppy integers,
/// and explicit parameters that are read (not built) whatever their size.
@Suite struct PublicKeyInfoTests {
    static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"

    func spki(_ algorithm: ASN1ObjectIdentifier, _ parameters: [UInt8]?, key: [UInt8]) -> [UInt8] {
        DER.sequence([
            DER.sequence([DER.objectIdentifier(algorithm)] + (parameters.map { [$0] } ?? [])), DER.bitString(key),
        ])
    }

    /// SpecifiedECDomain for `curve`, optionally with a seed and without the cofactor.
    func explicit(_ curve: EllipticCurve, p: [UInt8]? = nil, seed: Bool = false, cofactor: Bool = true) throws
        -> [UInt8]
    {
        let length = curve.coordinateLength
        let prime = try p ?? curve.p.bytes(length: length)
        var fields = [
            DER.integer(1), DER.sequence([DER.objectIdentifier("1.2.840.10045.1.1"), DER.unsignedInteger(prime)]),
            DER.sequence(
                [
                    DER.octetString(try curve.a.bytes(length: length)),
                    DER.octetString(try curve.b.bytes(length: length)),
                ]
                    + (seed ? [DER.bitString([1, 2, 3])] : [])),
            DER.octetString(try curve.encode(curve.generator)),
            DER.unsignedInteger(try curve.order.bytes(length: length)),
        ]
        if cofactor { fields.append(DER.integer(1)) }
        return DER.sequence(fields)
    }

    @Test func rsaKeyWithoutTheSignByte() throws {
        let modulus = [0xC0] + [UInt8](repeating: 0x11, count: 127)
        // The modulus as some chips write it: no 00 byte, so "negative" in DER.
        let rsaKey = DER.sequence([DER.tlv(.integer, modulus), DER.integer(65537)])
        let key = try PublicKeyInfo(spki("1.2.840.113549.1.1.1", DER.null(), key: rsaKey))
        #expect(key.keyAlgorithm == .rsa && key.keySize == 1024 && key.parameterEncoding == .none)
        #expect(key.rsaModulus == modulus && key.rsaPublicExponent == [0x01, 0x00, 0x01])
        #expect(key.parametersTag == .null)
    }

    @Test func namedAndStandardizedCurves() throws {
        let named = try PublicKeyInfo(
            spki(Self.ecPublicKey, DER.objectIdentifier("1.2.840.10045.3.1.7"), key: [4]))
        #expect(named.keyAlgorithm == .ec && named.parameterEncoding == .named)
        #expect(named.curve == "secp256r1" && named.keySize == 256 && named.namedCurve == "1.2.840.10045.3.1.7")
        let standardized = try PublicKeyInfo(spki("0.4.0.127.0.7.1.2", DER.integer(13), key: [4]))
        #expect(standardized.keyAlgorithm == .ec && standardized.parameterEncoding == .standardized)
        #expect(standardized.standardizedDomainParameterId == 13 && standardized.curve == "brainpoolP256r1")
        let implicit = try PublicKeyInfo(spki(Self.ecPublicKey, DER.null(), key: [4]))
        #expect(implicit.parameterEncoding == .none && implicit.keySize == 0)
    }

    @Test(arguments: [(false, true), (true, true), (false, false)])
    func explicitStandardCurveIsNamed(seed: Bool, cofactor: Bool) throws {
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let parameters = try explicit(curve, seed: seed, cofactor: cofactor)
        let key = try PublicKeyInfo(spki(Self.ecPublicKey, parameters, key: try curve.encode(curve.generator)))
        #expect(key.parameterEncoding == .explicit && key.curve == "brainpoolP256r1" && key.keySize == 256)
        #expect(key.ecParameters?.fieldType == "1.2.840.10045.1.1")
        #expect(key.ecParameters?.cofactor == (cofactor ? [1] : nil))
        #expect(key.ecParameters?.standardized == .brainpoolP256r1)
    }

    /// A 20000-bit prime is read and shown as it is: nothing is built from it here (users that
    /// build a curve meet Arithmetic's cap).
    @Test func oversizedExplicitParametersAreOnlyRead() throws {
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let huge = [0x80] + [UInt8](repeating: 0, count: 2498) + [0x01]
        let key = try PublicKeyInfo(spki(Self.ecPublicKey, try explicit(curve, p: huge), key: [4]))
        #expect(key.curve == "explicit" && key.keySize == 20000)
    }

    @Test func dhGroups() throws {
        let p = [0xFF] + [UInt8](repeating: 0xAB, count: 127)
        let x942 = try PublicKeyInfo(
            spki(
                "1.2.840.10046.2.1",
                DER.sequence([DER.unsignedInteger(p), DER.integer(2), DER.unsignedInteger([0x7F, 0xFF])]),
                key: DER.integer(5)))
        #expect(x942.keyAlgorithm == .dh && x942.parameterEncoding == .explicit && x942.keySize == 1024)
        #expect(x942.dhParameters?.order == [0x7F, 0xFF])
        // X9.42 requires q; PKCS #3 has none.
        #expect(throws: ASN1Error(.missingElement, "q (element 2) missing in 30")) {
            try PublicKeyInfo(
                spki("1.2.840.10046.2.1", DER.sequence([DER.unsignedInteger(p), DER.integer(2)]), key: DER.integer(5)))
        }
        let pkcs3 = try PublicKeyInfo(
            spki("1.2.840.113549.1.3.1", DER.sequence([DER.unsignedInteger(p), DER.integer(2)]), key: DER.integer(5)))
        #expect(pkcs3.dhParameters?.order == nil && pkcs3.dhParameters?.generator == [2])
    }

    @Test func malformedKeysSayWhy() throws {
        #expect(throws: ASN1Error(.missingElement, "subjectPublicKey (element 1) missing in 30")) {
            try PublicKeyInfo(DER.sequence([DER.sequence([DER.objectIdentifier(Self.ecPublicKey)])]))
        }
        #expect(throws: ASN1Error(.unexpectedTag, "subjectPublicKey: expected tag 03, found 04")) {
            try PublicKeyInfo(
                DER.sequence([DER.sequence([DER.objectIdentifier(Self.ecPublicKey)]), DER.octetString([4])]))
        }
    }
}
