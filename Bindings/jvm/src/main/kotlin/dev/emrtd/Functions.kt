package dev.emrtd

import com.google.gson.JsonArray
import com.google.gson.JsonNull
import com.google.gson.JsonObject
import java.security.MessageDigest
import java.security.cert.CertificateFactory
import java.security.cert.X509Certificate
import java.security.interfaces.DSAKey
import java.security.interfaces.ECKey
import java.security.interfaces.RSAKey
import java.time.format.DateTimeFormatter
import java.time.ZoneOffset
import javax.security.auth.x500.X500Principal

/** Parses MRZ lines (e.g. from OCR); throws ReadException.InvalidArgument for anything that is not a zone. */
@Throws(ReadException::class)
fun parseMrz(lines: List<String>): MachineReadableZone {
    val request = JsonArray().apply { lines.forEach { add(it) } }.toString().toByteArray(Charsets.UTF_8)
    val (status, text) = Native.call { result, length -> Native.lib.emrtd_parse_mrz(request, request.size.toLong(), result, length) }
    return decode(Native.answer(status, text, "the MRZ's error"), "the MRZ") { it.machineReadableZone() }
}

/** The MRZ key printed in a parsed zone: the document number with any overflow, the raw dates. */
fun accessKeyFromMrz(mrz: MachineReadableZone): AccessKey {
    val (number, birth, expiry) = mrz.td1?.let { Triple(it.documentNumber, it.dateOfBirth, it.dateOfExpiry) }
        ?: mrz.td2?.let { Triple(it.documentNumber, it.dateOfBirth, it.dateOfExpiry) }
        ?: mrz.td3?.let { Triple(it.passportNumber, it.dateOfBirth, it.dateOfExpiry) }
        ?: throw ReadException.InvalidArgument("the machine readable zone has no layout")
    return AccessKey.Mrz(number.raw.trimEnd('<'), birth.raw, expiry.raw)
}

/** The document as the reference's JSON (its keys; the library's own additions are not in the model). */
fun travelDocumentToJson(document: TravelDocument): String = jsonText(modelToJson(document))

/** A MachineReadableZone as JSON, the same shape as inside the document. */
fun machineReadableZoneToJson(mrz: MachineReadableZone): String = jsonText(modelToJson(mrz))

/** The certificates of a PEM bundle or one DER certificate described; empty when none parse. */
fun certificateInfos(pemOrDer: ByteArray): List<CertificateInfo> {
    val certificates = try {
        CertificateFactory.getInstance("X.509").generateCertificates(pemOrDer.inputStream()).filterIsInstance<X509Certificate>()
    } catch (error: Exception) {
        return listOf()
    }
    return certificates.mapNotNull { certificate ->
        try {
            describe(certificate)
        } catch (error: Exception) {
            null
        }
    }
}

private val isoTime = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC)

private fun hex(bytes: ByteArray) = bytes.joinToString("") { "%02X".format(it) }

/** An attribute of a name (C, O, CN) from its RFC 2253 form, unescaped. */
private fun attribute(name: X500Principal, key: String): String? =
    javax.naming.ldap.LdapName(name.getName(X500Principal.RFC2253)).rdns.lastOrNull { it.type.equals(key, ignoreCase = true) }?.value?.toString()

/** The key identifier inside a SubjectKeyIdentifier or AuthorityKeyIdentifier extension's OCTET STRING. */
private fun keyIdentifier(extension: ByteArray?, authority: Boolean): String? {
    if (extension == null) return null
    val inner = derContents(extension, 0)?.let { (start, _) -> extension.copyOfRange(start, extension.size) } ?: return null
    if (!authority) return derContents(inner, 0)?.let { (start, length) -> hex(inner.copyOfRange(start, start + length)) }
    // AuthorityKeyIdentifier ::= SEQUENCE { [0] keyIdentifier OPTIONAL, … }
    val (start, _) = derContents(inner, 0) ?: return null
    if (start >= inner.size || inner[start] != 0x80.toByte()) return null
    return derContents(inner, start)?.let { (s, length) -> hex(inner.copyOfRange(s, s + length)) }
}

/** The start and length of the contents of the DER object at `offset`, when it fits. */
private fun derContents(bytes: ByteArray, offset: Int): Pair<Int, Int>? {
    if (offset + 2 > bytes.size) return null
    var position = offset + 1
    val first = bytes[position++].toInt() and 0xFF
    val length = if (first < 0x80) first else {
        val count = first and 0x7F
        if (count == 0 || count > 3 || position + count > bytes.size) return null
        var value = 0
        repeat(count) { value = (value shl 8) or (bytes[position++].toInt() and 0xFF) }
        value
    }
    return if (position + length <= bytes.size) position to length else null
}

private fun describe(certificate: X509Certificate): CertificateInfo {
    val key = certificate.publicKey
    val size = when (key) {
        is RSAKey -> key.modulus.bitLength()
        is ECKey -> key.params.order.bitLength()
        is DSAKey -> key.params.p.bitLength()
        else -> 0
    }
    return CertificateInfo(
        subject = certificate.subjectX500Principal.getName(X500Principal.RFC2253),
        issuer = certificate.issuerX500Principal.getName(X500Principal.RFC2253),
        country = attribute(certificate.subjectX500Principal, "C")?.toUpperCase(),
        organization = attribute(certificate.subjectX500Principal, "O"),
        commonName = attribute(certificate.subjectX500Principal, "CN"),
        serialNumber = certificate.serialNumber.toString(16).toUpperCase().let { if (it.length % 2 == 1) "0$it" else it },
        notBefore = isoTime.format(certificate.notBefore.toInstant()),
        notAfter = isoTime.format(certificate.notAfter.toInstant()),
        signatureAlgorithm = certificate.sigAlgName,
        publicKeyAlgorithm = key.algorithm,
        publicKeySize = size.toUInt(),
        subjectKeyIdentifier = keyIdentifier(certificate.getExtensionValue("2.5.29.14"), authority = false),
        authorityKeyIdentifier = keyIdentifier(certificate.getExtensionValue("2.5.29.35"), authority = true),
        sha256Fingerprint = hex(MessageDigest.getInstance("SHA-256").digest(certificate.encoded)),
        der = certificate.encoded
    )
}

