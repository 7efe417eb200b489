/*
 * emrtd.h: the C interface of libemrtd, an ICAO Doc 9303 reader of electronic travel documents.
 *
 * JSON in, JSON out, in the reference model's shapes: `parseMrz`'s MachineReadableZone,
 * `travelDocumentToJson`'s document, `readErrorToJson`'s error, the React Native/Flutter
 * `ReadOptions` and `AccessKey` forms, and the verdict `emrtd verify --dir` prints.
 *
 * Rules every call keeps:
 * - Every call that can fail returns an emrtd_status. EMRTD_OK means *result holds the answer;
 *   any other status but EMRTD_OUT_OF_MEMORY means *result holds the error as JSON
 *   (`readErrorToJson`: code, message, reason, kind, debugInfo, plus type and detail), whose
 *   "code" is the status's name in snake_case.
 * - Bad input never aborts the process: NULL pointers, lengths over a call's cap, text that is
 *   not UTF-8 and JSON that does not parse are EMRTD_INVALID_ARGUMENT. Only `result` and
 *   `result_length` being NULL leaves nothing to write: the call returns EMRTD_INVALID_ARGUMENT
 *   and writes nothing.
 * - Buffers have explicit lengths. Text given to the library need not end with NUL; text the
 *   library returns is UTF-8, NUL-terminated, its length (without the NUL) in *result_length,
 *   allocated by the library and owned by the caller, who releases it with emrtd_free.
 * - No global state and no global lock: calls run at once on any number of threads. The only
 *   state that outlives a call is an emrtd_trust_store (immutable once made, shareable by
 *   threads) and an emrtd_cancel_token.
 * - Secrets: the access key, once parsed, and every key derived from it live in storage the
 *   library wipes when the read ends. The options' JSON text is parsed into ordinary strings,
 *   freed but not wiped; the caller's options buffer is the caller's to wipe.
 */
#ifndef EMRTD_H
#define EMRTD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call returns: EMRTD_OK, or the reference's error variant (readErrorToJson's "code"). */
typedef int32_t emrtd_status;
enum {
    EMRTD_OK = 0,
    /* Bad input from the caller (options, access key, challenge, certificates, MRZ lines, a dump
       that cannot be loaded); nothing was sent to the chip. */
    EMRTD_INVALID_ARGUMENT = 1,
    /* The chip could not be opened: wrong MRZ or CAN, a CAN without PACE. */
    EMRTD_ACCESS_CONTROL = 2,
    /* Chip Authentication was started and failed: the chip is not what it claims. */
    EMRTD_CHIP_AUTHENTICATION = 3,
    /* The chip left, did not answer in time, or the link failed. */
    EMRTD_NOT_CONNECTED = 4,
    /* The chip answered but its files could not be read or make no document ("kind" says which). */
    EMRTD_READ = 5,
    /* emrtd_cancel, or the transport returned EMRTD_TRANSPORT_CANCELLED. */
    EMRTD_CANCELLED = 6,
    /* The card reader is not there. */
    EMRTD_NFC_UNAVAILABLE = 7,
    /* The library could not allocate the result; *result is NULL. */
    EMRTD_OUT_OF_MEMORY = 8,
};

/* What a transport's transceive returns: the reference's TransportError cases. */
enum {
    EMRTD_TRANSPORT_OK = 0,
    /* The card left the field or the reader: the read fails with EMRTD_NOT_CONNECTED. */
    EMRTD_TRANSPORT_TAG_LOST = 1,
    /* The card did not answer in time: EMRTD_NOT_CONNECTED. */
    EMRTD_TRANSPORT_TIMEOUT = 2,
    /* The host gave up the read: EMRTD_CANCELLED. */
    EMRTD_TRANSPORT_CANCELLED = 3,
    /* The link failed (reader unplugged, service gone): EMRTD_NOT_CONNECTED. */
    EMRTD_TRANSPORT_IO = 4,
};

/* The capacity of the response buffer transceive gets: the largest extended-length response
   (65,536 bytes) and SW1 SW2. */
