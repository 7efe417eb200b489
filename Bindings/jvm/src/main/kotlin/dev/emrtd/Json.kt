package dev.emrtd

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonNull
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import com.google.gson.JsonPrimitive
import java.util.Base64

/** The library answered JSON this binding cannot decode: a bug of one of them, never the caller's. */
internal class ModelDecodingException(message: String) : Exception(message)

/** One JSON object of the library's answer, read by the reference's property names. */
internal class JsonFields(private val obj: JsonObject, private val path: String) {
    val raw: JsonObject
        get() = obj

    private fun value(key: String): JsonElement? = obj.get(key)?.takeUnless { it.isJsonNull }

    private fun fail(key: String, what: String): Nothing = throw ModelDecodingException("$path.$key: $what")

    private fun primitive(key: String): JsonPrimitive? {
        val element = value(key) ?: return null
        return element as? JsonPrimitive ?: fail(key, "not a plain value")
    }

    fun stringOrNull(key: String): String? = primitive(key)?.let { if (it.isString) it.asString else fail(key, "not text") }
    fun string(key: String): String = stringOrNull(key) ?: fail(key, "missing")
    fun boolean(key: String): Boolean =
        primitive(key)?.let { if (it.isBoolean) it.asBoolean else fail(key, "not a boolean") } ?: fail(key, "missing")

    fun longOrNull(key: String): Long? = primitive(key)?.let {
        if (!it.isNumber) fail(key, "not a number")
        it.asBigDecimal.toBigIntegerExact().toLong()
    }

    fun uintOrNull(key: String): UInt? = longOrNull(key)?.let {
        if (it < 0 || it > UInt.MAX_VALUE.toLong()) fail(key, "$it is out of range") else it.toUInt()
    }

    fun uint(key: String): UInt = uintOrNull(key) ?: fail(key, "missing")
    fun ulong(key: String): ULong = longOrNull(key)?.let { if (it < 0) fail(key, "negative") else it.toULong() } ?: fail(key, "missing")
    fun ubyte(key: String): UByte = uint(key).let { if (it > 255u) fail(key, "$it is out of range") else it.toUByte() }

    fun bytesOrNull(key: String): ByteArray? = stringOrNull(key)?.let {
        try {
            Base64.getDecoder().decode(it)
        } catch (error: IllegalArgumentException) {
            fail(key, "not base64")
        }
    }

    fun bytes(key: String): ByteArray = bytesOrNull(key) ?: fail(key, "missing")

    fun objectOrNull(key: String): JsonFields? = value(key)?.let {
        JsonFields(it as? JsonObject ?: fail(key, "not an object"), "$path.$key")
    }

    fun obj(key: String): JsonFields = objectOrNull(key) ?: fail(key, "missing")

    private fun arrayOrNull(key: String): JsonArray? = value(key)?.let { it as? JsonArray ?: fail(key, "not an array") }

    fun objectsOrNull(key: String): List<JsonFields>? = arrayOrNull(key)?.mapIndexed { index, element ->
        JsonFields(element as? JsonObject ?: fail("$key[$index]", "not an object"), "$path.$key[$index]")
    }

    fun objects(key: String): List<JsonFields> = objectsOrNull(key) ?: fail(key, "missing")

    fun stringsOrNull(key: String): List<String>? = arrayOrNull(key)?.mapIndexed { index, element ->
        (element as? JsonPrimitive)?.takeIf { it.isString }?.asString ?: fail("$key[$index]", "not text")
    }

    fun strings(key: String): List<String> = stringsOrNull(key) ?: fail(key, "missing")

    fun <E> enumOrNull(key: String, cases: Array<E>): E? where E : Enum<E>, E : JsonEnum =
        stringOrNull(key)?.let { text -> cases.firstOrNull { it.jsonName == text } ?: fail(key, "unknown case '$text'") }

    fun <E> enum(key: String, cases: Array<E>): E where E : Enum<E>, E : JsonEnum = enumOrNull(key, cases) ?: fail(key, "missing")

    companion object {
        fun parse(text: String, what: String): JsonFields {
            val element = try {
                JsonParser.parseString(text)
            } catch (error: RuntimeException) {
                throw ModelDecodingException("$what is not JSON: ${error.message}")
            }
            return JsonFields(element as? JsonObject ?: throw ModelDecodingException("$what is not a JSON object"), what)
        }
    }
}

// The decoders, one per record: the reference's keys; keys this project adds are ignored.

