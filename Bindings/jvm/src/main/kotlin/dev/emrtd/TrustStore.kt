package dev.emrtd

import com.google.gson.JsonArray
import com.google.gson.JsonObject
import com.sun.jna.Memory
import com.sun.jna.Pointer
import com.sun.jna.ptr.PointerByReference
import java.nio.file.Path

/**
 * Trusted CSCAs (and CRLs), loaded once and shared by any number of reads and verifications on
 * any threads: the built-in bundle when `useBuiltIn`, plus each entry of `certificates` (a PEM
 * bundle, one DER certificate or one DER CRL). Loading the bundle costs far more than a
 * verification: make one and reuse it. Throws ReadException.InvalidArgument for an entry with no
 * certificate.
 */
class TrustStore @Throws(ReadException::class) constructor(useBuiltIn: Boolean = true, certificates: List<ByteArray> = listOf()) : AutoCloseable {
    private var handle: Pointer?
    private val users = java.util.concurrent.locks.ReentrantReadWriteLock()

    init {
        val buffers = certificates.map { Native.memory(it) }
        val table = Memory(16L * maxOf(certificates.size, 1))
        buffers.forEachIndexed { index, buffer ->
            table.setPointer(16L * index, buffer)
            table.setLong(16L * index + 8, certificates[index].size.toLong())
        }
        val store = PointerByReference()
        val (status, text) = Native.call { error, length ->
            Native.lib.emrtd_trust_store_create(if (useBuiltIn) 1 else 0, table, certificates.size.toLong(), store, error, length)
        }
        if (status != Native.OK) Native.answer(status, text, "the trust store's error")
        handle = store.value
    }

    /** Runs `body` with the store's handle; `close` waits for it to end. */
    internal fun <T> use(body: (Pointer) -> T): T {
        users.readLock().lock()
        try {
            val store = handle ?: throw ReadException.InvalidArgument("The trust store is closed")
            return body(store)
        } finally {
            users.readLock().unlock()
        }
    }

    override fun close() {
        users.writeLock().lock()
        try {
            Native.lib.emrtd_trust_store_free(handle)
            handle = null
        } finally {
            users.writeLock().unlock()
        }
    }
}

/**
 * Verifies a dump folder (the layout `emrtd dump` writes: SOD.bin, DG1.bin …) offline: Passive
 * Authentication and the document checks. Returns exactly the JSON `emrtd verify --dir` prints,
 * authenticated or not (read its `status` and `checks`). `at`: when certificates and expiry are
 * checked (ISO 8601; default now); `mrzLines`: the printed MRZ, compared with DG1; `trust`: null
 * trusts the built-in bundle alone. Throws ReadException.InvalidArgument for a dump that cannot be
 * loaded.
 */
@Throws(ReadException::class)
fun verifyDump(folder: Path, trust: TrustStore? = null, at: String? = null, mrzLines: List<String>? = null): String =
    verify(JsonObject().apply { addProperty("dir", folder.toAbsolutePath().toString()) }, trust, at, mrzLines)

/**
 * `verifyDump` with the dump's files by their dump names ("SOD.bin", "DG1.bin" …), passed to the
 * library as they are (emrtd_verify_files: no base64 on the way).
 */
@Throws(ReadException::class)
fun verifyDump(files: Map<String, ByteArray>, trust: TrustStore? = null, at: String? = null, mrzLines: List<String>? = null): String {
    val entries = files.entries.toList()
    // emrtd_file: a NUL-terminated name, the data, its length (8 bytes each).
    val table = Memory(24L * maxOf(entries.size, 1))
    val buffers = entries.mapIndexed { index, (name, bytes) ->
        val nameMemory = Native.memory(name.toByteArray(Charsets.UTF_8) + 0)
        val data = Native.memory(bytes)
        table.setPointer(24L * index, nameMemory)
        table.setPointer(24L * index + 8, data)
        table.setLong(24L * index + 16, bytes.size.toLong())
        nameMemory to data
    }
    val options = options(JsonObject(), at, mrzLines).toString().toByteArray(Charsets.UTF_8)
    fun run(store: Pointer?): String {
        val (status, text) = Native.call { result, length ->
            Native.lib.emrtd_verify_files(table, entries.size.toLong(), options, options.size.toLong(), store, result, length)
        }
        return Native.answer(status, text, "the verification's error")
    }
    val verdict = trust?.use { run(it) } ?: run(null)
    java.lang.ref.Reference.reachabilityFence(buffers)
    return verdict
}

private fun options(request: JsonObject, at: String?, mrzLines: List<String>?): JsonObject {
    at?.let { request.addProperty("at", it) }
    mrzLines?.let { lines -> request.add("mrzLines", JsonArray().apply { lines.forEach { add(it) } }) }
    return request
}

private fun verify(request: JsonObject, trust: TrustStore?, at: String?, mrzLines: List<String>?): String {
    val data = options(request, at, mrzLines).toString().toByteArray(Charsets.UTF_8)
    fun run(store: Pointer?): String {
        val (status, text) = Native.call { result, length -> Native.lib.emrtd_verify(data, data.size.toLong(), store, result, length) }
        return Native.answer(status, text, "the verification's error")
    }
    return trust?.use { run(it) } ?: run(null)
}

/** The version of the libemrtd this binding loaded, e.g. "0.1.0". */
fun libraryVersion(): String = Native.lib.emrtd_version()
