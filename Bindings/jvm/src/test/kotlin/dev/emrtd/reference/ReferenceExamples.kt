package dev.emrtd.reference

// The reference's Kotlin example of a custom CardTransport and a read with
// ReaderConfig(authorityCertificates = listOf(cscaPem)), as written there; only the import differs
// (dev.emrtd for network.sharering.emrtd). Around it, what the example assumes: a link (`MyLink`,
// here the simulated chip of the tests), its two exceptions, and the coroutine calls it makes
// (Debian has no kotlinx.coroutines: `withContext` and `Dispatchers.IO` below run the block on a
// thread of their own with the standard library's coroutine primitives).
import dev.emrtd.*
import dev.emrtd.tests.SimulatedChip
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.util.concurrent.CompletableFuture
import kotlin.coroutines.Continuation
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.coroutines.startCoroutine
import kotlin.coroutines.suspendCoroutine

// ---- the reference's example, as written ----
class MyTransport(private val link: MyLink) : CardTransport {
    override fun transceive(apdu: ByteArray): ByteArray = try {
        link.send(apdu) // response data + SW1 SW2
    } catch (e: MyTimeout) {
        throw TransportException.Timeout()
    } catch (e: MyLinkLost) {
        throw TransportException.TagLost()
    }
    override fun supportsExtendedLength() = link.maxApduSize > 261
}

suspend fun referenceRead(link: MyLink, cscaPem: ByteArray): TravelDocument {
    val reader = EmrtdReader(ReaderConfig(authorityCertificates = listOf(cscaPem)))
    val doc = withContext(Dispatchers.IO) {
        reader.read(MyTransport(link), AccessKey.Can("123456"), null, null)
    }
    return doc
}
// ---- end of the example ----

class MyTimeout : Exception()
class MyLinkLost : Exception()

class MyLink(private val chip: SimulatedChip) {
    val maxApduSize = 65546

    fun send(apdu: ByteArray): ByteArray = try {
        chip.transceive(apdu)
    } catch (error: TransportException.Io) {
        throw MyLinkLost()
    }
}

object Dispatchers {
    val IO: CoroutineContext = EmptyCoroutineContext
}

/** Runs `block` on a new thread and resumes the caller with its result. */
suspend fun <T> withContext(context: CoroutineContext, block: suspend () -> T): T = suspendCoroutine { caller ->
    Thread { block.startCoroutine(Continuation(context) { result -> caller.resumeWith(result) }) }.start()
}

fun <T> runBlocking(block: suspend () -> T): T {
    val done = CompletableFuture<T>()
    block.startCoroutine(Continuation(EmptyCoroutineContext) { result -> result.fold({ done.complete(it) }, { done.completeExceptionally(it) }) })
    return try {
        done.get()
    } catch (error: java.util.concurrent.ExecutionException) {
        throw error.cause ?: error
    }
}

class ReferenceExamplesTests {
    @Test
    fun theReferencesCustomTransportReadsWithTheCan() {
        SimulatedChip().use { chip ->
            val document = runBlocking { referenceRead(MyLink(chip), chip.csca) }
            assertEquals(AccessControlProtocol.PACE, document.accessControlProtocolUsed)
            assertEquals(DataStatus.AUTHENTICATED, document.authenticationStatus.data.status)
            assertEquals("ERIKSSON", document.machineReadableZoneInformation.fields.primaryIdentifier)
        }
    }
}
