package dev.emrtd

// The reference's records and enums, name for name and type for type. They are decoded from the
// library's JSON (Json.kt), whose keys are these property names; enum cases are UPPER_SNAKE here
// and lowerCamel in JSON (`jsonName`).

/** An enum of the model: its JSON form is the case's name in lowerCamel. */
interface JsonEnum {
    val name: String
    val jsonName: String
        get() = name.toLowerCase().split('_').mapIndexed { i, part -> if (i == 0) part else part.capitalize() }.joinToString("")
}

enum class AccessControlProtocol : JsonEnum { BAC, PACE }
enum class PaceMapping : JsonEnum { GENERIC_MAPPING, INTEGRATED_MAPPING, CHIP_AUTHENTICATION_MAPPING }
enum class DataStatus : JsonEnum { AUTHENTICATED, DENIED, AUTHORITY_CERTIFICATES_NOT_PROVIDED }
enum class DataProtocol : JsonEnum { PASSIVE_AUTHENTICATION }
enum class HashStatus : JsonEnum { VALID, INVALID, NOT_READ }
enum class ChipStatus : JsonEnum { AUTHENTICATED, DENIED, NOT_SUPPORTED }
enum class ChipProtocol : JsonEnum { PACE_CHIP_AUTHENTICATION_MAPPING, CHIP_AUTHENTICATION, ACTIVE_AUTHENTICATION }
enum class ImageFormat : JsonEnum { JPEG, JPEG2000, PNG, WSQ, UNKNOWN }
enum class TravelDocumentType : JsonEnum { TD1, TD2, TD3 }
enum class ElementaryFileId : JsonEnum {
    COM, SOD, DG1, DG2, DG3, DG4, DG5, DG7, DG8, DG9, DG10, DG11, DG12, DG13, DG14, DG15, DG16
}
enum class ReadErrorKind : JsonEnum { READING_DATA_GROUPS, PARSE_MASTER_FILE, UNKNOWN }

data class TravelDocument(
    val ldsMasterFile: LdsMasterFile,
    val ldsVersion: String,
    val unicodeVersion: String?,
    val accessControlProtocolUsed: AccessControlProtocol,
    val paceMapping: PaceMapping?,
    val authenticationStatus: AuthenticationStatus,
    val machineReadableZoneInformation: MachineReadableZoneInformation,
    val encodedIdentificationFeaturesFace: EncodedIdentificationFeaturesFace,
    val encodedIdentificationFeaturesFinger: EncodedIdentificationFeatures?,
    val encodedIdentificationFeaturesIris: EncodedIdentificationFeatures?,
    val displayedPortrait: DisplayedPortrait?,
    val displayedSignatureOrUsualMark: DisplayedSignatureOrUsualMark?,
    val additionalPersonalDetails: AdditionalPersonalDetails?,
    val additionalDocumentDetails: AdditionalDocumentDetails?,
    val optionalDetails: OptionalDetails?,
    val securityOptions: SecurityOptions?,
    val activeAuthenticationPublicKeyInfo: PublicKeyInfo?,
    val personsToNotify: PersonsToNotify?,
    val warnings: List<String>,
    val debugInfo: DebugInfo
)

data class LdsMasterFile(
    val lds1EmrtdApplication: Lds1EmrtdApplication,
    val cardAccess: ByteArray?,
    val cardSecurity: ByteArray?
)

data class Lds1EmrtdApplication(
    val com: ElementaryFile,
    val sod: ElementaryFile,
    val dg1: ElementaryFile,
    val dg2: ElementaryFile,
    val dg3: ElementaryFile?,
    val dg4: ElementaryFile?,
    val dg5: ElementaryFile?,
    val dg7: ElementaryFile?,
    val dg8: ElementaryFile?,
    val dg9: ElementaryFile?,
    val dg10: ElementaryFile?,
    val dg11: ElementaryFile?,
    val dg12: ElementaryFile?,
    val dg13: ElementaryFile?,
    val dg14: ElementaryFile?,
    val dg15: ElementaryFile?,
    val dg16: ElementaryFile?
)

data class ElementaryFile(val id: ElementaryFileId, val bytes: ByteArray?)

data class ImageSize(val width: UInt, val height: UInt)

data class DocumentImage(val format: ImageFormat, val size: ImageSize, val bytes: ByteArray, val png: ByteArray?)

