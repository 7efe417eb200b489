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
}