internal fun JsonFields.travelDocument() = TravelDocument(
    ldsMasterFile = obj("ldsMasterFile").ldsMasterFile(),
    ldsVersion = string("ldsVersion"),
    unicodeVersion = stringOrNull("unicodeVersion"),
    accessControlProtocolUsed = enum("accessControlProtocolUsed", AccessControlProtocol.values()),
    paceMapping = enumOrNull("paceMapping", PaceMapping.values()),
    authenticationStatus = obj("authenticationStatus").let {
        AuthenticationStatus(it.obj("data").dataAuthenticationStatus(), it.obj("chip").chipAuthenticationStatus())
    },
    machineReadableZoneInformation = obj("machineReadableZoneInformation").let {
        MachineReadableZoneInformation(it.obj("machineReadableZone").machineReadableZone(), it.obj("fields").mrzFields())
    },
    encodedIdentificationFeaturesFace = obj("encodedIdentificationFeaturesFace").let {
        EncodedIdentificationFeaturesFace(it.objectOrNull("faceImage")?.documentImage(), it.objects("records").map { r -> r.biometricRecord() })
    },
    encodedIdentificationFeaturesFinger = objectOrNull("encodedIdentificationFeaturesFinger")?.encodedIdentificationFeatures(),
    encodedIdentificationFeaturesIris = objectOrNull("encodedIdentificationFeaturesIris")?.encodedIdentificationFeatures(),
    displayedPortrait = objectOrNull("displayedPortrait")?.let {
        DisplayedPortrait(it.objectOrNull("displayedPortraitImage")?.documentImage())
    },
    displayedSignatureOrUsualMark = objectOrNull("displayedSignatureOrUsualMark")?.let {
        DisplayedSignatureOrUsualMark(it.objectOrNull("displayedSignatureOrUsualMarkImage")?.documentImage())
    },
    additionalPersonalDetails = objectOrNull("additionalPersonalDetails")?.additionalPersonalDetails(),
    additionalDocumentDetails = objectOrNull("additionalDocumentDetails")?.additionalDocumentDetails(),
    optionalDetails = objectOrNull("optionalDetails")?.let {
        OptionalDetails(it.bytes("content"), it.objects("fields").map { f -> TagValue(f.uint("tag"), f.bytes("value")) })
    },
    securityOptions = objectOrNull("securityOptions")?.let {
        SecurityOptions(it.objects("securityInfos").map { s ->
            SecurityInfo(s.string("protocol"), s.string("name"), s.longOrNull("version"), s.longOrNull("keyId"), s.longOrNull("parameterId"))
        })
    },
    activeAuthenticationPublicKeyInfo = objectOrNull("activeAuthenticationPublicKeyInfo")?.let {
        PublicKeyInfo(it.string("algorithm"), it.uint("keySize"), it.stringOrNull("curve"), it.bytes("der"))
    },
    personsToNotify = objectOrNull("personsToNotify")?.let {
        PersonsToNotify(it.objects("persons").map { p ->
            PersonToNotify(p.stringOrNull("dateRecorded"), p.stringOrNull("name"), p.stringOrNull("telephone"), p.stringOrNull("address"))
        })
    },
    warnings = strings("warnings"),
    debugInfo = objectOrNull("debugInfo")?.debugInfo() ?: DebugInfo()
)

private fun JsonFields.ldsMasterFile(): LdsMasterFile {
    val files = obj("lds1EmrtdApplication")
    fun file(key: String) = files.objectOrNull(key)?.let { ElementaryFile(it.enum("id", ElementaryFileId.values()), it.bytesOrNull("bytes")) }
    fun mandatory(key: String) = file(key) ?: throw ModelDecodingException("ldsMasterFile.lds1EmrtdApplication.$key: missing")
    return LdsMasterFile(
        Lds1EmrtdApplication(
            mandatory("com"), mandatory("sod"), mandatory("dg1"), mandatory("dg2"), file("dg3"), file("dg4"), file("dg5"),
            file("dg7"), file("dg8"), file("dg9"), file("dg10"), file("dg11"), file("dg12"), file("dg13"), file("dg14"),
            file("dg15"), file("dg16")
        ),
        bytesOrNull("cardAccess"),
        bytesOrNull("cardSecurity")
    )
}

private fun JsonFields.documentImage() = DocumentImage(
    enum("format", ImageFormat.values()),
    obj("size").let { ImageSize(it.uint("width"), it.uint("height")) },
    bytes("bytes"),
    bytesOrNull("png")
)

private fun JsonFields.biometricRecord() = BiometricRecord(
    uintOrNull("biometricType"), uintOrNull("biometricSubtype"), uintOrNull("formatOwner"), uintOrNull("formatType"),
    objects("images").map { it.documentImage() }, bytes("data")
)

private fun JsonFields.encodedIdentificationFeatures() = EncodedIdentificationFeatures(objects("records").map { it.biometricRecord() })

