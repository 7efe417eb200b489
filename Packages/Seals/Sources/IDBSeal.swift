import CLibDeflate
import CryptoPrimitives

/// An ICAO Datastructure for Barcode (IDB, Doc 9303-13 of 2024): `RDB1` (or `NDB1`), a flag
/// letter (`A` + 1 signed, + 2 zlib-compressed), then Base32 without padding of a header
/// (country in C40; signed: signature algorithm, certificate reference, masked signing date), the
/// message group (tag `61`), an optional signer certificate (`7E`) and the signature (`7F`, r‖s).
public struct IDBSeal: Sendable, Hashable {
    /// The longest IDB text read: its payload within `VisibleDigitalSeal.maximumLength`.
    public static let maximumLength = VisibleDigitalSeal.maximumLength * 8 / 5 + 8
    /// The most a compressed payload may inflate to: eight times the longest payload read, room
    /// for any barcode's data while a zip bomb stops at a fixed, small allocation.
    public static let maximumInflatedLength = VisibleDigitalSeal.maximumLength * 8

    public let issuingCountry: String
    /// 1 ECDSA with SHA-256, 2 SHA-384, 3 SHA-512; nil for an unsigned barcode.
    public let signatureAlgorithm: Int?
    /// The last five bytes of the signer certificate's SHA-1; nil for an unsigned barcode.
    public let certificateReference: [UInt8]?
    /// `YYYY-MM-DD`, unknown digits `x`; nil for an unsigned barcode.
    public let signatureDate: String?
    public let features: [SealFeature]
    /// The signer certificate's DER when the barcode carries it (`7E`).
    public let signerCertificate: [UInt8]?
    public let signature: [UInt8]?
    /// Header and message group as read: what the signature covers.
    public let signedBytes: [UInt8]

    /// Parses the text of an IDB barcode.
    public init(text: String) throws(SealError) {
        let characters = Array(text.utf8)
        guard characters.count <= Self.maximumLength else {
            throw SealError(.tooLarge, "an IDB of \(characters.count) characters")
        }
        guard characters.count > 5, [Array("RDB1".utf8), Array("NDB1".utf8)].contains(Array(characters[..<4])),
            (0x41...0x44).contains(characters[4])
        else { throw SealError(.malformed, "an IDB starts RDB1 or NDB1 and a flag A–D") }
        let flag = characters[4] - 0x41
        let isSigned = flag & 1 == 1
        let encoded = try Self.base32(characters[5...])
        let payload = flag & 2 == 0 ? encoded : try Self.inflate(encoded)
        var reader = SealReader(payload)
        issuingCountry = try C40.decode(reader.bytes(2, "IDB country"))
        if isSigned {
            signatureAlgorithm = Int(try reader.byte("IDB signature algorithm"))
            certificateReference = try reader.bytes(5, "IDB certificate reference")
            let date = try SealFeature(
                tag: 0, value: reader.bytes(4, "IDB signature date"),
                definition: SealDocumentType.Feature(tag: 0, name: "signature date", coding: .maskedDate))
            guard case .text(let text) = date.value else { throw SealError(.malformed, "IDB signature date") }
            signatureDate = text
        } else {
            (signatureAlgorithm, certificateReference, signatureDate) = (nil, nil, nil)
        }
        guard try reader.byte("IDB message group") == 0x61 else {
            throw SealError(.malformed, "an IDB's message group has tag 61")
        }
        var group = SealReader(try reader.bytes(reader.derLength("IDB message group"), "IDB message group"))
        features = try SealFeature.zone(&group, type: .idbMessageGroup)
        signedBytes = Array(payload[..<reader.offset])
        var certificate: [UInt8]?
        var signature: [UInt8]?
        while !reader.isAtEnd {
            let tag = try reader.byte("IDB tag")
            let value = try reader.bytes(reader.derLength("IDB tag \(tag)"), "IDB tag \(tag)")
            switch tag {
            case 0x7E where certificate == nil && signature == nil: certificate = value
            case 0x7F where signature == nil && isSigned: signature = value
            default: throw SealError(.malformed, "an IDB's tag \(tag) out of place")
            }
        }
        if isSigned && signature == nil { throw SealError(.malformed, "a signed IDB without its signature") }
        (signerCertificate, self.signature) = (certificate, signature)
    }

    /// The hash `signatureAlgorithm` names.
    var hashAlgorithm: HashAlgorithm? {
        switch signatureAlgorithm {
        case 1: .sha256
        case 2: .sha384
        case 3: .sha512
        default: nil
        }
    }

    /// The zlib stream (RFC 1950) of a compressed IDB, inflated by libdeflate into a buffer of
    /// `maximumInflatedLength` bytes: a stream that needs more is refused, as is one followed by
    /// bytes of its own.
    private static func inflate(_ stream: [UInt8]) throws(SealError) -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw SealError(.tooLarge, "no memory to inflate a compressed IDB")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = [UInt8](repeating: 0, count: maximumInflatedLength)
        var consumed = 0
        var produced = 0
        let result = stream.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { buffer in
                libdeflate_zlib_decompress_ex(
                    decompressor, input.baseAddress, input.count, buffer.baseAddress, buffer.count, &consumed,
                    &produced)
            }
        }
        switch result {
        case LIBDEFLATE_SUCCESS where consumed == stream.count:
            return Array(output[..<produced])
        case LIBDEFLATE_SUCCESS:
            throw SealError(.malformed, "a compressed IDB has \(stream.count - consumed) bytes after its zlib stream")
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw SealError(.tooLarge, "a compressed IDB that inflates past \(maximumInflatedLength) bytes")
        default:
            throw SealError(.malformed, "a compressed IDB whose zlib stream is corrupt")
        }
    }

    /// RFC 4648 Base32 without padding.
    private static func base32(_ text: ArraySlice<UInt8>) throws(SealError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 5 / 8)
        var buffer = 0
        var bits = 0
        for character in text {
            let value: Int
            switch character {
            case 0x41...0x5A: value = Int(character) - 0x41
            case 0x32...0x37: value = Int(character) - 0x32 + 26
            default: throw SealError(.malformed, "an IDB's Base32 holds the byte \(character)")
            }
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
