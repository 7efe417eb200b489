package dev.emrtd

import com.google.gson.JsonObject
import com.sun.jna.Pointer
import java.util.Base64

/**
 * Runs reads over any CardTransport with the trust of `config` (loaded once here: throws
 * ReadException.InvalidArgument when an entry of `config.authorityCertificates` has no
 * certificate). One read at a time per reader; readers on several threads at once are fine.
 */
class EmrtdReader @Throws(ReadException::class) constructor(val config: ReaderConfig) : AutoCloseable {
    private val trust = TrustStore(config.useBuiltInAuthorityCertificates, config.authorityCertificates)
    private val lock = Object()
    private var running: Pointer? = null
    private var busy = false

    /**
     * Reads the document on `transport`, blocking (never on a UI thread). `activeAuthenticationChallenge`,
     * when given, must be 8 bytes; `listener` is called on this thread.
     */
    @Throws(ReadException::class)
    fun read(
        transport: CardTransport,
        accessKey: AccessKey,
        activeAuthenticationChallenge: ByteArray?,
        listener: ReadListener?
    ): TravelDocument {
        val options = JsonObject()
        options.add("accessKey", JsonObject().apply {
            when (accessKey) {
                is AccessKey.Mrz -> add("mrz", JsonObject().apply {
                    addProperty("documentNumber", accessKey.documentNumber)
                    addProperty("dateOfBirth", accessKey.dateOfBirth)
                    addProperty("dateOfExpiry", accessKey.dateOfExpiry)
                })
                is AccessKey.Can -> addProperty("can", accessKey.value)
            }
        })
        activeAuthenticationChallenge?.let { options.addProperty("activeAuthenticationChallenge", Base64.getEncoder().encodeToString(it)) }
        options.addProperty("timeoutMs", config.timeoutMs.toLong())
        options.addProperty("debug", config.debug)
        val data = options.toString().toByteArray(Charsets.UTF_8)
        val token = synchronized(lock) {
            if (busy) throw ReadException.InvalidArgument("A read is already in progress")
            busy = true
            Native.lib.emrtd_cancel_token_create().also { running = it }
        }
        val callbacks = Callbacks(transport, listener)
        try {
            if (token == null) throw OutOfMemoryError("libemrtd could not make a cancel token")
            val (status, text) = trust.use { store ->
                Native.call { result, length -> Native.lib.emrtd_read(callbacks.struct, data, data.size.toLong(), store, token, result, length) }
            }
            val json = try {
                Native.answer(status, text, "the read's error")
            } catch (error: ReadException) {
                throw callbacks.refine(error)
            }
            return decode(json, "the document") { it.travelDocument() }
        } finally {
            data.fill(0)
            synchronized(lock) {
                running = null
                busy = false
                Native.lib.emrtd_cancel_token_free(token)
            }
        }
    }

    /** Ends the read in progress with ReadException.Cancelled before its next APDU; no effect between reads. */
    fun cancel() {
        synchronized(lock) { running?.let { Native.lib.emrtd_cancel(it) } }
    }

    override fun close() = trust.close()
}

/** Decodes the library's answer; an answer this binding cannot read is a Read error of kind UNKNOWN. */
internal fun <T> decode(text: String, what: String, body: (JsonFields) -> T): T = try {
    body(JsonFields.parse(text, what))
} catch (error: ModelDecodingException) {
    throw ReadException.Read(ReadErrorKind.UNKNOWN, "the library's answer could not be decoded: ${error.message}", DebugInfo())
}

/**
 * The transport and listener as the library's callbacks. transceive runs on the library's worker
 * thread (JNA attaches it to the JVM); a transport's failure is told to the library by its
 * EMRTD_TRANSPORT_* code, and kept to refine the error (the C codes have no Unexpected).
 */
private class Callbacks(private val transport: CardTransport, private val listener: ReadListener?) {
    @Volatile private var unexpected: Throwable? = null
    val struct = TransportStruct()

    init {
        struct.transceive = object : EmrtdLibrary.Transceive {
            override fun invoke(context: Pointer?, command: Pointer, commandLength: Long, response: Pointer, capacity: Long, responseLength: Pointer): Int {
                val answer = try {
                    transport.transceive(command.getByteArray(0, commandLength.toInt()))
                } catch (error: TransportException.TagLost) {
                    return Native.TRANSPORT_TAG_LOST
                } catch (error: TransportException.Timeout) {
                    return Native.TRANSPORT_TIMEOUT
                } catch (error: TransportException.Cancelled) {
                    return Native.TRANSPORT_CANCELLED
                } catch (error: TransportException.Io) {
                    return Native.TRANSPORT_IO
                } catch (error: Throwable) {
                    unexpected = error
                    return Native.TRANSPORT_IO
                }
                if (answer.size > capacity) {
                    unexpected = TransportException.Unexpected("the transport answered ${answer.size} bytes, more than $capacity")
                    return Native.TRANSPORT_IO
                }
                response.write(0, answer, 0, answer.size)
                responseLength.setLong(0, answer.size.toLong())
                return Native.TRANSPORT_OK
            }
        }
        struct.supports_extended_length = object : EmrtdLibrary.SupportsExtendedLength {
            override fun invoke(context: Pointer?): Int = try {
                if (transport.supportsExtendedLength()) 1 else 0
            } catch (error: Throwable) {
                0
            }
        }
        if (listener != null) {
            struct.listener = object : EmrtdLibrary.Listener {
                override fun invoke(context: Pointer?, event: Pointer, length: Long) {
                    try {
                        val fields = JsonFields.parse(String(event.getByteArray(0, length.toInt()), Charsets.UTF_8), "the event")
                        when (fields.stringOrNull("type")) {
                            "accessStarted" -> listener.onAccessEstablishmentStarted()
                            "progress" -> listener.onElementaryFilesReadingProgressUpdated(
                                fields.enum("id", ElementaryFileId.values()), fields.longOrNull("percentage")?.toInt() ?: 0
                            )
                            "dataAuthenticationStarted" -> listener.onDataAuthenticationStarted()
                        }
                    } catch (error: Throwable) {
                        // A listener's failure does not stop the read, and nothing may be thrown into C.
                    }
                }
            }
        }
        struct.write()
    }

    /** A NotConnected the transport caused by an Unexpected failure is the reference's Read of kind UNKNOWN. */
    fun refine(error: ReadException): ReadException {
        val cause = unexpected ?: return error
        if (error !is ReadException.NotConnected) return error
        val detail = (cause as? TransportException.Unexpected)?.detail ?: cause.toString()
        return ReadException.Read(ReadErrorKind.UNKNOWN, "unexpected transport failure: $detail", error.debugInfo).also {
            it.initCause(cause)
        }
    }
}