private fun JsonFields.additionalPersonalDetails() = AdditionalPersonalDetails(
    nameOfHolder = objectOrNull("nameOfHolder")?.let { NameOfHolder(it.stringOrNull("primaryIdentifier"), it.stringOrNull("secondaryIdentifier")) },
    otherNames = stringsOrNull("otherNames") ?: listOf(),
    personalNumber = stringOrNull("personalNumber"),
    fullDateOfBirth = stringOrNull("fullDateOfBirth"),
    placeOfBirth = stringsOrNull("placeOfBirth"),
    address = stringsOrNull("address"),
    telephone = stringOrNull("telephone"),
    profession = stringOrNull("profession"),
    title = stringOrNull("title"),
    personalSummary = stringOrNull("personalSummary"),
    proofOfCitizenship = objectOrNull("proofOfCitizenship")?.documentImage(),
    otherValidTravelDocumentNumbers = stringsOrNull("otherValidTravelDocumentNumbers"),
    custodyInformation = stringOrNull("custodyInformation")
)

private fun JsonFields.additionalDocumentDetails() = AdditionalDocumentDetails(
    issuingAuthority = stringOrNull("issuingAuthority"),
    dateOfIssue = stringOrNull("dateOfIssue"),
    otherPersonDetails = stringsOrNull("otherPersonDetails"),
    endorsementsOrObservations = stringOrNull("endorsementsOrObservations"),
    taxOrExitRequirements = stringOrNull("taxOrExitRequirements"),
    imageOfFront = objectOrNull("imageOfFront")?.documentImage(),
    imageOfRear = objectOrNull("imageOfRear")?.documentImage(),
    personalizationTime = stringOrNull("personalizationTime"),
    personalizationDeviceSerialNumber = stringOrNull("personalizationDeviceSerialNumber")
)

private fun JsonFields.dataAuthenticationStatus() = DataAuthenticationStatus(
    status = enum("status", DataStatus.values()),
    protocol = enum("protocol", DataProtocol.values()),
    sodSignatureValid = boolean("sodSignatureValid"),
    certificateChainValid = boolean("certificateChainValid"),
    dataGroupHashesValid = boolean("dataGroupHashesValid"),
    dataGroupHashes = objects("dataGroupHashes").map { DataGroupHash(it.ubyte("dataGroupNumber"), it.enum("status", HashStatus.values())) },
    hashAlgorithm = stringOrNull("hashAlgorithm"),
    signatureAlgorithm = stringOrNull("signatureAlgorithm"),
    documentSignerCertificate = objectOrNull("documentSignerCertificate")?.certificateInfo(),
    countrySigningCertificate = objectOrNull("countrySigningCertificate")?.certificateInfo(),
    issuingCountry = stringOrNull("issuingCountry"),
    errors = strings("errors")
)

private fun JsonFields.chipAuthenticationStatus() = ChipAuthenticationStatus(
    enum("status", ChipStatus.values()),
    enumOrNull("protocol", ChipProtocol.values()),
    enumOrNull("activeAuthentication", ChipStatus.values()),
    bytesOrNull("activeAuthenticationResponse")
)

internal fun JsonFields.certificateInfo() = CertificateInfo(
    subject = string("subject"),
    issuer = string("issuer"),
    country = stringOrNull("country"),
    organization = stringOrNull("organization"),
    commonName = stringOrNull("commonName"),
    serialNumber = string("serialNumber"),
    notBefore = string("notBefore"),
    notAfter = string("notAfter"),
    signatureAlgorithm = string("signatureAlgorithm"),
    publicKeyAlgorithm = string("publicKeyAlgorithm"),
    publicKeySize = uint("publicKeySize"),
    subjectKeyIdentifier = stringOrNull("subjectKeyIdentifier"),
    authorityKeyIdentifier = stringOrNull("authorityKeyIdentifier"),
    sha256Fingerprint = string("sha256Fingerprint"),
    der = bytes("der")
)

private fun JsonFields.mrzFields() = MrzFields(
    string("documentCode"), string("issuingState"), string("documentNumber"), stringOrNull("primaryIdentifier"),
    stringOrNull("secondaryIdentifier"), string("nationality"), string("dateOfBirth"), string("sex"), string("dateOfExpiry"),
    stringOrNull("optionalData"), boolean("checkDigitsValid")
)

