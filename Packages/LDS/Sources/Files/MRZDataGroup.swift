import ASN1
import Foundation
import JSON
import MRZ

/// DG1: the machine readable zone as the chip stores it (ICAO 9303-10 §4.7.1), parsed by the MRZ
/// package.
///
/// ```
/// 61 { 5F1F MRZ data: 90 (TD1), 72 (TD2) or 88 (TD3) characters, no line breaks }
/// ```
public struct MRZDataGroup: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    /// The 5F1F content as text.
    public let mrzText: String
    public let machineReadableZone: MachineReadableZone
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let (node, warnings) = try OuterTLV.parse(bytes, kind: .dg1)
        let data = try asn1 { () throws(ASN1Error) in try node.requiredChild(ASN1Tag(0x5F1F), "MRZ data") }
        rawBytes = bytes
        mrzText = data.text
        machineReadableZone = try Self.parse(mrzText)
        // A zone with a wrong check digit or an impossible date still parses (it is what the chip
        // holds, and signed), but whoever reads it is told.
        self.warnings = warnings + MRZValidity(machineReadableZone, at: Date()).problems
    }

    /// Splits the stored characters into the document's lines by their count and parses them.
    static func parse(_ text: String) throws(LDSError) -> MachineReadableZone {
        let characters = Array(text)
        let lineLength: Int
        switch characters.count {
        case 90: lineLength = 30
        case 72: lineLength = 36
        case 88: lineLength = 44
        default:
            throw LDSError(.malformed, "DG1 holds \(characters.count) MRZ characters; expected 90, 72 or 88")
        }
        let lines = stride(from: 0, to: characters.count, by: lineLength).map {
            String(characters[$0..<$0 + lineLength])
        }
        do {
            return try MachineReadableZone.parse(lines: lines)
        } catch {
            throw LDSError(.malformed, "DG1 MRZ: \(error.reason)")
        }
    }

    /// The reference's `MachineReadableZoneInformation` (`machineReadableZone`, `fields`), the
    /// text as stored beside (`mrzText`).
    public var json: JSONValue {
        guard case .object(let members) = MachineReadableZoneInformation(machineReadableZone).json else {
            return .null
        }
        return .object(members + [JSONMember("mrzText", .string(mrzText))])
    }
}
