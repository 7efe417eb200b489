import AccessControl
import CMS
import Foundation
import ICAO
import JSON
import LDS
import MRZ

/// What one read of a chip gives: every file as read, each one parsed, and the two verdicts —
/// is the data what the issuing state signed (`authenticationStatus.data`), and is the chip the
/// one the data was issued with (`authenticationStatus.chip`).
///
/// A data group that was not read, or could not be parsed, is nil (`null` in the JSON, with a
/// warning saying why when it was expected).
public struct TravelDocument: Sendable {
    /// The raw bytes of every file read.
    public var ldsMasterFile: LdsMasterFile
    /// EF.COM's LDS version as stored ("0107"); nil when EF.COM holds none.
    public var ldsVersionRaw: String?
    /// EF.COM's Unicode version as stored ("040000").
    public var unicodeVersionRaw: String?
    public var accessControlProtocolUsed: AccessControlProtocol
    /// The PACE mapping when PACE opened the chip; nil after BAC.
    public var paceMapping: PaceMapping?
    /// The PACE run that opened the chip (protocol, parameter ID, password); nil after BAC. In the
    /// JSON as `pace`, a key this project adds beside the reference model's `paceMapping`.
    public var pace: PACEResult?
    public var authenticationStatus: AuthenticationStatus
    /// DG1, parsed: always there, as the reference's (a read whose DG1 is missing or does not
    /// parse fails).
    public var machineReadableZoneInformation: MachineReadableZoneInformation
    /// DG2. Always present, as the reference's: `.empty` (and a warning) when DG2 did not parse.
    public var encodedIdentificationFeaturesFace: EncodedIdentificationFeaturesFace
    /// DG3 (Extended Access Control protects it: denied unless Terminal Authentication opened it).
    public var encodedIdentificationFeaturesFinger: EncodedIdentificationFeatures?
    /// DG4 (usually denied, as DG3).
    public var encodedIdentificationFeaturesIris: EncodedIdentificationFeatures?
    /// DG5.
    public var displayedPortrait: DisplayedPortrait?
    /// DG7, the displayed signature or usual mark.
    public var displayedSignatureOrUsualMark: DisplayedSignatureOrUsualMark?
    /// DG11.
    public var additionalPersonalDetails: AdditionalPersonalDetails?
    /// DG12.
    public var additionalDocumentDetails: AdditionalDocumentDetails?
    /// DG13.
    public var optionalDetails: OptionalDetails?
    /// DG14: the Chip Authentication and PACE SecurityInfos.
    public var securityOptions: SecurityOptions?
    /// DG15: the Active Authentication public key.
    public var activeAuthenticationPublicKeyInfo: PublicKeyInfo?
    /// DG16.
    public var personsToNotify: PersonsToNotify?
    /// What was tolerated: missing mandatory files, files that did not parse, BAC used instead of
    /// PACE, a chip that ended secure messaging early…
    public var warnings: [String]
    /// The read's log and counters (the log only with `ReaderConfig.debug`).
    public var debugInfo: DebugInfo
    /// What the read proved beyond the files, for a dump's `evidence.json` (this project's, not
    /// in the reference's JSON); nil for a dump written without it.
    public var acquisitionEvidence: AcquisitionEvidence?

    /// Files the chip refused to give (6982: DG3/DG4 need Extended Access Control).
    public var deniedFiles: [LDSFileKind] { ldsMasterFile.deniedFiles }

    /// The LDS version, dotted as the reference has it ("1.7"); empty when EF.COM holds none
    /// (`null` in the JSON).
    public var ldsVersion: String { ldsVersionRaw.map(CommonFile.dottedVersion) ?? "" }
    /// The Unicode version, dotted ("4.0.0").
    public var unicodeVersion: String? { unicodeVersionRaw.map(CommonFile.dottedVersion) }
}

/// The reference model's name for the PACE mapping type (`ICAO.PACEMapping`).
public typealias PaceMapping = PACEMapping

/// Both verdicts of a read.
public struct AuthenticationStatus: Sendable {
    /// Passive Authentication: the SOD signature, the chain to a trusted CSCA, every hash.
    public var data: DataAuthenticationStatus
    /// Chip Authentication, PACE-CAM or Active Authentication.
    public var chip: ChipAuthenticationStatus
    /// Terminal Authentication (this project's, beside the reference's two verdicts): whether
    /// the read authenticated as an inspection system to open DG3 and DG4, and why not.
    public var terminal: TerminalAuthenticationStatus
}

