import Secrets
import TestSupport
import Testing

struct SecretsTests {
    @Test func constantTimeComparison() {
        #expect(constantTimeEquals(hex("0102"), hex("0102")))
        #expect(!constantTimeEquals(hex("0102"), hex("0103")))
        #expect(!constantTimeEquals(hex("8102"), hex("0102")))
        #expect(!constantTimeEquals(hex("0102"), hex("010200")))
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        #expect(constantTimeEquals(hex("0A0B0C")[1...], hex("0B0C")))
        #expect(SecretBytes(hex("0102")) == SecretBytes(hex("0102")))
        #expect(SecretBytes(hex("0102")) != SecretBytes(hex("0202")))
    }

    @Test func systemRandomBytesDifferAndHaveTheRequestedLength() throws {
        let first = try RandomSource.system.bytes(count: 32)
        let second = try RandomSource.system.bytes(count: 32)
        #expect(first.count == 32 && second.count == 32)
        #expect(first != second)
        #expect(try RandomSource.system.bytes(count: 0).count == 0)
        #expect(try SecretBytes.random(count: 13).count == 13)
        // Not all zero (the chance that 32 random bytes are is 2^-256).
        #expect(first.withUnsafeBytes { $0.contains { $0 != 0 } })
        #expect { try RandomSource.system.bytes(count: RandomSource.maximumCount + 1) } throws: {
            ($0 as? SecretsError)?.code == .invalidCount
        }
        #expect { try RandomSource.system.bytes(count: -1) } throws: { ($0 as? SecretsError)?.code == .invalidCount }
    }

    @Test func aSourceThatReturnsTheWrongCountIsAnError() {
        let short = RandomSource { count in SecretBytes([UInt8](repeating: 1, count: max(0, count - 1))) }
        #expect { try short.bytes(count: 8) } throws: { ($0 as? SecretsError)?.code == .invalidCount }
    }

    @Test func aReplayingSourceHandsOutItsScriptInOrderThenStops() throws {
        let source = RandomSource.replaying(hex("0102030405"))
        #expect(try source.bytes(count: 2).withUnsafeBytes { Array($0) } == hex("0102"))
        #expect(try source.bytes(count: 3).withUnsafeBytes { Array($0) } == hex("030405"))
        #expect { try source.bytes(count: 1) } throws: { ($0 as? SecretsError)?.code == .invalidCount }
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
        #expect("\(secret)" == "SecretBytes(4 bytes, redacted)")
    }

}
