import ASN1
import Foundation

/// A seal as a barcode gives it: a VDS (ICAO Doc 9303-13) or a VDS-NC (its JSON).
public enum Seal: Sendable, Equatable {
    case vds(VisibleDigitalSeal)
    case nonConstrained(VisibleDigitalSealNonConstrained)
    case idb(IDBSeal)

    /// Reads what a barcode reader emits: the raw bytes of a VDS (`DC` …), the same as
    /// hexadecimal text, or as one character per byte (base256 as ISO 8859-1, `Ü` …, which
    /// readers print as UTF-8), a VDS-NC's JSON, or an IDB's text (`RDB1…`). Surrounding whitespace is ignored in text.
    public init(barcode bytes: [UInt8]) throws(SealError) {
        guard bytes.count <= 4 * VisibleDigitalSeal.maximumLength else {
            throw SealError(.tooLarge, "a barcode of \(bytes.count) bytes")
        }
        if bytes.first == 0xDC {
            self = .vds(try VisibleDigitalSeal(bytes: bytes))
            return
        }
        guard let marked = String(validating: bytes, as: UTF8.self) else {
            throw SealError(.malformed, "neither a VDS (DC …) nor text")
        }
        // A byte order mark (an editor's UTF-8 file) is no part of the text.
        let text = marked.unicodeScalars.first == "\u{FEFF}" ? String(marked.unicodeScalars.dropFirst()) : marked
        if text.unicodeScalars.first == "\u{DC}" {
            // Base256 as ISO 8859-1: every character a byte, kept as they are but for the one
            // line break a reader ends its output with (the signature may end in a space).
            let scalars = text.hasSuffix("\n") ? text.unicodeScalars.dropLast() : text.unicodeScalars[...]
            guard scalars.allSatisfy({ $0.value < 256 }) else {
                throw SealError(.malformed, "base256 text with a character beyond ISO 8859-1")
            }
            self = .vds(try VisibleDigitalSeal(bytes: scalars.map { UInt8($0.value) }))
            return
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("RDB1") || trimmed.hasPrefix("NDB1") {
            self = .idb(try IDBSeal(text: trimmed))
        } else if trimmed.hasPrefix("{") {
            self = .nonConstrained(try VisibleDigitalSealNonConstrained(bytes: Array(trimmed.utf8)))
        } else if trimmed.uppercased().hasPrefix("DC"), let decoded = Hex.decode(trimmed) {
            self = .vds(try VisibleDigitalSeal(bytes: decoded))
        } else {
            throw SealError(.malformed, "neither a VDS (DC …, as bytes, hexadecimal or base256) nor a VDS-NC (JSON)")
        }
    }

    /// The MRZ the seal carries, one string a line (a VDS-NC carries none).
    public var machineReadableZoneLines: [String]? {
        switch self {
        case .vds(let seal): seal.machineReadableZoneLines
        case .idb(let seal): seal.features.lazy.compactMap(\.machineReadableZoneLines).first
        case .nonConstrained: nil
        }
    }

    /// The passport or document number the seal names besides its MRZ (a visa's passport, an
    /// address sticker's identity card, a VDS-NC's `pid.i`).
    public var documentNumber: String? {
        switch self {
        case .vds(let seal):
            for name in ["PASSPORT_NUMBER", "DOCUMENT_NUMBER"] {
                if case .text(let number)? = seal.feature(named: name)?.value { return number }
            }
            return nil
        case .nonConstrained(let seal): return seal.message("pid.i")
        case .idb(let seal):
            guard case .text(let number)? = seal.features.first(where: { $0.name == "DOCUMENT_NUMBER" })?.value
            else { return nil }
            return number
        }
    }
}