internal fun JsonFields.machineReadableZone() = MachineReadableZone(
    strings("lines"),
    enum("travelDocumentType", TravelDocumentType.values()),
    objectOrNull("td1")?.let {
        Td1MachineReadableZone(
            it.element("documentCode"), it.element("issuingStateOrOrganization"), it.nameElement("name"),
            it.elementWithCheckDigit("documentNumber"), it.element("nationality"), it.dateElement("dateOfBirth"), it.element("sex"),
            it.dateElement("dateOfExpiry"), it.objects("optionalData").map { e -> e.toElement() }, it.obj("compositeCheckDigit").checkDigit()
        )
    },
    objectOrNull("td2")?.let {
        Td2MachineReadableZone(
            it.element("documentCode"), it.element("issuingStateOrOrganization"), it.nameElement("name"),
            it.elementWithCheckDigit("documentNumber"), it.element("nationality"), it.dateElement("dateOfBirth"), it.element("sex"),
            it.dateElement("dateOfExpiry"), it.objectOrNull("optionalData")?.toElement(), it.objectOrNull("compositeCheckDigit")?.checkDigit()
        )
    },
    objectOrNull("td3")?.let {
        Td3MachineReadableZone(
            it.element("documentCode"), it.element("issuingStateOrOrganization"), it.nameElement("name"),
            it.elementWithCheckDigit("passportNumber"), it.element("nationality"), it.dateElement("dateOfBirth"), it.element("sex"),
            it.dateElement("dateOfExpiry"), it.elementWithCheckDigit("personalNumberOrOtherOptionalData"),
            it.objectOrNull("compositeCheckDigit")?.checkDigit()
        )
    }
)

private fun JsonFields.positions() = objects("positions").map { StringPosition(it.uint("lineIndex"), it.uint("startIndex"), it.uint("endIndex")) }
private fun JsonFields.toElement() = Element(string("value"), string("raw"), positions())
private fun JsonFields.checkDigit() = CheckDigit(boolean("isValid"), string("value"))
private fun JsonFields.element(key: String) = obj(key).toElement()
private fun JsonFields.elementWithCheckDigit(key: String) = obj(key).let {
    ElementWithCheckDigit(it.string("value"), it.string("raw"), it.positions(), it.obj("checkDigit").checkDigit())
}

private fun JsonFields.dateElement(key: String) = obj(key).let {
    DateElementWithCheckDigit(
        it.obj("date").let { d -> MrzDate(d.uintOrNull("year"), d.uintOrNull("month"), d.uintOrNull("day")) },
        it.string("value"), it.string("raw"), it.positions(), it.obj("checkDigit").checkDigit()
    )
}

private fun JsonFields.nameElement(key: String) = obj(key).let {
    NameElement(it.objectOrNull("primaryIdentifier")?.toElement(), it.objectOrNull("secondaryIdentifier")?.toElement())
}

internal fun JsonFields.debugInfo() = DebugInfo(objects("events").map { DebugEvent(it.ulong("timestampMillis"), it.string("message")) })

/**
 * The reference's JSON of a record of the model: its properties by name (every key present, null
 * when absent), bytes in padded standard base64, enums in lowerCamel, unsigned numbers as numbers.
 * The records are plain data classes, so their fields are read in declaration order.
 */
internal fun modelToJson(value: Any?): JsonElement = when (value) {
    null -> JsonNull.INSTANCE
    is String -> JsonPrimitive(value)
    is Boolean -> JsonPrimitive(value)
    is ByteArray -> JsonPrimitive(Base64.getEncoder().encodeToString(value))
    is JsonEnum -> JsonPrimitive(value.jsonName)
    is UInt -> JsonPrimitive(value.toLong())
    is ULong -> JsonPrimitive(java.math.BigInteger(value.toString()))
    is UByte -> JsonPrimitive(value.toInt())
    is Number -> JsonPrimitive(value)
    is List<*> -> JsonArray().also { array -> value.forEach { array.add(modelToJson(it)) } }
    else -> JsonObject().also { obj ->
        for (field in value.javaClass.declaredFields) {
            if (java.lang.reflect.Modifier.isStatic(field.modifiers) || field.isSynthetic) continue
            field.isAccessible = true
            obj.add(field.name, fieldJson(field.get(value)))
        }
    }
}

/**
 * A field's value. In the reference's model every signed number is nullable (`i64?`, a boxed
 * Long), so a primitive integer field is a non-null UInt, ULong or UByte, stored in a signed JVM
 * field of its width.
 */
private fun fieldJson(raw: Any?): JsonElement = when (raw) {
    is Int -> JsonPrimitive(raw.toUInt().toLong())
    is Long -> JsonPrimitive(java.math.BigInteger(raw.toULong().toString()))
    is Byte -> JsonPrimitive(raw.toUByte().toInt())
    else -> modelToJson(raw)
}

internal fun jsonText(element: JsonElement): String =
    com.google.gson.GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create().toJson(element)