data class BiometricRecord(
    val biometricType: UInt?,
    val biometricSubtype: UInt?,
    val formatOwner: UInt?,
    val formatType: UInt?,
    val images: List<DocumentImage>,
    val data: ByteArray
)

data class EncodedIdentificationFeaturesFace(val faceImage: DocumentImage?, val records: List<BiometricRecord>)

data class EncodedIdentificationFeatures(val records: List<BiometricRecord>)

data class DisplayedPortrait(val displayedPortraitImage: DocumentImage?)

data class DisplayedSignatureOrUsualMark(val displayedSignatureOrUsualMarkImage: DocumentImage?)

data class NameOfHolder(val primaryIdentifier: String?, val secondaryIdentifier: String?)

data class AdditionalPersonalDetails(
    val nameOfHolder: NameOfHolder?,
    val otherNames: List<String>,
    val personalNumber: String?,
    val fullDateOfBirth: String?,
    val placeOfBirth: List<String>?,
    val address: List<String>?,
    val telephone: String?,
    val profession: String?,
    val title: String?,
    val personalSummary: String?,
    val proofOfCitizenship: DocumentImage?,
    val otherValidTravelDocumentNumbers: List<String>?,
    val custodyInformation: String?
)

data class AdditionalDocumentDetails(
    val issuingAuthority: String?,
    val dateOfIssue: String?,
    val otherPersonDetails: List<String>?,
    val endorsementsOrObservations: String?,
    val taxOrExitRequirements: String?,
    val imageOfFront: DocumentImage?,
    val imageOfRear: DocumentImage?,
    val personalizationTime: String?,
    val personalizationDeviceSerialNumber: String?
)

data class TagValue(val tag: UInt, val value: ByteArray)

data class OptionalDetails(val content: ByteArray, val fields: List<TagValue>)

data class PersonToNotify(val dateRecorded: String?, val name: String?, val telephone: String?, val address: String?)

data class PersonsToNotify(val persons: List<PersonToNotify>)

data class SecurityInfo(
    val protocol: String,
    val name: String,
    val version: Long?,
    val keyId: Long?,
    val parameterId: Long?
)

data class SecurityOptions(val securityInfos: List<SecurityInfo>)

data class PublicKeyInfo(val algorithm: String, val keySize: UInt, val curve: String?, val der: ByteArray)

data class AuthenticationStatus(val data: DataAuthenticationStatus, val chip: ChipAuthenticationStatus)

data class DataGroupHash(val dataGroupNumber: UByte, val status: HashStatus)

data class DataAuthenticationStatus(
    val status: DataStatus,
    val protocol: DataProtocol,
    val sodSignatureValid: Boolean,
    val certificateChainValid: Boolean,
    val dataGroupHashesValid: Boolean,
    val dataGroupHashes: List<DataGroupHash>,
    val hashAlgorithm: String?,
    val signatureAlgorithm: String?,
    val documentSignerCertificate: CertificateInfo?,
    val countrySigningCertificate: CertificateInfo?,
    val issuingCountry: String?,
    val errors: List<String>
)

data class ChipAuthenticationStatus(
    val status: ChipStatus,
    val protocol: ChipProtocol?,
    val activeAuthentication: ChipStatus?,
    val activeAuthenticationResponse: ByteArray?
)

data class CertificateInfo(
    val subject: String,
    val issuer: String,
    val country: String?,
    val organization: String?,
    val commonName: String?,
    val serialNumber: String,
    val notBefore: String,
    val notAfter: String,
    val signatureAlgorithm: String,
    val publicKeyAlgorithm: String,
    val publicKeySize: UInt,
    val subjectKeyIdentifier: String?,
    val authorityKeyIdentifier: String?,
    val sha256Fingerprint: String,
    val der: ByteArray
)

data class MachineReadableZoneInformation(val machineReadableZone: MachineReadableZone, val fields: MrzFields)

data class MrzFields(
    val documentCode: String,
    val issuingState: String,
    val documentNumber: String,
    val primaryIdentifier: String?,
    val secondaryIdentifier: String?,
    val nationality: String,
    val dateOfBirth: String,
    val sex: String,
    val dateOfExpiry: String,
    val optionalData: String?,
    val checkDigitsValid: Boolean
)

data class MachineReadableZone(
    val lines: List<String>,
    val travelDocumentType: TravelDocumentType,
    val td1: Td1MachineReadableZone?,
    val td2: Td2MachineReadableZone?,
    val td3: Td3MachineReadableZone?
)

