package dev.emrtd

/**
 * Why a read or a call produced no result: the reference's variants and fields. An error that came
 * from the library keeps the library's own JSON (its sentence for people, its finer `type`), which
 * `readErrorMessage` and `readErrorToJson` give back as they are.
 */
sealed class ReadException(message: String) : Exception(message) {
    internal var libraryJson: com.google.gson.JsonObject? = null

    class InvalidArgument(val reason: String) : ReadException("reason=$reason")

    class AccessControl(val reason: String, val debugInfo: DebugInfo) :
        ReadException("reason=$reason, debugInfo=$debugInfo")

    class ChipAuthentication(val reason: String, val debugInfo: DebugInfo) :
        ReadException("reason=$reason, debugInfo=$debugInfo")

    class NotConnected(val reason: String, val debugInfo: DebugInfo) :
        ReadException("reason=$reason, debugInfo=$debugInfo")

    class Read(val kind: ReadErrorKind, val reason: String, val debugInfo: DebugInfo) :
        ReadException("kind=$kind, reason=$reason, debugInfo=$debugInfo")

    class Cancelled(val debugInfo: DebugInfo) : ReadException("debugInfo=$debugInfo")

    class NfcUnavailable(val reason: String) : ReadException("reason=$reason")
}

/**
 * Thrown by a `CardTransport` when the link fails: `TagLost`, `Timeout` and `Io` fail the read
 * with `NotConnected`, `Cancelled` with `Cancelled`, `Unexpected` (and any other exception) with
 * `Read` of kind `UNKNOWN`.
 */
sealed class TransportException(message: String) : Exception(message) {
    class TagLost : TransportException("the tag left the field")
    class Timeout : TransportException("the chip did not answer in time")
    class Cancelled : TransportException("the host cancelled the read")
    class Io(val detail: String) : TransportException("detail=$detail")
    class Unexpected(val detail: String) : TransportException("detail=$detail")
}

/** The link to the chip: one raw command APDU in, the raw response (data, SW1 SW2) out. */
interface CardTransport {
    /** Sends `apdu`; returns the answer with SW1 SW2 (status words such as 6982 are answers). */
    @Throws(TransportException::class)
    fun transceive(apdu: ByteArray): ByteArray

    /** Whether the link carries extended-length APDUs. */
    fun supportsExtendedLength(): Boolean
}

/** A read's progress, called on the reading thread in this order. */
interface ReadListener {
    fun onAccessEstablishmentStarted()

    fun onElementaryFilesReadingProgressUpdated(id: ElementaryFileId, totalProgressPercentage: Int)

    fun onDataAuthenticationStarted()
}
