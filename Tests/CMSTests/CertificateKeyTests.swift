import ASN1
import Testing

@testable import CMS

/// Certificate keys through the one key model: what certificates refuse that a chip's key may
/// carry, and explicit curves capped before anything costly runs.
@Suite struct CertificateKeyTests {
    /// An explicit-curve key; `signByte: false` writes p as chips do, without DER's 00 byte.
    func key(fieldType: ASN1ObjectIdentifier = "1.2.840.10045.1.1", prime: [UInt8], signByte: Bool = true) throws
        -> PublicKey
    {
        let p = signByte ? DER.unsignedInteger(prime) : DER.tlv(.integer, prime)
        let domain = DER.sequence([
            DER.integer(1), DER.sequence([DER.objectIdentifier(fieldType), p]),
            DER.sequence([DER.octetString([1]), DER.octetString([2])]), DER.octetString([0x02] + prime),
            DER.unsignedInteger(prime), DER.integer(1),
        ])
        let spki = DER.sequence([
            DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), domain]), DER.bitString([0x02] + prime),
        ])
        return try PublicKey(certificateKey: try ASN1Node.parse(spki))
    }

    /// A 20000-bit "prime" in a certificate's explicit curve: the key reads, ECDSA refuses it with
    /// Arithmetic's typed cap (had a primality test or the point's square root run first, the
    /// reason would be another).
    @Test func oversizedExplicitCurveIsRefusedBeforeAnyCost() throws {
        let huge = [0x80] + [UInt8](repeating: 0, count: 2498) + [0x01]
        let key = try key(prime: huge)
        #expect(key.algorithmName == "EC" && key.sizeInBits == 20000)
        #expect {
            try key.isValidSignature([0x30, 0x00], over: [1, 2, 3], algorithm: .ecdsa(.sha256))
        } throws: { error in
            let error = error as? CMSError
            return error?.code == .invalidKey && error?.reason.contains("domainParametersTooLarge") == true
        }
    }

    @Test func binaryFieldCurveIsUnsupported() throws {
        #expect(throws: CMSError(.unsupported, "EC field type 1.2.840.10045.1.2")) {
            try key(fieldType: "1.2.840.10045.1.2", prime: [0x0B])
        }
    }

    @Test func parametersOfAnotherKindAreMalformed() throws {
        let spki = DER.sequence([
            DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), DER.boolean(true)]), DER.bitString([4]),
        ])
        #expect(throws: CMSError(.malformed, "SpecifiedECDomain: expected tag 30, found 01")) {
            try PublicKey(certificateKey: try ASN1Node.parse(spki))
        }
    }

    /// What a chip's key may do and a certificate's may not: a modulus without its sign byte, a
    /// TR-03110 parameter ID.
    @Test func certificatesKeepToDERAndX509() throws {
        let rsaKey = DER.sequence([DER.tlv(.integer, [0xC0] + [UInt8](repeating: 1, count: 127)), DER.integer(3)])
        let rsa = DER.sequence([
            DER.sequence([DER.objectIdentifier("1.2.840.113549.1.1.1"), DER.null()]), DER.bitString(rsaKey),
        ])
        #expect(throws: CMSError.self) { try PublicKey(certificateKey: try ASN1Node.parse(rsa)) }
        #expect(try PublicKey(try ASN1Node.parse(rsa).encodedBytes).keySize == 1024)
        let standardized = DER.sequence([
            DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), DER.integer(13)]), DER.bitString([4]),
        ])
        #expect(throws: CMSError(.malformed, "SpecifiedECDomain: expected tag 30, found 02")) {
            try PublicKey(certificateKey: try ASN1Node.parse(standardized))
        }
        let prime = [0xC3] + [UInt8](repeating: 0x11, count: 31)
        #expect(try key(prime: prime).sizeInBits == 256)
        #expect(throws: CMSError.self) { try key(prime: prime, signByte: false) }
    }
}
