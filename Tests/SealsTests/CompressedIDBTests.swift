import CLibDeflate
import CMS
import Seals
import Testing

/// zlib-compressed IDBs (flag C or D): the payload after Base32 is a zlib stream, inflated before
/// the header is read, its size capped before anything is allocated.
struct CompressedIDBTests {
    private func barcode(_ text: String) throws -> IDBSeal {
        guard case .idb(let barcode) = try idb(text) else { throw SealError(.malformed, "not an IDB") }
        return barcode
    }

    @Test func pythonZlibVectorsReadAsTheirUncompressedBarcodes() throws {
        for (compressed, plain) in [
            (SealVectors.idbProvisionalResidenceCompressed, SealVectors.idbProvisionalResidence),
            (SealVectors.idbSupplementarySheetCompressed, SealVectors.idbSupplementarySheet),
        ] {
            #expect(try barcode(compressed) == barcode(plain))
        }
        #expect(try idb(SealVectors.idbSupplementarySheetCompressed).documentNumber == "ABCDEFGHI")
    }

    @Test func compressedSignatureVerifies() throws {
        let store = TrustStore([try certificate(SealVectors.certificateUTTS5B)])
        let verdict = try idb(SealVectors.idbProvisionalResidenceCompressed).verify(trustStore: store, at: checkTime)
        #expect(verdict.signatureValid, "\(verdict.errors)")
        // Its header says D, its signer is of UT (as the uncompressed sample's).
        #expect(verdict.status == .denied)
        #expect(verdict.errors.contains(.issuingCountryMismatch(issuingCountry: "D", signer: "UT")))
    }

    @Test func zipBombIsRefusedAsTooLarge() {
        #expect(IDBSeal.maximumInflatedLength < 100_000)
        #expect {
            try idb(SealVectors.idbZipBomb)
        } throws: { error in
            (error as? SealError)?.code == .tooLarge
                && (error as? SealError)?.reason.contains("\(IDBSeal.maximumInflatedLength)") == true
        }
    }

    @Test func corruptOrTrailedStreamsAreMalformed() {
        for text in [SealVectors.idbCorruptStream, SealVectors.idbCompressedWithTrailingByte, "RDB1CAAAA"] {
            #expect {
                try idb(text)
            } throws: { error in
                (error as? SealError)?.code == .malformed
            }
        }
    }

    /// Every IDB vector compressed by libdeflate at each level reads back as the same barcode.
    @Test func roundTripThroughLibdeflateAtEveryLevel() throws {
        for plain in [
            SealVectors.idbVisa, SealVectors.idbSupplementarySheet, SealVectors.idbProvisionalResidence,
        ] {
            let text = plain.filter { !$0.isWhitespace }
            let flag = try #require(text.utf8.dropFirst(4).first)
            let payload = try #require(base32Decode(text.dropFirst(5)))
            for level in Int32(0)...12 {
                let compressed = try #require(zlibCompress(payload, level: level))
                let encoded = "RDB1" + String(UnicodeScalar(flag + 2)) + base32Encode(compressed)
                #expect(try barcode(encoded) == barcode(text), "level \(level)")
            }
        }
    }

    private func zlibCompress(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, bytes.count))
        let written = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { buffer in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, buffer.baseAddress, buffer.count)
            }
        }
        return written == 0 ? nil : Array(output[..<written])
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    private func base32Encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8 | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                text.append(Self.alphabet[(buffer >> bits) & 31])
            }
        }
        if bits > 0 { text.append(Self.alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: text, as: UTF8.self)
    }

    private func base32Decode(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = Self.alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5 | value) & 0xFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> bits))
            }
        }
        return bytes
    }
}