#define EMRTD_RESPONSE_CAPACITY 65538

/*
 * The host's link to the chip: the reference's CardTransport as C callbacks. The library never
 * frees or keeps `context` after emrtd_read returns.
 *
 * Threads: transceive runs on a worker thread of the library, one call at a time per read, while
 * the thread that called emrtd_read waits for it (so the library can give up on a chip that does
 * not answer within the read's timeoutMs). supports_extended_length and listener run on the
 * thread that called emrtd_read. When emrtd_read returns, no callback of that read is running or
 * will run (a transceive that outlived its timeout is waited for).
 */
typedef struct emrtd_transport {
    /* Passed back to every callback as it is. */
    void *context;
    /*
     * Sends one command APDU (`command`, `command_length` bytes; the library's buffer, valid for
     * the call) and writes the raw response, data and SW1 SW2, into `response` (the library's
     * buffer of `response_capacity` bytes, at least EMRTD_RESPONSE_CAPACITY), its length in
     * *response_length. Status words such as 6982 are answers, not failures: return them with
     * EMRTD_TRANSPORT_OK. Returns an EMRTD_TRANSPORT_* code; a length over the capacity fails the
     * read. The transport applies its own timeout too. Required (NULL is EMRTD_INVALID_ARGUMENT).
     */
    int32_t (*transceive)(void *context, const uint8_t *command, size_t command_length, uint8_t *response,
                          size_t response_capacity, size_t *response_length);
    /* Nonzero when the link carries extended-length APDUs (NULL: short APDUs only). */
    int32_t (*supports_extended_length)(void *context);
    /*
     * Optional (NULL: no events): the read's progress as JSON, the React Native ReadEvent form,
     * the library's buffer valid for the call: {"type":"accessStarted"},
     * {"type":"progress","id":"dg2","percentage":40}, {"type":"dataAuthenticationStarted"}.
     */
    void (*listener)(void *context, const char *event_json, size_t event_length);
} emrtd_transport;

/* Bytes the caller owns, read during the call only. */
typedef struct emrtd_buffer {
    const uint8_t *data;
    size_t length;
} emrtd_buffer;

/* One file of a dump in memory: `name` is its dump file name, NUL-terminated ("SOD.bin",
   "DG1.bin" … "DG16.bin", "COM.bin"); the caller owns both buffers. */
typedef struct emrtd_file {
    const char *name;
    const uint8_t *data;
    size_t length;
} emrtd_file;

/* Trusted CSCAs (and CRLs), loaded once and shared by any number of reads and verifications. */
typedef struct emrtd_trust_store emrtd_trust_store;

/* A handle that cancels the reads it is given, from any thread. */
typedef struct emrtd_cancel_token emrtd_cancel_token;

/* The library's version, e.g. "0.1.0": static text, never freed. */
const char *emrtd_version(void);

/* Releases text the library returned (NULL is ignored). */
void emrtd_free(char *text);

/*
 * Parses MRZ lines (the reference's parseMrz). `lines_json` is a JSON array of 2 or 3 strings
 * (UTF-8, `length` bytes, at most 4096); lines are trimmed and upper-cased. On EMRTD_OK, *result
 * is the MachineReadableZone JSON (machineReadableZoneToJson); EMRTD_INVALID_ARGUMENT otherwise.
 */
emrtd_status emrtd_parse_mrz(const char *lines_json, size_t length, char **result, size_t *result_length);

/*
 * Makes a trust store: the built-in CSCA bundle when `use_built_in` is nonzero (its absence is
 * a warning in every verdict, not an error), plus `count` entries of `certificates`, each a PEM
 * bundle of certificates and CRLs, one DER certificate or one DER CRL (at most 64 MiB each; the
 * caller's buffers, read during the call). On EMRTD_OK, *store is the caller's, released with
 * emrtd_trust_store_free, and *error is untouched; on failure *store is NULL and *error holds the
 * error JSON (an entry with no certificate is EMRTD_INVALID_ARGUMENT, naming the entry).
 */
