// Reads a passport on a PC/SC reader and prints whether its data and chip are genuine.
//   ReadPassportKt READER DOCUMENT_NUMBER DATE_OF_BIRTH DATE_OF_EXPIRY [CSCA.pem]
import dev.emrtd.AccessKey
import dev.emrtd.DataStatus
import dev.emrtd.EmrtdReader
import dev.emrtd.PcscTransport
import dev.emrtd.ReadException
import dev.emrtd.ReaderConfig
import dev.emrtd.readErrorMessage
import java.io.File
import kotlin.system.exitProcess

fun main(args: Array<String>) {
    if (args.size < 4) {
        System.err.println("usage: ReadPassportKt READER DOCUMENT_NUMBER DATE_OF_BIRTH DATE_OF_EXPIRY [CSCA.pem]")
        exitProcess(2)
    }
    val config = ReaderConfig(authorityCertificates = args.drop(4).map { File(it).readBytes() })
    val transport = PcscTransport(args[0], config.timeoutMs.toLong(), true)
    val reader = EmrtdReader(config)
    try {
        val doc = reader.read(transport, AccessKey.Mrz(args[1], args[2], args[3]), null, null)
        val mrz = doc.machineReadableZoneInformation.fields
        println("${mrz.secondaryIdentifier} ${mrz.primaryIdentifier}, ${mrz.issuingState} ${mrz.documentNumber}")
        println("data: ${doc.authenticationStatus.data.status}, chip: ${doc.authenticationStatus.chip.status}")
        if (doc.authenticationStatus.data.status != DataStatus.AUTHENTICATED) exitProcess(3)
    } catch (e: ReadException) {
        System.err.println(readErrorMessage(e))
        exitProcess(1)
    } finally {
        reader.close()
        transport.close()
    }
}
