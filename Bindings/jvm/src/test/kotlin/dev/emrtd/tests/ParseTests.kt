package dev.emrtd.tests

import dev.emrtd.AccessKey
import dev.emrtd.ReadException
import dev.emrtd.TravelDocumentType
import dev.emrtd.accessKeyFromMrz
import dev.emrtd.machineReadableZoneToJson
import dev.emrtd.parseMrz
import dev.emrtd.readErrorToJson
import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test


class ParseTests {
    private val td3 = listOf("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
    private val td1 = listOf("I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<")

    @Test
    fun parsesATd3Zone() {
        val zone = parseMrz(td3)
        assertEquals(TravelDocumentType.TD3, zone.travelDocumentType)
        assertNotNull(zone.td3)
        val fields = zone.td3!!
        assertEquals("L898902C3", fields.passportNumber.value)
        assertTrue(fields.passportNumber.checkDigit.isValid)
        assertEquals(74u, fields.dateOfBirth.date.year)
        assertEquals("ERIKSSON", fields.name.primaryIdentifier?.value)
        assertEquals(AccessKey.Mrz("L898902C3", "740812", "120415"), accessKeyFromMrz(zone))
        assertNull(zone.td1)
    }

    @Test
    fun parsesATd1ZoneAndLowerCaseWithSpaces() {
        val zone = parseMrz(td1.map { "  ${it.toLowerCase()} " })
        assertEquals(TravelDocumentType.TD1, zone.travelDocumentType)
        assertEquals("D23145890", zone.td1!!.documentNumber.value)
        assertEquals(td1, zone.lines)
    }

    @Test
    fun theJsonOfAZoneHasTheReferenceKeys() {
        val json = JsonParser.parseString(machineReadableZoneToJson(parseMrz(td3))).asJsonObject
        assertEquals("td3", json["travelDocumentType"].asString)
        assertTrue(json["td1"].isJsonNull)
        val number = json["td3"].asJsonObject["passportNumber"].asJsonObject
        assertEquals("L898902C3", number["value"].asString)
        assertEquals(0, number["positions"].asJsonArray[0].asJsonObject["startIndex"].asInt)
        assertEquals(true, number["checkDigit"].asJsonObject["isValid"].asBoolean)
    }

    @Test
    fun badInputIsAnErrorNeverACrash() {
        assertThrows<ReadException.InvalidArgument> { parseMrz(listOf("P".repeat(5000), "L".repeat(5000))) }
        assertThrows<ReadException.InvalidArgument> { parseMrz(listOf("P<UTO\u0000ERIKSSON", "\uD83D\uDE00")) }
        assertEquals(listOf<dev.emrtd.CertificateInfo>(), dev.emrtd.certificateInfos(ByteArray(100) { it.toByte() }))
        assertEquals(listOf<dev.emrtd.CertificateInfo>(), dev.emrtd.certificateInfos(ByteArray(0)))
        val error = assertThrows<ReadException.InvalidArgument> { dev.emrtd.verifyDump(mapOf("SOD.bin" to ByteArray(3), "DG1.bin" to ByteArray(0))) }
        assertEquals("invalid_argument", JsonParser.parseString(readErrorToJson(error)).asJsonObject["code"].asString)
        assertTrue(Regex("[0-9]+\\.[0-9]+\\.[0-9]+.*").matches(dev.emrtd.libraryVersion()))
    }

    @Test
    fun unsignedNumbersKeepTheirValueInJson() {
        val zone = parseMrz(td3)
        val far = zone.td3!!.documentCode.copy(positions = listOf(dev.emrtd.StringPosition(0u, 1u, UInt.MAX_VALUE)))
        val json = JsonParser.parseString(machineReadableZoneToJson(zone.copy(td3 = zone.td3!!.copy(documentCode = far)))).asJsonObject
        val position = json["td3"].asJsonObject["documentCode"].asJsonObject["positions"].asJsonArray[0].asJsonObject
        assertEquals(4294967295L, position["endIndex"].asLong)
        assertEquals(1L, position["startIndex"].asLong)
    }

    @Test
    fun aBadZoneIsAnInvalidArgument() {
        for (lines in listOf(listOf("P<UTO"), listOf(td3[0], td3[1].dropLast(1)), listOf("!".repeat(44), td3[1]), listOf<String>())) {
            val error = assertThrows<ReadException.InvalidArgument> { parseMrz(lines) }
            assertTrue(error.reason.isNotEmpty())
            assertEquals("invalid_argument", JsonParser.parseString(readErrorToJson(error)).asJsonObject["code"].asString)
        }
    }
}
