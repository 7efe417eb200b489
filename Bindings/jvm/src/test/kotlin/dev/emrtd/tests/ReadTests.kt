package dev.emrtd.tests

import com.google.gson.JsonObject
import com.google.gson.JsonParser
import dev.emrtd.AccessKey
import dev.emrtd.CardTransport
import dev.emrtd.ChipStatus
import dev.emrtd.DataStatus
import dev.emrtd.ElementaryFileId
import dev.emrtd.EmrtdReader
import dev.emrtd.ReadErrorKind
import dev.emrtd.ReadException
import dev.emrtd.ReadListener
import dev.emrtd.ReaderConfig
import dev.emrtd.TransportException
import dev.emrtd.TravelDocument
import dev.emrtd.certificateInfos
import dev.emrtd.readErrorToJson
import dev.emrtd.readOutcome
import dev.emrtd.readOutcomeToJson
import dev.emrtd.travelDocumentToJson
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

import java.util.concurrent.CountDownLatch
import java.util.concurrent.CyclicBarrier
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

fun json(text: String): JsonObject = JsonParser.parseString(text).asJsonObject

fun readSpecimen(chip: SimulatedChip, listener: ReadListener? = null): TravelDocument =
    EmrtdReader(ReaderConfig(useBuiltInAuthorityCertificates = false, authorityCertificates = listOf(chip.csca))).use {
        it.read(chip, SPECIMEN_KEY, null, listener)
    }

fun assertGenuine(document: TravelDocument) {
    assertEquals(DataStatus.AUTHENTICATED, document.authenticationStatus.data.status)
    assertEquals(ChipStatus.AUTHENTICATED, document.authenticationStatus.chip.status)
    assertEquals("ERIKSSON", document.machineReadableZoneInformation.fields.primaryIdentifier)
    assertTrue(document.ldsMasterFile.lds1EmrtdApplication.dg2.bytes!!.size > 100)
}

/** A transport around a chip that fails with `failure` at its `after`-th APDU. */
class Failing(private val chip: SimulatedChip, private val after: Int, private val failure: () -> Throwable) : CardTransport {
    override fun transceive(apdu: ByteArray): ByteArray = if (chip.apdus >= after) throw failure() else chip.transceive(apdu)
    override fun supportsExtendedLength() = true
}

class ReadTests {
    @Test
    fun readsThroughATransportOfTheTestWithEvents() {
        val events = mutableListOf<String>()
        val percentages = mutableListOf<Int>()
        val listener = object : ReadListener {
            override fun onAccessEstablishmentStarted() { events.add("access") }
            override fun onElementaryFilesReadingProgressUpdated(id: ElementaryFileId, totalProgressPercentage: Int) {
                events.add("progress"); percentages.add(totalProgressPercentage)
            }
            override fun onDataAuthenticationStarted() { events.add("data") }
        }
        SimulatedChip().use { chip ->
            val document = readSpecimen(chip, listener)
            assertGenuine(document)
            assertTrue(chip.apdus > 10)
            // The CSCA the read names is the one given, as certificateInfos describes it.
            val csca = document.authenticationStatus.data.countrySigningCertificate!!
            val described = certificateInfos(chip.csca).single()
            assertEquals(described.copy(der = csca.der), csca)
            assertArrayEquals(described.der, csca.der)
            val signer = document.authenticationStatus.data.documentSignerCertificate!!
            assertEquals(certificateInfos(signer.der).single().copy(der = signer.der), signer)
            // The document's JSON has the reference's keys and values.
            val tree = json(travelDocumentToJson(document))
            assertEquals("authenticated", tree["authenticationStatus"].asJsonObject["data"].asJsonObject["status"].asString)
            assertEquals("dg1", tree["ldsMasterFile"].asJsonObject["lds1EmrtdApplication"].asJsonObject["dg1"].asJsonObject["id"].asString)
            assertTrue(tree.has("encodedIdentificationFeaturesFinger") && tree["encodedIdentificationFeaturesFinger"].isJsonNull)
            val face = tree["encodedIdentificationFeaturesFace"].asJsonObject["faceImage"].asJsonObject
            assertEquals(document.encodedIdentificationFeaturesFace.faceImage!!.size.width.toLong(), face["size"].asJsonObject["width"].asLong)
            val outcome = readOutcome(document, null, 1234uL)
            assertEquals("success", outcome.resultStatus)
            assertTrue(outcome.dataGroups.containsAll(listOf(ElementaryFileId.COM, ElementaryFileId.SOD, ElementaryFileId.DG1, ElementaryFileId.DG2)))
            assertEquals(1234, json(readOutcomeToJson(outcome))["durationMs"].asInt)
        }
        assertEquals("access", events.first())
        assertEquals("data", events.last())
        assertEquals(percentages.sorted(), percentages)
        assertEquals(100, percentages.last())
    }

