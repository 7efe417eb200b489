import TestSupport
import Testing

@testable import CryptoPrimitives

struct UtilityTests {
    @Test func iso7816PaddingRoundTrips() throws {
        #expect(ISO7816Padding.pad([], blockSize: 8) == hex("8000000000000000"))
        #expect(ISO7816Padding.pad(hex("0102030405060708"), blockSize: 8) == hex("0102030405060708 8000000000000000"))
        #expect(ISO7816Padding.pad(hex("99029000"), blockSize: 16) == hex("99029000800000000000000000000000"))
        for length in 0..<40 {
            let data = [UInt8](repeating: 0x80, count: length)
            let padded = ISO7816Padding.pad(data, blockSize: 16)
            #expect(padded.count % 16 == 0)
            #expect(try ISO7816Padding.unpad(padded) == data)
        }
    }

    @Test func unpaddingRejectsMissingMarkers() {
        for bad in [hex(""), hex("0000"), hex("01020300"), hex("8001")] {
            #expect { try ISO7816Padding.unpad(bad) } throws: { ($0 as? CryptoError)?.code == .invalidPadding }
        }
    }

    @Test func constantTimeComparison() {
        #expect(constantTimeEquals(hex("0102"), hex("0102")))
        #expect(!constantTimeEquals(hex("0102"), hex("0103")))
        #expect(!constantTimeEquals(hex("0102"), hex("010200")))
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        #expect(SecretBytes(hex("0102")) == SecretBytes(hex("0102")))
        #expect(SecretBytes(hex("0102")) != SecretBytes(hex("0202")))
    }

    @Test func randomBytesDifferAndHaveTheRequestedLength() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first.count == 32 && second.count == 32)
        #expect(first != second)
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
        #expect(try SecretBytes.random(count: 16).count == 16)
        #expect { try SecureRandom.bytes(count: SecureRandom.maximumCount + 1) } throws: {
            ($0 as? CryptoError)?.code == .invalidInputLength
        }
    }

    @Test func secretBytesComposeWithoutRevealing() {
        let secret = SecretBytes(hex("00112233"))
        #expect(secret.prefix(2).withUnsafeBytes { Array($0) } == hex("0011"))
        #expect(secret.appending(SecretBytes(hex("44"))).withUnsafeBytes { Array($0) } == hex("0011223344"))
        var temporary = hex("AABB")
        let taken = SecretBytes(consuming: &temporary)
        #expect(temporary.isEmpty)
        #expect(taken.count == 2)
        #expect(Mirror(reflecting: secret).children.isEmpty)
    }
}
