/*
 * Many ABI calls in one process, for Valgrind or AddressSanitizer: parses (good and bad input),
 * verifications (a dump in memory and as a folder), trust stores made and freed, cancel tokens,
 * and whole reads through pcsc-lite. Every answer is freed; a leak or an invalid access is the
 * tool's to report.
 *
 *   stress CALLS READS READER DOCUMENT-NUMBER BIRTH EXPIRY CSCA.pem DUMP-DIR
 *
 * CALLS calls in all, READS of them reads (one every CALLS/READS). Prints the count per call and
 * status, and exits 1 when a call that must succeed failed or one that must fail succeeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcsc-transport.h"

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    char *buffer = malloc(1 << 20);
    *length = buffer ? fread(buffer, 1, 1 << 20, file) : 0;
    fclose(file);
    return buffer;
}

static long counts[4][2]; /* parse, verify, read, trust store × as expected, not */
static const char *names[] = {"parse", "verify", "read", "trust store"};

/* Frees the answer and counts whether the status was the expected one (every call but a trust
   store made writes text). */
static void check(int call, emrtd_status status, emrtd_status expected, char *json) {
    if (json == NULL && status != EMRTD_OUT_OF_MEMORY && !(call == 3 && status == EMRTD_OK)) status = -1;
    if (status != expected && counts[call][1] < 5) fprintf(stderr, "%s: status %d, expected %d: %s\n",
                                                          names[call], status, expected, json ? json : "");
    counts[call][status == expected ? 0 : 1]++;
    emrtd_free(json);
}

/* One call: its status taken before its text is looked at (function arguments have no order). */
#define CHECK(call, expression, expected)                                                                  \
    do {                                                                                                   \
        json = NULL;                                                                                       \
        emrtd_status status_ = (expression);                                                               \
        check(call, status_, expected, json);                                                              \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 9) {
        fprintf(stderr, "usage: %s CALLS READS READER DOCUMENT-NUMBER BIRTH EXPIRY CSCA.pem DUMP-DIR\n", argv[0]);
        return 2;
    }
    long calls = atol(argv[1]), reads = atol(argv[2]);
    size_t pem_length = 0, sod_length = 0, dg1_length = 0, dg2_length = 0;
    char path[4096];
    char *pem = read_file(argv[7], &pem_length);
    snprintf(path, sizeof path, "%s/SOD.bin", argv[8]);
    char *sod = read_file(path, &sod_length);
    snprintf(path, sizeof path, "%s/DG1.bin", argv[8]);
    char *dg1 = read_file(path, &dg1_length);
    snprintf(path, sizeof path, "%s/DG2.bin", argv[8]);
    char *dg2 = read_file(path, &dg2_length);
    if (!pem || !sod || !dg1 || !dg2) {
        fprintf(stderr, "cannot read the CSCA or the dump's SOD.bin, DG1.bin, DG2.bin\n");
        return 2;
    }
    emrtd_buffer csca = {(const uint8_t *)pem, pem_length};
    emrtd_trust_store *trust = NULL;
    char *json = NULL;
    size_t length = 0;
    CHECK(3, emrtd_trust_store_create(0, &csca, 1, &trust, &json, &length), EMRTD_OK);
    emrtd_file files[] = {{"SOD.bin", (const uint8_t *)sod, sod_length},
                          {"DG1.bin", (const uint8_t *)dg1, dg1_length},
                          {"DG2.bin", (const uint8_t *)dg2, dg2_length}};
    char options[512];
    int options_length = snprintf(options, sizeof options,
                                  "{\"accessKey\": {\"mrz\": {\"documentNumber\": \"%s\", \"dateOfBirth\": \"%s\", "
                                  "\"dateOfExpiry\": \"%s\"}}, \"renderImages\": false}",
                                  argv[4], argv[5], argv[6]);
    char dir_request[4096];
    int dir_length = snprintf(dir_request, sizeof dir_request, "{\"dir\": \"%s\", \"at\": \"2026-06-01\"}", argv[8]);
    const char *lines = "[\"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\", "
                        "\"L898902C36UTO7408122F1204159ZE184226B<<<<<10\"]";
    const char bad_utf8[] = "[\"\xc1\"]";
    const char *at = "{\"at\": \"2026-06-01\"}";

    long read_every = reads > 0 ? calls / reads : calls + 1;
    for (long i = 1; i <= calls; i++) {
        if (i % read_every == 0) {
            struct pcsc_link link;
            if (pcsc_link_open(&link, argv[3]) != 0) return 1;
            emrtd_transport transport = pcsc_transport(&link, NULL);
            emrtd_cancel_token *token = emrtd_cancel_token_create();
            /* Every other read with a cancelled token: it fails before its first APDU. */
            int cancelled = (i / read_every) % 2 == 0;
            if (cancelled) emrtd_cancel(token);
            CHECK(2, emrtd_read(&transport, options, (size_t)options_length, trust, token, &json, &length), cancelled ? EMRTD_CANCELLED : EMRTD_OK);
            emrtd_cancel_token_free(token);
            pcsc_link_close(&link);
            continue;
        }
        switch (i % 8) {
        case 0: CHECK(0, emrtd_parse_mrz(lines, strlen(lines), &json, &length), EMRTD_OK); break;
        case 1: CHECK(0, emrtd_parse_mrz(bad_utf8, strlen(bad_utf8), &json, &length), EMRTD_INVALID_ARGUMENT); break;
        case 2: CHECK(0, emrtd_parse_mrz(NULL, 40, &json, &length), EMRTD_INVALID_ARGUMENT); break;
        case 3: CHECK(0, emrtd_parse_mrz("[\"P<", 4, &json, &length), EMRTD_INVALID_ARGUMENT); break;
        case 4:
            CHECK(1, emrtd_verify_files(files, 3, at, strlen(at), trust, &json, &length), EMRTD_OK);
            break;
        case 5: CHECK(1, emrtd_verify(dir_request, (size_t)dir_length, trust, &json, &length), EMRTD_OK); break;
        case 6:
            CHECK(1, emrtd_verify_files(files + 1, 2, at, strlen(at), trust, &json, &length), EMRTD_INVALID_ARGUMENT);
            break;
        case 7: {
            emrtd_trust_store *store = NULL;
            emrtd_buffer junk = {(const uint8_t *)"junk", 4};
            CHECK(3, emrtd_trust_store_create(0, &junk, 1, &store, &json, &length), EMRTD_INVALID_ARGUMENT);
            break;
        }
        }
    }
    emrtd_trust_store_free(trust);
    memset(options, 0, sizeof options);
    free(pem), free(sod), free(dg1), free(dg2);
    long failures = 0, total = 0;
    for (int call = 0; call < 4; call++) {
        printf("%-12s %6ld as expected, %ld not\n", names[call], counts[call][0], counts[call][1]);
        failures += counts[call][1];
        total += counts[call][0] + counts[call][1];
    }
    printf("%ld calls, %ld not as expected\n", total, failures);
    return failures != 0;
}