    @Test
    fun withoutTheCscaTheDataIsNotAuthenticated() {
        SimulatedChip().use { chip ->
            val document = EmrtdReader(ReaderConfig(useBuiltInAuthorityCertificates = false)).use { it.read(chip, SPECIMEN_KEY, null, null) }
            assertEquals(DataStatus.AUTHORITY_CERTIFICATES_NOT_PROVIDED, document.authenticationStatus.data.status)
        }
    }

    @Test
    fun anActiveAuthenticationChallengeComesBackSigned() {
        SimulatedChip().use { chip ->
            val document = EmrtdReader(ReaderConfig(false, listOf(chip.csca))).use { it.read(chip, SPECIMEN_KEY, ByteArray(8) { i -> i.toByte() }, null) }
            assertTrue(document.authenticationStatus.chip.activeAuthenticationResponse!!.size >= 128)
        }
    }

    @Test
    fun aWrongMrzIsAnAccessControlError() {
        SimulatedChip().use { chip ->
            val error = assertThrows<ReadException.AccessControl> {
                EmrtdReader(ReaderConfig()).use { it.read(chip, AccessKey.Mrz("L898902C", "690806", "940624"), null, null) }
            }
            assertTrue(error.reason.isNotEmpty())
            assertEquals("access_control", json(readErrorToJson(error))["code"].asString)
            assertEquals("access_control", readOutcome(null, error, 5uL).resultError)
        }
    }

    @Test
    fun cancelFromAnotherThreadEndsTheRead() {
        SimulatedChip().use { chip ->
            val midRead = CountDownLatch(1)
            val slow = object : CardTransport {
                override fun transceive(apdu: ByteArray): ByteArray {
                    if (chip.apdus == 12) midRead.countDown()
                    return chip.transceive(apdu)
                }
                override fun supportsExtendedLength() = true
            }
            EmrtdReader(ReaderConfig(false, listOf(chip.csca))).use { reader ->
                val canceller = Thread {
                    midRead.await(60, TimeUnit.SECONDS)
                    reader.cancel()
                }
                canceller.start()
                val error = assertThrows<ReadException.Cancelled> { reader.read(slow, SPECIMEN_KEY, null, null) }
                canceller.join()
                val tree = json(readErrorToJson(error))
                assertEquals("cancelled", tree["code"].asString)
                assertTrue(tree["reason"].isJsonNull)
                assertTrue(chip.apdus >= 12)
            }
        }
    }

    @Test
    fun fourReadsOnFourThreadsAtOnce() {
        val chips = List(4) { SimulatedChip() }
        try {
            val start = CyclicBarrier(4)
            val inside = AtomicInteger()
            val most = AtomicInteger()
            val results = arrayOfNulls<Any>(4)
            val threads = chips.mapIndexed { index, chip ->
                val counting = object : CardTransport {
                    override fun transceive(apdu: ByteArray): ByteArray {
                        most.accumulateAndGet(inside.incrementAndGet()) { a, b -> maxOf(a, b) }
                        try {
                            return chip.transceive(apdu)
                        } finally {
                            inside.decrementAndGet()
                        }
                    }
                    override fun supportsExtendedLength() = true
                }
                Thread {
                    start.await()
                    results[index] = try {
                        EmrtdReader(ReaderConfig(false, listOf(chip.csca))).use { it.read(counting, SPECIMEN_KEY, null, null) }
                    } catch (error: Throwable) {
                        error
                    }
                }.also { it.start() }
            }
            threads.forEach { it.join() }
            results.forEach { result -> assertTrue(result is TravelDocument, "$result"); assertGenuine(result as TravelDocument) }
            assertTrue(most.get() >= 2, "the reads never overlapped (at most ${most.get()} at once)")
        } finally {
            chips.forEach { it.close() }
        }
    }

