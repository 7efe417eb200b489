import OpenSSLReference
import Secrets
import Testing

@testable import Arithmetic

@Suite struct BigIntTests {
    @Test func bytesKeepTheirFixedLength() throws {
        let value = BigInt(bytes: [0x00, 0x00, 0x01, 0x02])
        #expect(value == BigInt(0x0102))
        #expect(try value.bytes(length: 4) == [0, 0, 1, 2])
        #expect(value.minimalBytes == [1, 2])
        #expect(try BigInt(0).bytes(length: 3) == [0, 0, 0])
        #expect(BigInt(0).minimalBytes == [])
        #expect(throws: ArithmeticError.self) { try BigInt(0x10000).bytes(length: 2) }
        let random = openSSLRandomBytes(67)
        #expect(try BigInt(bytes: random).bytes(length: 67) == random)
    }

    @Test func hexRoundTrip() {
        #expect(BigInt(hex: "0x00ff")?.hex == "FF")
        #expect(BigInt(hex: "-1A")?.intValue == -26)
        #expect(BigInt(hex: "12 34")?.intValue == 0x1234)
        #expect(BigInt(hex: "xyz") == nil)
        #expect(BigInt(hex: "") == nil)
        #expect(BigInt(0).hex == "0")
    }

    @Test func valueSemantics() {
        var a = BigInt(7)
        let b = a
        a = a + BigInt(1)
        #expect(b == BigInt(7))
        #expect(a == BigInt(8))
        #expect(BigInt(3) < BigInt(5))
        #expect(-BigInt(3) < BigInt(0))
        #expect(Set([BigInt(1), BigInt(1), BigInt(2)]).count == 2)
    }

    @Test func modularArithmetic() throws {
        let p = big("A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377")
        let a = big("7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9")
        let inverse = try #require(a.inverse(modulo: p))
        #expect(a.multiplied(by: inverse, modulo: p) == BigInt(1))
        #expect(BigInt(6).inverse(modulo: BigInt(9)) == nil)
        #expect((-BigInt(5)).modulo(BigInt(7)) == BigInt(2))
        #expect(a.adding(p - a, modulo: p) == BigInt(0))
        #expect(a.subtracting(a + BigInt(1), modulo: p) == p - BigInt(1))
        #expect(BigInt(2).jacobi(BigInt(7)) == 1)
        #expect(BigInt(3).jacobi(BigInt(7)) == -1)
        // Square roots for p ≡ 3 mod 4 (brainpoolP256r1) and p ≡ 1 mod 4 (P-224, Tonelli–Shanks).
        let p224 = big("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF000000000000000000000001")
        for modulus in [p, p224] {
            for seed in 1...20 {
                let square = (BigInt(seed * 7919) * a).multiplied(by: BigInt(seed * 7919) * a, modulo: modulus)
                let root = try #require(square.squareRoot(modulo: modulus))
                #expect(root.multiplied(by: root, modulo: modulus) == square)
            }
            let nonResidue = (2...100).map { BigInt($0) }.first { $0.jacobi(modulus) == -1 }
            #expect(try #require(nonResidue).squareRoot(modulo: modulus) == nil)
        }
    }

    @Test func powerAndConstantTimePowerAgree() throws {
        let modulus = big("B10B8F96A080E01DDE92DE5EAE5D54EC52C99FBCFB06A3C69A6A9DCA52D23B61")
        for _ in 0..<20 {
            let base = BigInt(bytes: openSSLRandomBytes(32)).modulo(modulus)
            let exponent = BigInt(bytes: openSSLRandomBytes(20)) + BigInt(1)
            #expect(base.power(exponent, modulo: modulus) == (try base.powerSecret(exponent, modulo: modulus)))
            #expect(base.power(exponent, modulo: modulus) == openSSLModExp(base, exponent, modulus))
        }
        #expect(throws: ArithmeticError.self) { try BigInt(3).powerSecret(BigInt(5), modulo: BigInt(10)) }
        #expect(throws: ArithmeticError.self) { try BigInt(3).powerSecret(BigInt(0), modulo: BigInt(11)) }
    }

    @Test func randomBelowStaysInRange() throws {
        let bound = BigInt(1000)
        for _ in 0..<200 {
            let value = try BigInt.random(below: bound)
            #expect(value >= BigInt(1) && value < bound)
        }
        #expect(throws: ArithmeticError.self) {
            try BigInt.random(below: BigInt(5), using: RandomSource { _ in SecretBytes([]) })
        }
    }

    @Test func derSignatureCodec() throws {
        let signature = ECDSASignature(r: big("80"), s: big("7F"))
        #expect(signature.derRepresentation == [0x30, 0x07, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x7F])
        #expect(try ECDSASignature(derRepresentation: signature.derRepresentation) == signature)
        let malformed: [[UInt8]] = [
            [], [0x30, 0x00], [0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x7F],  // negative r
            [0x30, 0x08, 0x02, 0x02, 0x00, 0x7F, 0x02, 0x01, 0x7F, 0x00],  // bad length
            [0x30, 0x07, 0x02, 0x02, 0x00, 0x7F, 0x02, 0x01, 0x7F],  // non-minimal r
            signature.derRepresentation + [0x00],  // trailing byte
            [0x30, 0x81, 0x07, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x7F],  // non-minimal length
            [0x30, 0x09, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x7F],  // length past the end
        ]
        for bytes in malformed {
            #expect(throws: ArithmeticError.self) { try ECDSASignature(derRepresentation: bytes) }
        }
        #expect(
            try ECDSASignature(rawRepresentation: [1, 2, 3, 4]) == ECDSASignature(r: BigInt(0x102), s: BigInt(0x304)))
        #expect(throws: ArithmeticError.self) { try ECDSASignature(rawRepresentation: [1, 2, 3]) }
    }

    @Test func digestTruncation() {
        // A 64-byte digest on a 256-bit order keeps its leftmost 256 bits; P-521's 521 bits keep all 512.
        let digest = (0..<64).map { UInt8($0) }
        #expect(ECDSA.truncatedDigest(digest, orderBits: 256) == BigInt(bytes: digest.prefix(32)))
        #expect(ECDSA.truncatedDigest(digest, orderBits: 521) == BigInt(bytes: digest))
        #expect(ECDSA.truncatedDigest(digest, orderBits: 250) == BigInt(bytes: digest.prefix(32)) >> 6)
    }
}
