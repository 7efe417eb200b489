package dev.emrtd;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.smartcardio.Card;
import javax.smartcardio.CardException;
import javax.smartcardio.CardTerminal;
import javax.smartcardio.CommandAPDU;
import javax.smartcardio.TerminalFactory;

/**
 * A card on a PC/SC reader (pcsc-lite on Linux) through the JDK's javax.smartcardio: written in
 * Java because Debian's kotlinc 1.3 cannot see the JDK's modules. Connects on creation to the
 * reader named {@code readerName} (or the first whose name starts with it); each command waits at
 * most {@code timeoutMs} (pass ReaderConfig.timeoutMs: {@code config.timeoutMs.toLong()} in
 * Kotlin), then fails with TransportException.Timeout and
 * the card is let go. {@link #close()} disconnects.
 */
public final class PcscTransport implements CardTransport, AutoCloseable {
    private final Card card;
    private final long timeoutMs;
    private final boolean extendedLength;
    private final ExecutorService link = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "emrtd-pcsc");
        thread.setDaemon(true);
        return thread;
    });

    public PcscTransport(String readerName, long timeoutMs, boolean extendedLength) throws TransportException {
        this.timeoutMs = timeoutMs;
        this.extendedLength = extendedLength;
        useSystemPcscLite();
        try {
            CardTerminal terminal = null;
            List<CardTerminal> terminals = TerminalFactory.getDefault().terminals().list();
            for (CardTerminal candidate : terminals) {
                if (candidate.getName().equals(readerName)) terminal = candidate;
            }
            for (CardTerminal candidate : terminals) {
                if (terminal == null && candidate.getName().startsWith(readerName)) terminal = candidate;
            }
            if (terminal == null) throw new TransportException.Io("no PC/SC reader named '" + readerName + "'");
            card = terminal.connect("*");
        } catch (CardException error) {
            throw new TransportException.Io("PC/SC: " + error.getMessage());
        }
    }

    /** javax.smartcardio looks for libpcsclite.so, which Debian ships only with -dev: point it at the runtime's. */
    private static void useSystemPcscLite() {
        String key = "sun.security.smartcardio.library";
        Path runtime = Path.of("/usr/lib/x86_64-linux-gnu/libpcsclite.so.1");
        if (System.getProperty(key) == null && Files.exists(runtime)) System.setProperty(key, runtime.toString());
    }

    @Override
    public byte[] transceive(byte[] apdu) throws TransportException {
        Future<byte[]> answer = link.submit(() -> card.getBasicChannel().transmit(new CommandAPDU(apdu)).getBytes());
        try {
            return answer.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException error) {
            answer.cancel(true);
            throw new TransportException.Timeout();
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
            throw new TransportException.Cancelled();
        } catch (ExecutionException error) {
            String text = String.valueOf(error.getCause().getMessage());
            if (text.contains("REMOVED") || text.contains("RESET") || text.contains("NO_SMARTCARD")) throw new TransportException.TagLost();
            throw new TransportException.Io(text);
        }
    }

    @Override
    public boolean supportsExtendedLength() {
        return extendedLength;
    }

    @Override
    public void close() {
        link.shutdownNow();
        try {
            card.disconnect(false);
        } catch (CardException error) {
            // The card is gone already.
        }
    }
}
