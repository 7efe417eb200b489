import ASN1
import Foundation

/// A Visible Digital Seal made for tests (ICAO Doc 9303-13, version 4 header), signed by a fresh
/// test PKI: a CSCA and a seal signer under it (C=UT, CN=TS, the serial number the header's
/// certificate reference), ECDSA P-256 with SHA-256. Written apart from the `Seals` package's
/// reader (its own C40 encoder and layout), so that one checks the other. Never for production:
/// the keys are thrown away.
public struct SealSpecimen: Sendable {
    /// A feature's value as it is encoded in the message zone.
    public enum Value: Sendable, Hashable {
        /// Upper-case letters, digits, space and `<` (written as a space), in C40.
        case c40(String)
        case utf8(String)
        case bytes([UInt8])
    }

    /// The seal's bytes: header, message zone, signature zone.
    public let seal: [UInt8]
    /// DER of the CSCA, which a reader must trust.
    public let countrySigningCertificate: [UInt8]
    /// DER of the seal signer, which a reader must be given (a VDS does not carry it).
    public let signerCertificate: [UInt8]

    /// Makes a seal of the document type `reference` (feature definition reference and type
    /// category, `0x5D01` a visa) with `features` (tag and value) in order, issued and signed on
    /// `time`'s day by a signer and CSCA valid from the day before for a year.
    public static func make(
        reference: UInt16, features: [(UInt8, Value)], issuingCountry: String = "UTO", at time: Date = Date()
    ) throws(ChipSimulatorError) -> SealSpecimen {
        let serial = 0x5A
        let (authority, signer, signerKey, _) = try TestCertificate.authorityAndSigner(
            authorityName: TestCertificate.name([("C", "UT"), ("CN", "emrtd simulator seal CSCA")]),
            signerName: TestCertificate.name([("C", "UT"), ("CN", "TS")]), signerSerial: serial, at: time)

        let date = compactDate(time)
        var body: [UInt8] = [0xDC, 0x03]
        body += try c40(issuingCountry) + c40("UTTS02") + c40("5A") + date + date
        body += [UInt8(reference >> 8), UInt8(reference & 0xFF)]
        for (tag, value) in features {
            let bytes: [UInt8]
            switch value {
            case .c40(let text): bytes = try c40(text)
            case .utf8(let text): bytes = Array(text.utf8)
            case .bytes(let raw): bytes = raw
            }
            body += [tag] + DER.length(bytes.count) + bytes
        }
        let signature = try plainSignature(signerKey.signSHA256(body))
        return SealSpecimen(
            seal: body + [0xFF] + DER.length(signature.count) + signature, countrySigningCertificate: authority,
            signerCertificate: signer)
    }

    /// 9303-13 §2.3.1: MMDDYYYY as a number in three bytes.
    static func compactDate(_ time: Date) -> [UInt8] {
        let day = UTCDateTime(time)
        let value = day.month * 1_000_000 + day.day * 10_000 + day.year
        return [UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// C40 (ISO/IEC 16022): three characters in two bytes, `1600·c1 + 40·c2 + c3 + 1`; two left
    /// over are padded with Shift 1 (0); one left over is `FE` and its ASCII code + 1.
    static func c40(_ text: String) throws(ChipSimulatorError) -> [UInt8] {
        var values: [Int] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case " ", "<": values.append(3)
            case "0"..."9": values.append(Int(scalar.value) - 44)
            case "A"..."Z": values.append(Int(scalar.value) - 51)
            default: throw ChipSimulatorError("C40 has no \(scalar)")
            }
        }
        var bytes: [UInt8] = []
        var index = 0
        while values.count - index >= 2 {
            let triple = values[index..<min(index + 3, values.count)] + (values.count - index == 2 ? [0] : [])
            let value =
                1600 * triple[triple.startIndex] + 40 * triple[triple.startIndex + 1]
                + triple[triple.startIndex + 2] + 1
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            index += 3
        }
        if index < values.count, let last = text.unicodeScalars.last {
            bytes += [0xFE, UInt8(last.value + 1)]
        }
        return bytes
    }

    /// DER `Ecdsa-Sig-Value` to r‖s of 32 bytes each (the seal's form).
    private static func plainSignature(_ der: [UInt8]) throws(ChipSimulatorError) -> [UInt8] {
        guard let node = try? ASN1Node.parse(der), node.children.count == 2,
            let r = try? node.children[0].unsignedIntegerBytes(), let s = try? node.children[1].unsignedIntegerBytes(),
            r.count <= 32, s.count <= 32
        else { throw ChipSimulatorError("OpenSSL's ECDSA signature is not two integers") }
        return [UInt8](repeating: 0, count: 32 - r.count) + Array(r) + [UInt8](repeating: 0, count: 32 - s.count)
            + Array(s)
    }
}
