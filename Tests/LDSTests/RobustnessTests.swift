import ASN1
import Foundation
import Testing

@testable import LDS

/// Real-world DG2 variants, and mutated or truncated files: errors or warnings, never a crash.
struct RobustnessTests {
    static let jpeg: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x20, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9,
    ]

    /// A DG2 around one data block, as `EncodedIdentificationFeaturesFace.encodedFace` writes it.
    static func dataGroup2(block: [UInt8]) -> [UInt8] {
        let header = DER.constructed(
            ASN1Tag(0xA1), [DER.tlv(ASN1Tag(0x87), [0x01, 0x01]), DER.tlv(ASN1Tag(0x88), [0x00, 0x08])])
        let template = DER.constructed(ASN1Tag(0x7F60), [header, DER.tlv(ASN1Tag(0x5F2E), block)])
        return DER.constructed(ASN1Tag(0x75), [DER.constructed(ASN1Tag(0x7F61), [DER.integer(1), template])])
    }

    /// The 19794-5 record inside a DG2 written by `encodedFace`.
    static func faceRecord(image: [UInt8]) throws -> [UInt8] {
        [UInt8](
            try EncodedIdentificationFeaturesFace(
                EncodedIdentificationFeaturesFace.encodedFace(image: image, width: 16, height: 32)
            ).records[0].data)
    }

    @Test func recordLengthsOffByAFewBytes() throws {
        var record = try Self.faceRecord(image: Self.jpeg)
        // Facial record length (offset 14) three bytes too long, record length (offset 8) too.
        record[17] &+= 3
        record[11] &+= 3
        let group = try EncodedIdentificationFeaturesFace(Self.dataGroup2(block: record))
        #expect(group.images.map(\.bytes) == [Data(Self.jpeg)])
        #expect(group.warnings.contains { $0.contains("declares") })
        #expect(group.warnings.contains { $0.contains("record length") })
    }

    @Test func berLengthsOffByAFewBytesStillShowTheFace() throws {
        guard let original = SharedData.file("jmrtd/bsi2008/Datagroup2.bin") else { return }
        var bytes = original
        // 7F61's length (82 3A E2 at offset 6) two bytes too long: the TLVs no longer parse.
        bytes[8] &+= 2
        #expect(throws: ASN1Error.self) { try ASN1Node.parse(bytes) }
        let group = try EncodedIdentificationFeaturesFace(bytes)
        #expect(group.warnings.first?.contains("record found by its signature") == true)
        let face = try #require(group.records.first?.dataBlock)
        #expect(face.standard == .iso19794Face)
        #expect(face.images.first?.image.size.width == 413 && face.images.first?.image.png != nil)
        #expect(group.records.first?.header.formatType == nil)
        // A file with no record signature at all is still an error.
        #expect(throws: LDSError.self) {
            try EncodedIdentificationFeaturesFace([0x75, 0x05, 0x7F, 0x61, 0x05, 0x02, 0x01])
        }
    }

    /// The earliest signature wins whichever is listed first; one cut by the end is not found.
    @Test func firstOccurrenceFindsTheEarliestSignature() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let face = Array("FAC\0".utf8)
        #expect(firstOccurrence(of: [jpeg, face], in: [1, 2] + face + [9] + jpeg) == 2)
        #expect(firstOccurrence(of: [face, jpeg], in: [0xFF, 0xFF, 0xD8, 0xFF] + face) == 1)
        #expect(firstOccurrence(of: [jpeg], in: [0, 0xFF, 0xD8]) == nil)
        #expect(firstOccurrence(of: [jpeg], in: []) == nil)
        #expect(firstOccurrence(of: [jpeg], in: jpeg) == 0)
    }

    @Test func paddingAfterTheImage() throws {
        let record = try Self.faceRecord(image: Self.jpeg) + [UInt8](repeating: 0, count: 16)
        let group = try EncodedIdentificationFeaturesFace(Self.dataGroup2(block: record))
        #expect(group.images.map(\.bytes) == [Data(Self.jpeg)])
        #expect(group.warnings.contains("16 bytes after the 19794-5 record"))
    }

    @Test func noImageAtAll() throws {
        let group = try EncodedIdentificationFeaturesFace(Self.dataGroup2(block: try Self.faceRecord(image: [])))
        #expect(group.images.isEmpty)
        #expect(group.warnings.contains("19794-5 facial record 1 holds no image"))
        let empty = try EncodedIdentificationFeaturesFace(
            DER.constructed(ASN1Tag(0x75), [DER.constructed(ASN1Tag(0x7F61), [DER.integer(0)])]))
        #expect(empty.records.isEmpty && !empty.warnings.isEmpty)
    }

    @Test func rawCodestreamWithoutA19794Header() throws {
        guard let bytes = SharedData.file("jmrtd/dg2/silver.jp2") else { return }
        let codestream = try #require(DocumentImageTests.codestream(in: bytes))
        let group = try EncodedIdentificationFeaturesFace(Self.dataGroup2(block: codestream))
        #expect(group.records[0].dataBlock.standard == .rawImage)
        let image = try #require(group.images.first)
        #expect(image.format == .jpeg2000Codestream && image.size.width == 413 && image.size.height == 531)
        #expect(image.png != nil)
    }

    @Test func capsRefuseOversizedFilesBeforeParsing() {
        let huge = [UInt8](repeating: 0, count: LDSFileKind.dg11.maximumSize + 1)
        #expect(throws: LDSError(.tooLarge, "dg11 of 65537 bytes exceeds 65536")) {
            try AdditionalPersonalDetails([0x6B] + huge.dropFirst())
        }
        // A declared length far beyond the data is an error, not an allocation.
        #expect(throws: LDSError.self) { try AdditionalPersonalDetails([0x6B, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x5F]) }
        // Nesting beyond the cap is refused.
        var nested: [UInt8] = [0x05, 0x00]
        for _ in 0..<40 { nested = DER.constructed(ASN1Tag(0xA0), [nested]) }
        let deep = LDSFileParser.parseLeniently(
            DER.constructed(ASN1Tag(0x6E), [DER.constructed(ASN1Tag(0x31), [nested])]), as: .dg14)
        #expect(deep.model == nil)
        #expect(deep.warnings.first?.contains("nesting deeper") == true)
    }

    /// Every LDS file of ../shared/data truncated at many points and mutated at random (seeded):
    /// each variant parses or gives a warning; a truncation inside the outer TLV is always refused.
    @Test func mutatedAndTruncatedFiles() throws {
        let paths = SharedData.files(where: RealDataTests.isLDSFile)
        guard !paths.isEmpty else { return }
        var generator = SplitMix64(seed: 0x9303_0005)
        var parsed = 0
        var refused = 0
        for path in paths {
            let original = try #require(SharedData.file(path))
            let kind = try #require(LDSFileKind.guess(from: original))
            let outerEnd = try ASN1Node.parsePrefix(original).node.encodedBytes.count
            let isImageGroup = original.count > 4096
            // Truncations: every length for small files, 24 spread ones for image groups.
            let cuts = isImageGroup ? (0..<24).map { $0 * original.count / 24 } : Array(0..<original.count)
            for cut in cuts {
                let result = LDSFileParser.parseLeniently(Array(original.prefix(cut)), as: kind)
                if cut < outerEnd {
                    // Refused, or (biometric groups) recovered from the record's signature with a
                    // warning saying the structure is malformed.
                    let recovered = result.warnings.contains { $0.contains("record found by its signature") }
                    #expect(result.model == nil || recovered, "\(path) cut at \(cut) parsed")
                    #expect(!result.warnings.isEmpty)
                }
            }
            // Random mutations: 1–4 bytes replaced, inserted or deleted.
            for _ in 0..<(isImageGroup ? 12 : 150) {
                var mutated = original
                for _ in 0...Int(generator.next() % 4) where !mutated.isEmpty {
                    let position = Int(generator.next() % UInt64(mutated.count))
                    switch generator.next() % 3 {
                    case 0: mutated[position] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: mutated.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                    default: mutated.remove(at: position)
                    }
                }
                let result = LDSFileParser.parseLeniently(mutated, as: kind)
                #expect(result.model != nil || !result.warnings.isEmpty)
                if result.model == nil { refused += 1 } else { parsed += 1 }
                _ = result.json.serialized()
            }
        }
        // Both outcomes occur: the loop is not vacuous.
        #expect(parsed > 100 && refused > 100)
    }
}

/// A small seeded generator (SplitMix64) so the mutation loop is reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