/// The chip verdict: did the chip prove it holds the private key the signed data names?
public struct ChipAuthenticationStatus: Sendable, Hashable {
    public var status: ChipStatus
    /// The protocol that gave the verdict; nil when none ran.
    public var `protocol`: ChipProtocol?
    /// Active Authentication's own result when it ran (beside or instead of Chip Authentication
    /// or PACE-CAM); nil when it did not run.
    public var activeAuthentication: ChipStatus?
    /// The chip's INTERNAL AUTHENTICATE answer (the AA signature), when AA ran.
    public var activeAuthenticationResponse: Data?
    /// Why the verdict is what it is, in one sentence.
    public var reason: String
}

/// The chip verdict.
public enum ChipStatus: String, Sendable, Hashable, JSONEnum {
    case authenticated
    case denied
    /// No protocol that proves the chip genuine was available or run.
    case notSupported
}

/// The protocol behind a chip verdict.
public enum ChipProtocol: String, Sendable, Hashable, JSONEnum {
    case paceChipAuthenticationMapping
    case chipAuthentication
    case activeAuthentication
}

// MARK: - JSON

extension TravelDocument: JSONRepresentable {
    /// The document as the reference model's JSON contract shapes it (`Packages/Output/README.md`
    /// states the rules): every key of its `TravelDocument`, absent values `null`, bytes as padded
    /// base64, enums by case name. Added: `pace` (the PACE run), `deniedFiles`, and the versions
    /// as stored (`ldsVersionRaw`, `unicodeVersionRaw`), `authenticationStatus.terminal`.
    public var json: JSONValue {
        return [
            "ldsMasterFile": ldsMasterFile.json,
            "ldsVersion": .optional(ldsVersionRaw.map(CommonFile.dottedVersion)),
            "ldsVersionRaw": .optional(ldsVersionRaw),
            "unicodeVersion": .optional(unicodeVersion),
            "unicodeVersionRaw": .optional(unicodeVersionRaw),
            "accessControlProtocolUsed": accessControlProtocolUsed.json,
            "paceMapping": .optional(paceMapping),
            "pace": pace.map(paceJSON) ?? .null,
            "authenticationStatus": authenticationStatus.json,
            "machineReadableZoneInformation": machineReadableZoneInformation.json,
            "encodedIdentificationFeaturesFace": encodedIdentificationFeaturesFace.json,
            "encodedIdentificationFeaturesFinger": .optional(encodedIdentificationFeaturesFinger),
            "encodedIdentificationFeaturesIris": .optional(encodedIdentificationFeaturesIris),
            "displayedPortrait": .optional(displayedPortrait),
            "displayedSignatureOrUsualMark": .optional(displayedSignatureOrUsualMark),
            "additionalPersonalDetails": .optional(additionalPersonalDetails),
            "additionalDocumentDetails": .optional(additionalDocumentDetails),
            "optionalDetails": .optional(optionalDetails),
            "securityOptions": .optional(securityOptions),
            "activeAuthenticationPublicKeyInfo": .optional(activeAuthenticationPublicKeyInfo),
            "personsToNotify": .optional(personsToNotify),
            "deniedFiles": .array(deniedFiles),
            "warnings": .array(warnings.map(JSONValue.string)),
            "debugInfo": debugInfo.json,
        ]
    }
}

/// A PACE run as JSON: the protocol's OID and name, its parts, the parameters and the password
/// kind (never the password).
func paceJSON(_ pace: PACEResult) -> JSONValue {
    return [
        "protocol": .string(pace.paceProtocol.identifier.dotted),
        "protocolName": .string(pace.paceProtocol.description),
        "mapping": pace.paceProtocol.mapping.json,
        "keyAgreement": pace.paceProtocol.keyAgreement.json,
        "cipher": pace.paceProtocol.cipher.json,
        "parameterId": .optional(pace.parameterId),
        "parameterName": .optional(pace.standardizedDomainParameters?.name),
        "password": .string("\(pace.password)"),
    ]
}

extension AuthenticationStatus: JSONRepresentable {
    public var json: JSONValue {
        ["data": data.json, "chip": chip.json, "terminal": terminal.json]
    }
}

extension ChipAuthenticationStatus: JSONRepresentable {
    public var json: JSONValue {
        [
            "status": status.json,
            "protocol": .optional(`protocol`),
            "activeAuthentication": .optional(activeAuthentication),
            "activeAuthenticationResponse": .optional(activeAuthenticationResponse.map { [UInt8]($0) }),
            "reason": .string(reason),
        ]
    }
}

/// The document as JSON text (the `emrtd read --json` output).
public func travelDocumentToJson(document: TravelDocument, prettyPrinted: Bool = true) -> String {
    document.json.serialized(pretty: prettyPrinted)
}
