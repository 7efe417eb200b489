package dev.emrtd.tests

import dev.emrtd.AccessKey
import dev.emrtd.Connector
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.io.File
import java.net.URI
import java.nio.file.Files
import java.time.Duration
import java.util.UUID
import java.util.concurrent.TimeUnit

/**
 * The JVM relay client against a real `emrtd serve` (an open tenant and one with a secret) and the
 * project's test result server (Tools/result-server.py, which answers 200): a confirmed session
 * (1000), a refused token (4001), a wrong MRZ (4002).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectorTests {
    private val folder = Files.createTempDirectory("emrtd-jvm-serve-").toFile()
    private val processes = mutableListOf<Process>()
    private var url = URI("ws://127.0.0.1:1/ws/validate")

    /** Starts `command`, logging to `log`, and waits (polling) for `line` to appear in the log. */
    private fun start(command: List<String>, log: File, line: (String) -> String?): String {
        val process = ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start()
        processes.add(process)
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
        while (System.nanoTime() < deadline && process.isAlive) {
            if (log.exists()) log.readLines().mapNotNull(line).firstOrNull()?.let { return it }
            Thread.sleep(20)
        }
        throw AssertionError("${command[0]} did not start: ${log.readText()}")
    }

    @BeforeAll
    fun startServers() {
        val emrtd = emrtdBinary()
        val resultServer = File(System.getenv("EMRTD_SOURCE_ROOT") ?: "", "Tools/result-server.py")
        prerequisite(resultServer.isFile, "no Tools/result-server.py under EMRTD_SOURCE_ROOT (Tools/test-jvm.sh sets it)")
        val resultPort = start(listOf("python3", resultServer.path, "--log", File(folder, "results.log").path), File(folder, "results.out")) {
            it.trim().takeIf { text -> text.toIntOrNull() != null }
        }
        // The chips are the simulator's specimen, signed by a CSCA made per simulator: serve trusts none (no CSCA needed for the close codes).
        val tenants = File(folder, "tenants.json")
        val resultUrl = "http://127.0.0.1:$resultPort/results"
        tenants.writeText(
            """{"tenants": {"demo": {"resultURL": "$resultUrl", "open": true, "receiveResult": true},
               "locked": {"resultURL": "$resultUrl", "secret": "q83vEjRWeJq7zN7/ASNFZ4mrze8BI0VniavN7wEjRWc="}}}"""
        )
        tenants.setReadable(false, false)
        tenants.setReadable(true, true)
        val port = start(
            listOf(emrtd, "serve", "--listen", "127.0.0.1:0", "--tenants", tenants.path, "--no-builtin", "--outbox", File(folder, "outbox").path),
            File(folder, "serve.log")
        ) { Regex("\"event\":\"listening\".*\"port\":(\\d+)").find(it)?.groupValues?.get(1) }
        url = URI("ws://127.0.0.1:$port/ws/validate")
    }

    @AfterAll
    fun stopServers() {
        processes.forEach { it.destroy(); it.waitFor(10, TimeUnit.SECONDS) }
        folder.deleteRecursively()
    }

    private fun session(clientId: String, token: String?, key: AccessKey): Connector.ValidationOutcome = SimulatedChip().use { chip ->
        Connector(url, clientId, token, mapOf("X-Case" to "jvm"), Duration.ofSeconds(30)).validate(chip, UUID.randomUUID().toString(), key, "minimal")
    }

    @Test
    fun aConfirmedSessionClosesWith1000AndSendsTheResult() {
        val outcome = session("demo", null, SPECIMEN_KEY)
        assertEquals(1000, outcome.closeCode(), outcome.reason())
        val result = json(outcome.result()!!)
        assertEquals("ERIKSSON", result["machineReadableZoneInformation"].asJsonObject["fields"].asJsonObject["primaryIdentifier"].asString)
        assertTrue(File(folder, "results.log").readText().contains("\"X-Case\""))
    }

    @Test
    fun aRefusedTokenClosesWith4001() {
        assertEquals(4001, session("locked", "v1.1.bogus", SPECIMEN_KEY).closeCode())
        assertEquals(4001, session("nobody", null, SPECIMEN_KEY).closeCode())
    }

    @Test
    fun aWrongMrzClosesWith4002() {
        assertEquals(4002, session("demo", null, AccessKey.Mrz("L898902C", "690806", "940624")).closeCode())
    }
}