/** One sentence for people: the library's own for its errors, else what failed and why. */
fun readErrorMessage(error: ReadException): String {
    error.libraryJson?.get("message")?.takeIf { it.isJsonPrimitive }?.let { return it.asString }
    val (what, reason) = when (error) {
        is ReadException.InvalidArgument -> "invalid argument" to error.reason
        is ReadException.AccessControl -> "access control failed" to error.reason
        is ReadException.ChipAuthentication -> "chip authentication failed" to error.reason
        is ReadException.NotConnected -> "no chip connected" to error.reason
        is ReadException.Read -> when (error.kind) {
            ReadErrorKind.READING_DATA_GROUPS -> "reading the data groups failed"
            ReadErrorKind.PARSE_MASTER_FILE -> "the files read do not make a document"
            ReadErrorKind.UNKNOWN -> "the read failed"
        } to error.reason
        is ReadException.Cancelled -> "cancelled" to ""
        is ReadException.NfcUnavailable -> "the card reader is unavailable" to error.reason
    }
    return if (reason == "") what else "$what: $reason"
}

/** The reference's code of an error, snake_case. */
private fun code(error: ReadException) = when (error) {
    is ReadException.InvalidArgument -> "invalid_argument"
    is ReadException.AccessControl -> "access_control"
    is ReadException.ChipAuthentication -> "chip_authentication"
    is ReadException.NotConnected -> "not_connected"
    is ReadException.Read -> "read"
    is ReadException.Cancelled -> "cancelled"
    is ReadException.NfcUnavailable -> "nfc_unavailable"
}

/**
 * An error as JSON: code, message, reason (null when cancelled), kind (read errors only) and
 * debugInfo (null where the variant has none); an error from the library keeps its added keys.
 */
fun readErrorToJson(error: ReadException): String {
    val json = error.libraryJson?.deepCopy() ?: JsonObject()
    json.addProperty("code", code(error))
    json.addProperty("message", readErrorMessage(error))
    val (reason, kind, debugInfo) = when (error) {
        is ReadException.InvalidArgument -> Triple(error.reason, null, null)
        is ReadException.AccessControl -> Triple(error.reason, null, error.debugInfo)
        is ReadException.ChipAuthentication -> Triple(error.reason, null, error.debugInfo)
        is ReadException.NotConnected -> Triple(error.reason, null, error.debugInfo)
        is ReadException.Read -> Triple(error.reason, error.kind, error.debugInfo)
        is ReadException.Cancelled -> Triple(null, null, error.debugInfo)
        is ReadException.NfcUnavailable -> Triple(error.reason, null, null)
    }
    json.add("reason", reason?.let { com.google.gson.JsonPrimitive(it) } ?: JsonNull.INSTANCE)
    json.add("kind", modelToJson(kind))
    if (debugInfo == null) json.add("debugInfo", JsonNull.INSTANCE)
    else if (error.libraryJson?.get("debugInfo")?.isJsonObject != true) json.add("debugInfo", modelToJson(debugInfo))
    return jsonText(json)
}

/** A read summarised for analytics (pass the document or the error): no personal data beyond issuing state and document code. */
fun readOutcome(document: TravelDocument?, error: ReadException?, durationMs: ULong): ReadOutcome {
    val files = document?.ldsMasterFile?.lds1EmrtdApplication
    val present = if (files == null) listOf() else listOf(
        files.com, files.sod, files.dg1, files.dg2, files.dg3, files.dg4, files.dg5, files.dg7, files.dg8, files.dg9,
        files.dg10, files.dg11, files.dg12, files.dg13, files.dg14, files.dg15, files.dg16
    ).mapNotNull { it?.id }
    val resultError = when (error) {
        null -> if (document == null) "unknown" else null
        is ReadException.NotConnected -> "connection"
        is ReadException.Read -> when (error.kind) {
            ReadErrorKind.READING_DATA_GROUPS -> "reading_data_groups"
            ReadErrorKind.PARSE_MASTER_FILE -> "parse_master_file"
            ReadErrorKind.UNKNOWN -> "unknown"
        }
        else -> code(error)
    }
    return ReadOutcome(
        resultStatus = if (error == null && document != null) "success" else "failure",
        resultError = resultError,
        accessControlProtocol = document?.accessControlProtocolUsed,
        paceMapping = document?.paceMapping,
        chipAuthenticationStatus = document?.authenticationStatus?.chip?.status,
        chipAuthenticationProtocol = document?.authenticationStatus?.chip?.protocol,
        dataAuthenticationStatus = document?.authenticationStatus?.data?.status,
        mrzIssuingState = document?.machineReadableZoneInformation?.fields?.issuingState,
        mrzDocumentCode = document?.machineReadableZoneInformation?.fields?.documentCode,
        dataGroups = present,
        durationMs = durationMs
    )
}

/** A ReadOutcome as JSON. */
fun readOutcomeToJson(outcome: ReadOutcome): String = jsonText(modelToJson(outcome))
