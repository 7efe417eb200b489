import TestSupport
import Testing

@testable import CryptoPrimitives

/// FIPS 180-4 example messages (NIST CSRC "Examples with intermediate values").
struct HashingTests {
    static let abc = Array("abc".utf8)
    static let twoBlock = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)

    @Test(arguments: [
        (HashAlgorithm.sha1, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (.sha1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha224, "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            .sha384, "abc",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
        (
            .sha512, "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        (.sha1, "448", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (.sha224, "448", "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"),
        (.sha256, "448", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            .sha384, "448",
            "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b"
        ),
        (
            .sha512, "448",
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
                + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"
        ),
    ])
    func knownAnswer(algorithm: HashAlgorithm, message: String, expected: String) {
        let input = message == "448" ? Self.twoBlock : Array(message.utf8)
        let digest = algorithm.hash(input)
        #expect(digest == hex(expected))
        #expect(digest.count == algorithm.digestLength)
    }

    @Test func millionAsIncrementallyInUnevenChunks() {
        let hasher = IncrementalHash(.sha256)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 999)
        var remaining = 1_000_000
        while remaining > 0 {
            let take = min(remaining, chunk.count)
            hasher.update(chunk[0..<take])
            remaining -= take
        }
        #expect(hasher.finalize() == hex("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"))
    }

    @Test func finalizeResetsTheContextForReuse() {
        let hasher = IncrementalHash(.sha1)
        hasher.update(Self.abc)
        _ = hasher.finalize()
        hasher.update(Array("a".utf8))
        hasher.update(Array("bc".utf8))
        #expect(hasher.finalize() == hex("a9993e364706816aba3e25717850c26c9cd0d89d"))
        hasher.update(Self.twoBlock)
        hasher.reset()
        #expect(hasher.finalize() == hex("da39a3ee5e6b4b0d3255bfef95601890afd80709"))
    }

    @Test func slicesAndArraysHashAlike() {
        let framed = [0xFF] + Self.abc + [0xFF]
        #expect(HashAlgorithm.sha256.hash(framed[1..<4]) == HashAlgorithm.sha256.hash(Self.abc))
    }
}
