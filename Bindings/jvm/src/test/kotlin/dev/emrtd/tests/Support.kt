package dev.emrtd.tests

import dev.emrtd.AccessKey
import dev.emrtd.CardTransport
import dev.emrtd.TransportException
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Assumptions.assumeTrue
import java.io.DataInputStream
import java.io.File
import java.net.InetAddress
import java.net.ServerSocket
import java.net.Socket
import java.nio.file.Files
import java.util.concurrent.TimeUnit

/** The specimen's MRZ key (ICAO's Anna Maria Eriksson as the simulator makes her). */
val SPECIMEN_KEY = AccessKey.Mrz("L898902C", "690806", "940623")

/** Skips a test whose prerequisite is missing, printing why; fails it under CI=true. */
fun prerequisite(available: Boolean, reason: String) {
    if (available) return
    if (System.getenv("CI") == "true") fail<Unit>("missing prerequisite (CI=true): $reason")
    println("skipped: $reason")
    assumeTrue(false, reason)
}

/** The `emrtd` CLI that plays the chip (EMRTD_BIN; Tools/test-jvm.sh sets it). */
fun emrtdBinary(): String {
    val path = System.getenv("EMRTD_BIN") ?: ""
    prerequisite(path != "" && File(path).canExecute(), "no emrtd binary in EMRTD_BIN (Tools/test-jvm.sh sets it)")
    return path
}

/**
 * A transport written in the test: it plays vpcd's side of the vpcd protocol (2-byte big-endian
 * length, then the bytes; 1-byte control messages) to an `emrtd simulate` process of its own, so
 * each test has its own chip with no pcscd in between. `csca` is the specimen's CSCA (PEM).
 */
class SimulatedChip(vararg options: String) : CardTransport, AutoCloseable {
    private val folder = Files.createTempDirectory("emrtd-jvm-chip-").toFile()
    private val listener = ServerSocket(0, 1, InetAddress.getLoopbackAddress())
    private val process: Process
    private val socket: Socket
    private val input: DataInputStream
    val csca: ByteArray
    @Volatile var apdus = 0

    init {
        listener.soTimeout = 60_000
        val cscaFile = File(folder, "csca.pem")
        val command = listOf(emrtdBinary(), "simulate", "--host", "127.0.0.1", "--port", listener.localPort.toString(), "--csca-out", cscaFile.path) + options
        process = ProcessBuilder(command).redirectErrorStream(true).redirectOutput(File(folder, "simulate.log")).start()
        socket = listener.accept()
        socket.soTimeout = 30_000
        input = DataInputStream(socket.getInputStream())
        csca = cscaFile.readBytes()
        send(byteArrayOf(1)) // power on
        exchange(byteArrayOf(4)) // the ATR
    }

    private fun send(message: ByteArray) {
        val output = socket.getOutputStream()
        output.write(byteArrayOf((message.size shr 8).toByte(), message.size.toByte()) + message)
        output.flush()
    }

    private fun exchange(message: ByteArray): ByteArray {
        send(message)
        val length = input.readUnsignedShort()
        return ByteArray(length).also { input.readFully(it) }
    }

    override fun transceive(apdu: ByteArray): ByteArray {
        apdus += 1
        return try {
            exchange(apdu)
        } catch (error: java.io.IOException) {
            throw TransportException.Io(error.toString())
        }
    }

    override fun supportsExtendedLength() = true

    override fun close() {
        socket.close()
        listener.close()
        process.destroy()
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor()
        folder.deleteRecursively()
    }
}

/** Runs `body`, which must throw a `T`; returns it (Debian's JUnit jar has no Kotlin helpers). */
inline fun <reified T : Throwable> assertThrows(body: () -> Unit): T {
    try {
        body()
    } catch (error: Throwable) {
        if (error is T) return error
        throw AssertionError("expected ${T::class.java.simpleName}, got $error", error)
    }
    throw AssertionError("expected ${T::class.java.simpleName}, nothing was thrown")
}
