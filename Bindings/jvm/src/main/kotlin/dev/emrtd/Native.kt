package dev.emrtd

import com.sun.jna.Callback
import com.sun.jna.Library
import com.sun.jna.Memory
import com.sun.jna.Native
import com.sun.jna.Pointer
import com.sun.jna.Structure
import com.sun.jna.ptr.LongByReference
import com.sun.jna.ptr.PointerByReference

/** include/emrtd.h through JNA (size_t is 64 bits: the jar carries linux-x86_64's library only). */
internal interface EmrtdLibrary : Library {
    fun emrtd_version(): String
    fun emrtd_free(text: Pointer?)
    fun emrtd_parse_mrz(lines: ByteArray, length: Long, result: PointerByReference, resultLength: LongByReference): Int
    fun emrtd_trust_store_create(
        useBuiltIn: Int, certificates: Pointer?, count: Long, store: PointerByReference,
        error: PointerByReference, errorLength: LongByReference
    ): Int
    fun emrtd_trust_store_free(store: Pointer?)
    fun emrtd_verify(request: ByteArray, length: Long, trust: Pointer?, result: PointerByReference, resultLength: LongByReference): Int
    fun emrtd_verify_files(
        files: Pointer?, count: Long, options: ByteArray, optionsLength: Long, trust: Pointer?,
        result: PointerByReference, resultLength: LongByReference
    ): Int
    fun emrtd_cancel_token_create(): Pointer?
    fun emrtd_cancel(token: Pointer?)
    fun emrtd_cancel_token_free(token: Pointer?)
    fun emrtd_read(
        transport: TransportStruct, options: ByteArray, length: Long, trust: Pointer?, cancel: Pointer?,
        result: PointerByReference, resultLength: LongByReference
    ): Int

    interface Transceive : Callback {
        fun invoke(context: Pointer?, command: Pointer, commandLength: Long, response: Pointer, capacity: Long, responseLength: Pointer): Int
    }

    interface SupportsExtendedLength : Callback {
        fun invoke(context: Pointer?): Int
    }

    interface Listener : Callback {
        fun invoke(context: Pointer?, event: Pointer, length: Long)
    }
}

/** emrtd_transport: the host's callbacks, kept reachable by the read that uses them. */
internal class TransportStruct : Structure() {
    @JvmField var context: Pointer? = null
    @JvmField var transceive: EmrtdLibrary.Transceive? = null
    @JvmField var supports_extended_length: EmrtdLibrary.SupportsExtendedLength? = null
    @JvmField var listener: EmrtdLibrary.Listener? = null

    override fun getFieldOrder() = listOf("context", "transceive", "supports_extended_length", "listener")
}

internal object Native {
    const val OK = 0
    const val OUT_OF_MEMORY = 8
    const val TRANSPORT_OK = 0
    const val TRANSPORT_TAG_LOST = 1
    const val TRANSPORT_TIMEOUT = 2
    const val TRANSPORT_CANCELLED = 3
    const val TRANSPORT_IO = 4

    /**
     * The library: EMRTD_LIBRARY's path when set (a build tree's), else the jar's
     * `linux-x86-64/libemrtd.so`, which JNA extracts to a temporary file at first use.
     */
    val lib: EmrtdLibrary by lazy {
        val path = System.getenv("EMRTD_LIBRARY")
        Native.load(if (path.isNullOrEmpty()) "emrtd" else path, EmrtdLibrary::class.java)
    }

    /** Calls an export whose last two parameters are the answer and its length; frees the answer. */
    fun call(function: (PointerByReference, LongByReference) -> Int): Pair<Int, String?> {
        val result = PointerByReference()
        val length = LongByReference()
        val status = function(result, length)
        val text = result.value ?: return status to null
        try {
            if (length.value < 0 || length.value > Int.MAX_VALUE) return status to null
            return status to String(text.getByteArray(0, length.value.toInt()), Charsets.UTF_8)
        } finally {
            lib.emrtd_free(text)
        }
    }

    /** The answer of a call, or its error thrown as the reference's ReadException. */
    fun answer(status: Int, text: String?, what: String): String {
        if (status == OUT_OF_MEMORY || text == null) throw OutOfMemoryError("libemrtd could not allocate its answer")
        if (status != OK) throw readException(JsonFields.parse(text, what))
        return text
    }

    /** Bytes in native memory for the duration of a call (an empty one is one byte, never NULL). */
    fun memory(bytes: ByteArray): Memory = Memory(maxOf(bytes.size, 1).toLong()).also { it.write(0, bytes, 0, bytes.size) }
}

/** The library's error JSON as the reference's exception, keeping the JSON for readErrorToJson. */
internal fun readException(error: JsonFields): ReadException {
    val reason = error.stringOrNull("reason") ?: ""
    val debugInfo = error.objectOrNull("debugInfo")?.debugInfo() ?: DebugInfo()
    val exception = when (error.stringOrNull("code")) {
        "invalid_argument" -> ReadException.InvalidArgument(reason)
        "access_control" -> ReadException.AccessControl(reason, debugInfo)
        "chip_authentication" -> ReadException.ChipAuthentication(reason, debugInfo)
        "not_connected" -> ReadException.NotConnected(reason, debugInfo)
        "read" -> ReadException.Read(error.enumOrNull("kind", ReadErrorKind.values()) ?: ReadErrorKind.UNKNOWN, reason, debugInfo)
        "cancelled" -> ReadException.Cancelled(debugInfo)
        "nfc_unavailable" -> ReadException.NfcUnavailable(reason)
        else -> ReadException.Read(ReadErrorKind.UNKNOWN, reason, debugInfo)
    }
    exception.libraryJson = error.raw
    return exception
}
