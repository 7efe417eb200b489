package dev.emrtd;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The client of a validation session with {@code emrtd serve} (Packages/Validation/README.md,
 * protocol version 1), over the JDK's java.net.http.WebSocket (in Java: kotlinc 1.3 cannot see JDK
 * modules): hello with the tenant's token, the access key and the files to read, then every
 * command APDU the server sends relayed through a {@link CardTransport} until the server closes.
 * The server reads and verifies the chip and posts the result; the outcome is its close code.
 */
public final class Connector {
    /** Text messages up to the protocol's largest result (16 MiB); APDUs up to 70 000 bytes. */
    private static final int MAXIMUM_TEXT = 16 * 1024 * 1024;
    private static final int MAXIMUM_BINARY = 70_000;

    /**
     * How a session ended: the server's close code (1000 the result was posted and confirmed,
     * 4001 the tenant or token refused, 4002 the chip refused the access key, …; 1006 the link
     * broke), its reason, and the result's JSON when the tenant has receiveResult.
     */
    public record ValidationOutcome(int closeCode, String reason, String result) {}

    private final URI url;
    private final String clientId;
    private final String token;
    private final Map<String, String> headers;
    private final Duration stepTimeout;

    /**
     * {@code url}: ws:// or wss:// up to /ws/validate; {@code token}: the tenant's session token
     * for this scan (null for an open tenant); {@code headers}: forwarded with the result's POST;
     * {@code stepTimeout}: the longest wait for the server's next message.
     */
    public Connector(URI url, String clientId, String token, Map<String, String> headers, Duration stepTimeout) {
        this.url = url;
        this.clientId = clientId;
        this.token = token;
        this.headers = Map.copyOf(headers);
        this.stepTimeout = stepTimeout;
    }

    /** One message or the end, as the listener hands them to the session's thread. */
    private record Event(String text, byte[] binary, Integer closeCode, String reason) {}

    /**
     * Runs one session: validates the document on {@code transport} for {@code validationId}
     * (1 to 128 visible ASCII characters), reading {@code filesToRead} ("minimal", "minimalKYC",
     * "standard" or "all"). Blocks until the server closes.
     */
    public ValidationOutcome validate(CardTransport transport, String validationId, AccessKey accessKey, String filesToRead)
            throws InterruptedException {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        WebSocket.Listener listener = new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();
            private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();

            @Override
            public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                text.append(data);
                if (text.length() > MAXIMUM_TEXT) {
                    socket.sendClose(1009, "message too large");
                } else if (last) {
                    events.add(new Event(text.toString(), null, null, null));
                    text.setLength(0);
                }
                socket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
                byte[] bytes = new byte[data.remaining()];
                data.get(bytes);
                binary.write(bytes, 0, bytes.length);
                if (binary.size() > MAXIMUM_BINARY) {
                    socket.sendClose(1009, "message too large");
                } else if (last) {
                    events.add(new Event(null, binary.toByteArray(), null, null));
                    binary.reset();
                }
                socket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket socket, int code, String reason) {
                events.add(new Event(null, null, code, reason));
                return null;
            }

            @Override
            public void onError(WebSocket socket, Throwable error) {
                events.add(new Event(null, null, 1006, String.valueOf(error.getMessage())));
            }
        };
        WebSocket socket;
        try {
            socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("emrtd-validation.v1")
                    .connectTimeout(stepTimeout).buildAsync(url, listener).join();
        } catch (java.util.concurrent.CompletionException error) {
            return new ValidationOutcome(1006, "could not connect: " + error.getCause(), null);
        }
        JsonObject hello = new JsonObject();
        hello.addProperty("type", "hello");
        hello.addProperty("version", 1);
        hello.addProperty("validationId", validationId);
        hello.addProperty("clientId", clientId);
        hello.addProperty("token", token);
        JsonObject forwarded = new JsonObject();
        headers.forEach(forwarded::addProperty);
        hello.add("headers", forwarded);
        hello.addProperty("extendedLength", transport.supportsExtendedLength());
        socket.sendText(hello.toString(), true).join();
        String result = null;
        boolean ready = false;
        while (true) {
            Event event = events.poll(stepTimeout.toMillis(), TimeUnit.MILLISECONDS);
            if (event == null) {
                socket.abort();
                return new ValidationOutcome(1006, "the server sent nothing for " + stepTimeout, result);
            }
            if (event.closeCode() != null) {
                if (!socket.isOutputClosed()) socket.sendClose(WebSocket.NORMAL_CLOSURE, "");
                return new ValidationOutcome(event.closeCode(), event.reason(), result);
            }
            if (event.binary() != null) {
                byte[] answer = answer(transport, event.binary(), socket);
                if (answer != null) socket.sendBinary(ByteBuffer.wrap(answer), true).join();
                continue;
            }
            JsonObject message = JsonParser.parseString(event.text()).getAsJsonObject();
            String type = message.has("type") ? message.get("type").getAsString() : "";
            if (type.equals("ready") && !ready) {
                ready = true;
                socket.sendText(access(accessKey, filesToRead).toString(), true).join();
            } else if (type.equals("result")) {
                result = message.get("result").toString();
            }
        }
    }

    /** The chip's answer to one command, or null when the chip left: chipLost is then sent instead. */
    private static byte[] answer(CardTransport transport, byte[] command, WebSocket socket) {
        try {
            return transport.transceive(command);
        } catch (Exception error) {
            JsonObject lost = new JsonObject();
            lost.addProperty("type", "chipLost");
            lost.addProperty("reason", String.valueOf(error.getMessage()));
            socket.sendText(lost.toString(), true).join();
            return null;
        }
    }

    /** The access message: the key as the protocol's password (MRZ information with check digits, or the CAN). */
    private static JsonObject access(AccessKey accessKey, String filesToRead) {
        JsonObject key = new JsonObject();
        if (accessKey instanceof AccessKey.Mrz mrz) {
            String number = padded(mrz.getDocumentNumber().trim().toUpperCase());
            String birth = mrz.getDateOfBirth().trim();
            String expiry = mrz.getDateOfExpiry().trim();
            key.addProperty("kind", "mrz");
            key.addProperty("password", number + checkDigit(number) + birth + checkDigit(birth) + expiry + checkDigit(expiry));
        } else if (accessKey instanceof AccessKey.Can can) {
            key.addProperty("kind", "can");
            key.addProperty("password", can.getValue().trim());
        }
        JsonObject access = new JsonObject();
        access.addProperty("type", "access");
        access.add("accessKey", key);
        access.addProperty("filesToRead", filesToRead);
        return access;
    }

    private static String padded(String number) {
        StringBuilder text = new StringBuilder(number);
        while (text.length() < 9) text.append('<');
        return text.toString();
    }

    /** ICAO 9303-3's check digit: weights 7, 3, 1; digits as themselves, A-Z as 10-35, < as 0. */
    static char checkDigit(String field) {
        int sum = 0;
        int[] weights = {7, 3, 1};
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            int value = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 0;
            sum += value * weights[i % 3];
        }
        return (char) ('0' + sum % 10);
    }
}