emrtd_status emrtd_trust_store_create(int32_t use_built_in, const emrtd_buffer *certificates, size_t count,
                                      emrtd_trust_store **store, char **error, size_t *error_length);

/* Releases a trust store (NULL is ignored). No read or verification may still be using it. */
void emrtd_trust_store_free(emrtd_trust_store *store);

/*
 * Verifies a dump offline (Passive Authentication and the document checks): *result is exactly
 * the JSON `emrtd verify --dir` prints, whether or not the data is authenticated (read its
 * "status" and "checks"). `request_json` (UTF-8, at most 64 MiB) is an object with one of
 *   "dir":   a dump folder's path (the layout `emrtd dump` writes: SOD.bin, DG1.bin …), or
 *   "files": an object of dump file names to their bytes in base64 ({"SOD.bin": "d4IG…", …}),
 * and optionally "at" (ISO 8601, "2026-06-01" or "2026-06-01T12:00:00Z": when certificates and
 * expiry are checked; default now), "mrzLines" (the printed MRZ, compared with DG1) and
 * "challenge" (16 hex digits: the Active Authentication challenge the caller chose; the dump's
 * recorded one must be it, else the chip is denied). The result's "chip" is the chip verdict
 * judged again from the dump's evidence.json (a "files" member of that name), shaped as a
 * read's authenticationStatus.chip; without evidence.json it is notSupported and says why.
 * `trust`: NULL trusts the built-in bundle alone. A dump that cannot be loaded (no EF.SOD, an
 * unreadable file) is EMRTD_INVALID_ARGUMENT.
 */
emrtd_status emrtd_verify(const char *request_json, size_t length, const emrtd_trust_store *trust, char **result,
                          size_t *result_length);

/*
 * emrtd_verify with the dump as `count` emrtd_file structs (each at most 16 MiB); `options_json`
 * (may be NULL with `options_length` 0) holds "at", "mrzLines" and "challenge" as above.
 */
emrtd_status emrtd_verify_files(const emrtd_file *files, size_t count, const char *options_json,
                                size_t options_length, const emrtd_trust_store *trust, char **result,
                                size_t *result_length);

/* A cancel token, or NULL when memory is short. Released with emrtd_cancel_token_free. */
emrtd_cancel_token *emrtd_cancel_token_create(void);

/*
 * Cancels every read given `token`, from any thread: a running read fails with EMRTD_CANCELLED
 * before its next APDU (an APDU on the wire is answered first), a read started later fails at
 * once. A token stays cancelled.
 */
void emrtd_cancel(emrtd_cancel_token *token);

/* Releases a token (NULL is ignored) once no read uses it. */
void emrtd_cancel_token_free(emrtd_cancel_token *token);

/*
 * Reads the document through `transport`, blocking until it is read or fails. `options_json`
 * (UTF-8, at most 64 MiB) is the React Native ReadOptions object:
 *   "accessKey" (required): {"mrz": {"documentNumber": "L898902C3", "dateOfBirth": "740812",
 *                             "dateOfExpiry": "120415"}} or {"can": "123456"};
 *   "activeAuthenticationChallenge": 8 bytes in base64 (default none);
 *   "useBuiltInAuthorityCertificates": true, "authorityCertificatesPem": "-----BEGIN…" (only
 *       without `trust`);
 *   "timeoutMs": 5000 (the longest wait for one answer), "debug": false (fill debugInfo.events),
 *   "renderImages": true (JPEG 2000 images also as PNG).
 * `trust` (may be NULL) gives the trusted CSCAs instead of the options' two keys; `cancel` (may be
 * NULL) cancels the read from another thread. On EMRTD_OK, *result is travelDocumentToJson's
 * document; otherwise readErrorToJson's error.
 */
emrtd_status emrtd_read(const emrtd_transport *transport, const char *options_json, size_t length,
                        const emrtd_trust_store *trust, emrtd_cancel_token *cancel, char **result,
                        size_t *result_length);

#ifdef __cplusplus
}
#endif

#endif /* EMRTD_H */