    private fun failure(failure: () -> Throwable): ReadException = SimulatedChip().use { chip ->
        val error = assertThrows<ReadException> { EmrtdReader(ReaderConfig(false, listOf(chip.csca))).use { it.read(Failing(chip, 8, failure), SPECIMEN_KEY, null, null) } }
        error
    }

    @Test
    fun eachTransportFailureIsTheReferencesError() {
        assertTrue(failure { TransportException.TagLost() } is ReadException.NotConnected)
        assertTrue(failure { TransportException.Timeout() } is ReadException.NotConnected)
        assertTrue(failure { TransportException.Io("unplugged") } is ReadException.NotConnected)
        assertTrue(failure { TransportException.Cancelled() } is ReadException.Cancelled)
        for (unexpected in listOf({ TransportException.Unexpected("bug") }, { IllegalStateException("bug") })) {
            val error = failure(unexpected)
            assertTrue(error is ReadException.Read && error.kind == ReadErrorKind.UNKNOWN, "$error")
            val tree = json(readErrorToJson(error))
            assertEquals("read", tree["code"].asString)
            assertEquals("unknown", tree["kind"].asString)
            assertEquals("unknown", readOutcome(null, error, 0uL).resultError)
        }
    }

    @Test
    fun theErrorJsonOfEachFailureKind() {
        // From the library, through reads: invalid_argument, access_control (above), chip_authentication,
        // not_connected, read, cancelled.
        SimulatedChip().use { chip ->
            val error = assertThrows<ReadException.InvalidArgument> { EmrtdReader(ReaderConfig()).use { it.read(chip, SPECIMEN_KEY, ByteArray(7), null) } }
            assertEquals("invalid_argument", json(readErrorToJson(error))["code"].asString)
            assertTrue(json(readErrorToJson(error))["debugInfo"].isJsonNull)
        }
        assertThrows<ReadException.InvalidArgument> { EmrtdReader(ReaderConfig(authorityCertificates = listOf("not a certificate".toByteArray()))) }
        SimulatedChip("--no-pace", "--chip-fault", "ca-wrong-mac").use { chip ->
            val error = assertThrows<ReadException.ChipAuthentication> { EmrtdReader(ReaderConfig(false, listOf(chip.csca))).use { it.read(chip, SPECIMEN_KEY, null, null) } }
            val tree = json(readErrorToJson(error))
            assertEquals("chip_authentication", tree["code"].asString)
            assertTrue(tree["message"].asString.startsWith("chip authentication failed"))
            assertEquals("chip_authentication", readOutcome(null, error, 0uL).resultError)
        }
        val lost = failure { TransportException.TagLost() }
        val tree = json(readErrorToJson(lost))
        assertEquals("not_connected", tree["code"].asString)
        assertTrue(tree["debugInfo"].isJsonObject)
        assertEquals("connection", readOutcome(null, lost, 0uL).resultError)
        // Built by the host: every variant's code, kind and null fields.
        val built = mapOf(
            ReadException.NfcUnavailable("no reader") to "nfc_unavailable",
            ReadException.Read(ReadErrorKind.READING_DATA_GROUPS, "DG2 refused", dev.emrtd.DebugInfo()) to "read",
            ReadException.Read(ReadErrorKind.PARSE_MASTER_FILE, "DG1 unparseable", dev.emrtd.DebugInfo()) to "read",
            ReadException.Cancelled(dev.emrtd.DebugInfo()) to "cancelled"
        )
        for ((error, code) in built) {
            val json = json(readErrorToJson(error))
            assertEquals(code, json["code"].asString)
            assertNotNull(json["message"].asString)
            assertTrue(json.has("reason") && json.has("kind") && json.has("debugInfo"))
        }
        assertEquals("readingDataGroups", json(readErrorToJson(built.keys.elementAt(1)))["kind"].asString)
        assertEquals("reading_data_groups", readOutcome(null, built.keys.elementAt(1), 0uL).resultError)
        assertEquals("parse_master_file", readOutcome(null, built.keys.elementAt(2), 0uL).resultError)
        assertEquals("nfc_unavailable", readOutcome(null, built.keys.elementAt(0), 0uL).resultError)
    }
}
