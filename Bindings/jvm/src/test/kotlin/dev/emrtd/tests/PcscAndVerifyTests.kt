package dev.emrtd.tests

import dev.emrtd.EmrtdReader
import dev.emrtd.PcscTransport
import dev.emrtd.ReadException
import dev.emrtd.ReaderConfig
import dev.emrtd.TrustStore
import dev.emrtd.verifyDump
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Test

import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit

class PcscAndVerifyTests {
    @Test
    fun readsTheSimulatorBehindPcscd() {
        val reader = System.getenv("EMRTD_TEST_PCSC_READER") ?: ""
        val csca = File(System.getenv("EMRTD_TEST_PCSC_CSCA") ?: "")
        prerequisite(reader != "" && csca.isFile, "no simulator behind pcscd (EMRTD_TEST_PCSC_READER, EMRTD_TEST_PCSC_CSCA: Tools/test-jvm.sh)")
        val config = ReaderConfig(false, listOf(csca.readBytes()), timeoutMs = 10_000u)
        PcscTransport(reader, config.timeoutMs.toLong(), true).use { transport ->
            assertGenuine(EmrtdReader(config).use { it.read(transport, SPECIMEN_KEY, null, null) })
        }
    }

    @Test
    fun verifiesADumpWithItsTrustStore() {
        val folder = Files.createTempDirectory("emrtd-jvm-dump-")
        try {
            val dump = folder.resolve("dump")
            val process = ProcessBuilder(emrtdBinary(), "read", "--simulator", "--mrz", "L898902C", "690806", "940623", "--no-builtin", "--no-render", "--out", dump.toString())
                .redirectErrorStream(true).redirectOutput(folder.resolve("read.log").toFile()).start()
            process.waitFor(120, TimeUnit.SECONDS)
            assertEquals(0, process.exitValue(), folder.resolve("read.log").toFile().readText())
            val csca = dump.resolve("CSCA.der").toFile().readBytes()
            TrustStore(useBuiltIn = false, certificates = listOf(csca)).use { trust ->
                val verdict = json(verifyDump(dump, trust, at = "2027-01-01"))
                assertEquals("authenticated", verdict["status"].asString, verdict.toString())
                val files = dump.toFile().listFiles()!!.filter { it.name.endsWith(".bin") }.associate { it.name to it.readBytes() }
                assertEquals("authenticated", json(verifyDump(files, trust, at = "2027-01-01"))["status"].asString)
                val tampered = files.toMutableMap().apply { put("DG1.bin", get("DG1.bin")!!.copyOf().also { it[10] = (it[10] + 1).toByte() }) }
                assertNotEquals("authenticated", json(verifyDump(tampered, trust, at = "2027-01-01"))["status"].asString)
            }
            assertNotEquals("authenticated", json(verifyDump(dump, TrustStore(useBuiltIn = false), at = "2027-01-01"))["status"].asString)
            assertThrows<ReadException.InvalidArgument> { verifyDump(folder.resolve("absent")) }
            assertThrows<ReadException.InvalidArgument> { TrustStore(false, listOf(ByteArray(3))) }
        } finally {
            folder.toFile().deleteRecursively()
        }
    }
}
