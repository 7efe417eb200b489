/*
 * Reads a document through libemrtd with a C transport over pcsc-lite, then parses its MRZ and
 * verifies a dump: the three calls a C host makes.
 *
 *   read-simulator READER DOCUMENT-NUMBER BIRTH EXPIRY CSCA.pem [DUMP-DIR]
 *
 * Prints the document's JSON (then the MRZ's and the verdict's) and exits 0, or prints the
 * error JSON and exits with the call's status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcsc-transport.h"

static void on_event(void *context, const char *event_json, size_t event_length) {
    (void)context;
    fprintf(stderr, "event: %.*s\n", (int)event_length, event_json);
}

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    char *buffer = malloc(1 << 20);
    *length = buffer ? fread(buffer, 1, 1 << 20, file) : 0;
    fclose(file);
    return buffer;
}

/* Prints a call's answer; returns its status. */
static int report(const char *what, emrtd_status status, char *json, size_t length) {
    printf("%s: status %d\n%.*s\n", what, status, (int)length, json ? json : "");
    emrtd_free(json);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: %s READER DOCUMENT-NUMBER BIRTH EXPIRY CSCA.pem [DUMP-DIR]\n", argv[0]);
        return 2;
    }
    size_t pem_length = 0;
    char *pem = read_file(argv[5], &pem_length);
    if (!pem) {
        fprintf(stderr, "cannot read %s\n", argv[5]);
        return 2;
    }
    emrtd_buffer csca = {(const uint8_t *)pem, pem_length};
    emrtd_trust_store *trust = NULL;
    char *json = NULL;
    size_t length = 0;
    emrtd_status status = emrtd_trust_store_create(0, &csca, 1, &trust, &json, &length);
    free(pem);
    if (status != EMRTD_OK) return report("trust store", status, json, length);

    struct pcsc_link link;
    if (pcsc_link_open(&link, argv[1]) != 0) return 4;
    emrtd_transport transport = pcsc_transport(&link, on_event);
    char options[512];
    int options_length = snprintf(options, sizeof options,
                                  "{\"accessKey\": {\"mrz\": {\"documentNumber\": \"%s\", \"dateOfBirth\": \"%s\", "
                                  "\"dateOfExpiry\": \"%s\"}}, \"renderImages\": false}",
                                  argv[2], argv[3], argv[4]);
    status = emrtd_read(&transport, options, (size_t)options_length, trust, NULL, &json, &length);
    memset(options, 0, sizeof options); /* the access key */
    pcsc_link_close(&link);
    int failed = report("read", status, json, length) != EMRTD_OK;

    const char *lines = "[\"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\", "
                        "\"L898902C36UTO7408122F1204159ZE184226B<<<<<10\"]";
    status = emrtd_parse_mrz(lines, strlen(lines), &json, &length);
    failed |= report("parse", status, json, length) != EMRTD_OK;

    if (argc > 6) {
        char request[4096];
        int request_length = snprintf(request, sizeof request, "{\"dir\": \"%s\"}", argv[6]);
        status = emrtd_verify(request, (size_t)request_length, trust, &json, &length);
        failed |= report("verify", status, json, length) != EMRTD_OK;
    }
    emrtd_trust_store_free(trust);
    return failed;
}
