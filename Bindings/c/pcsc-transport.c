#include "pcsc-transport.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

long pcsc_link_open(struct pcsc_link *link, const char *reader) {
    memset(link, 0, sizeof *link);
    LONG rv = SCardEstablishContext(SCARD_SCOPE_SYSTEM, NULL, NULL, &link->context);
    if (rv != SCARD_S_SUCCESS) {
        fprintf(stderr, "pcsc: no PC/SC service: %s\n", pcsc_stringify_error(rv));
        return rv;
    }
    /* A card another process has just released may still be held, reset or powered up by pcscd
       for a moment: those answers are retried for up to 5 s, every other one is final. */
    for (int attempt = 0;; attempt++) {
        rv = SCardConnect(link->context, reader, SCARD_SHARE_EXCLUSIVE, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1,
                          &link->card, &link->protocol);
        int transient = rv == SCARD_E_SHARING_VIOLATION || rv == SCARD_W_RESET_CARD || rv == SCARD_W_REMOVED_CARD
                        || rv == SCARD_W_UNPOWERED_CARD || rv == SCARD_W_UNRESPONSIVE_CARD || rv == SCARD_E_NO_SMARTCARD;
        if (rv == SCARD_S_SUCCESS || !transient || attempt == 50) break;
        struct timespec pause = {0, 100 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    if (rv != SCARD_S_SUCCESS) {
        fprintf(stderr, "pcsc: cannot connect to \"%s\": %s\n", reader, pcsc_stringify_error(rv));
        SCardReleaseContext(link->context);
        return rv;
    }
    return 0;
}

void pcsc_link_close(struct pcsc_link *link) {
    SCardDisconnect(link->card, SCARD_LEAVE_CARD);
    SCardReleaseContext(link->context);
}

/* One APDU through SCardTransmit; PC/SC's failures become the header's transport codes. */
static int32_t transceive(void *context, const uint8_t *command, size_t command_length, uint8_t *response,
                          size_t response_capacity, size_t *response_length) {
    struct pcsc_link *link = context;
    const SCARD_IO_REQUEST *pci = link->protocol == SCARD_PROTOCOL_T0 ? SCARD_PCI_T0 : SCARD_PCI_T1;
    DWORD length = (DWORD)response_capacity;
    LONG rv = SCardTransmit(link->card, pci, command, (DWORD)command_length, NULL, response, &length);
    switch (rv) {
    case SCARD_S_SUCCESS:
        *response_length = length;
        return EMRTD_TRANSPORT_OK;
    case SCARD_W_REMOVED_CARD:
    case SCARD_E_NO_SMARTCARD:
    case SCARD_W_RESET_CARD:
        return EMRTD_TRANSPORT_TAG_LOST;
    case SCARD_E_TIMEOUT:
        return EMRTD_TRANSPORT_TIMEOUT;
    case SCARD_E_CANCELLED:
        return EMRTD_TRANSPORT_CANCELLED;
    default:
        return EMRTD_TRANSPORT_IO;
    }
}

/* vpcd and most contactless readers carry extended length; a host that knows its reader says so. */
static int32_t supports_extended_length(void *context) {
    (void)context;
    return 1;
}

emrtd_transport pcsc_transport(struct pcsc_link *link,
                               void (*listener)(void *context, const char *event_json, size_t event_length)) {
    emrtd_transport transport = {
        .context = link,
        .transceive = transceive,
        .supports_extended_length = supports_extended_length,
        .listener = listener,
    };
    return transport;
}