data class Td1MachineReadableZone(
    val documentCode: Element,
    val issuingStateOrOrganization: Element,
    val name: NameElement,
    val documentNumber: ElementWithCheckDigit,
    val nationality: Element,
    val dateOfBirth: DateElementWithCheckDigit,
    val sex: Element,
    val dateOfExpiry: DateElementWithCheckDigit,
    val optionalData: List<Element>,
    val compositeCheckDigit: CheckDigit
)

data class Td2MachineReadableZone(
    val documentCode: Element,
    val issuingStateOrOrganization: Element,
    val name: NameElement,
    val documentNumber: ElementWithCheckDigit,
    val nationality: Element,
    val dateOfBirth: DateElementWithCheckDigit,
    val sex: Element,
    val dateOfExpiry: DateElementWithCheckDigit,
    val optionalData: Element?,
    val compositeCheckDigit: CheckDigit?
)

data class Td3MachineReadableZone(
    val documentCode: Element,
    val issuingStateOrOrganization: Element,
    val name: NameElement,
    val passportNumber: ElementWithCheckDigit,
    val nationality: Element,
    val dateOfBirth: DateElementWithCheckDigit,
    val sex: Element,
    val dateOfExpiry: DateElementWithCheckDigit,
    val personalNumberOrOtherOptionalData: ElementWithCheckDigit,
    val compositeCheckDigit: CheckDigit?
)

data class StringPosition(val lineIndex: UInt, val startIndex: UInt, val endIndex: UInt)

data class CheckDigit(val isValid: Boolean, val value: String)

data class MrzDate(val year: UInt?, val month: UInt?, val day: UInt?)

data class Element(val value: String, val raw: String, val positions: List<StringPosition>)

data class ElementWithCheckDigit(
    val value: String,
    val raw: String,
    val positions: List<StringPosition>,
    val checkDigit: CheckDigit
)

data class DateElementWithCheckDigit(
    val date: MrzDate,
    val value: String,
    val raw: String,
    val positions: List<StringPosition>,
    val checkDigit: CheckDigit
)

data class NameElement(val primaryIdentifier: Element?, val secondaryIdentifier: Element?)

data class DebugEvent(val timestampMillis: ULong, val message: String)

data class DebugInfo(val events: List<DebugEvent> = listOf())

data class ReadOutcome(
    val resultStatus: String,
    val resultError: String?,
    val accessControlProtocol: AccessControlProtocol?,
    val paceMapping: PaceMapping?,
    val chipAuthenticationStatus: ChipStatus?,
    val chipAuthenticationProtocol: ChipProtocol?,
    val dataAuthenticationStatus: DataStatus?,
    val mrzIssuingState: String?,
    val mrzDocumentCode: String?,
    val dataGroups: List<ElementaryFileId>,
    val durationMs: ULong
)

/** What the reader trusts and how long the platform transport waits for one answer. */
data class ReaderConfig(
    val useBuiltInAuthorityCertificates: Boolean = true,
    val authorityCertificates: List<ByteArray> = listOf(),
    val timeoutMs: UInt = 5000u,
    val debug: Boolean = false
) {
    companion object {
        /** For Java, which cannot call a constructor with a UInt parameter: `timeoutMs` from 0 to 2^32 - 1. */
        @JvmStatic
        fun of(useBuiltInAuthorityCertificates: Boolean, authorityCertificates: List<ByteArray>, timeoutMs: Long, debug: Boolean): ReaderConfig {
            require(timeoutMs in 0..UInt.MAX_VALUE.toLong()) { "timeoutMs must be from 0 to ${UInt.MAX_VALUE}, not $timeoutMs" }
            return ReaderConfig(useBuiltInAuthorityCertificates, authorityCertificates, timeoutMs.toUInt(), debug)
        }
    }
}

/** What opens the chip: the MRZ's document number and dates (BAC or PACE), or the CAN (PACE). */
sealed class AccessKey {
    data class Mrz(val documentNumber: String, val dateOfBirth: String, val dateOfExpiry: String) : AccessKey() {
        override fun toString() = "AccessKey.Mrz(<redacted>)"
    }

    data class Can(val value: String) : AccessKey() {
        override fun toString() = "AccessKey.Can(<redacted>)"
    }
}
