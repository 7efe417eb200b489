/* An emrtd_transport over pcsc-lite: the first reader whose name starts with a prefix. */
#ifndef EMRTD_PCSC_TRANSPORT_H
#define EMRTD_PCSC_TRANSPORT_H

#include <PCSC/winscard.h>
#include <emrtd.h>

struct pcsc_link {
    SCARDCONTEXT context;
    SCARDHANDLE card;
    DWORD protocol;
};

/* Connects to the card in the reader named `reader` (exclusive use for the read): 0 on success,
   the PC/SC error otherwise (printed). */
long pcsc_link_open(struct pcsc_link *link, const char *reader);
void pcsc_link_close(struct pcsc_link *link);
/* The callbacks over `link`; `listener` may be NULL. */
emrtd_transport pcsc_transport(struct pcsc_link *link,
                               void (*listener)(void *context, const char *event_json, size_t event_length));

#endif
