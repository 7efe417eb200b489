// The Kotlin example in Java: Java callers see the same API (ReaderConfig.of stands in for the
// constructor with a UInt, which Java cannot call).
//   ReadPassport READER DOCUMENT_NUMBER DATE_OF_BIRTH DATE_OF_EXPIRY [CSCA.pem]
import dev.emrtd.AccessKey;
import dev.emrtd.DataStatus;
import dev.emrtd.EmrtdReader;
import dev.emrtd.FunctionsKt;
import dev.emrtd.MrzFields;
import dev.emrtd.PcscTransport;
import dev.emrtd.ReadException;
import dev.emrtd.ReaderConfig;
import dev.emrtd.TravelDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public final class ReadPassport {
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: ReadPassport READER DOCUMENT_NUMBER DATE_OF_BIRTH DATE_OF_EXPIRY [CSCA.pem]");
            System.exit(2);
        }
        List<byte[]> cscas = new ArrayList<>();
        for (int i = 4; i < args.length; i++) cscas.add(Files.readAllBytes(Path.of(args[i])));
        ReaderConfig config = ReaderConfig.of(true, cscas, 5000, false);
        int status = 0;
        try (PcscTransport transport = new PcscTransport(args[0], 5000, true); EmrtdReader reader = new EmrtdReader(config)) {
            TravelDocument doc = reader.read(transport, new AccessKey.Mrz(args[1], args[2], args[3]), null, null);
            MrzFields mrz = doc.getMachineReadableZoneInformation().getFields();
            System.out.println(mrz.getSecondaryIdentifier() + " " + mrz.getPrimaryIdentifier() + ", " + mrz.getIssuingState() + " " + mrz.getDocumentNumber());
            System.out.println("data: " + doc.getAuthenticationStatus().getData().getStatus() + ", chip: " + doc.getAuthenticationStatus().getChip().getStatus());
            if (doc.getAuthenticationStatus().getData().getStatus() != DataStatus.AUTHENTICATED) status = 3;
        } catch (ReadException e) {
            System.err.println(FunctionsKt.readErrorMessage(e));
            status = 1;
        }
        System.exit(status);
    }
}
