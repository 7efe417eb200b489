// libwebsockets (Debian's libwebsockets-dev, 4.1; TLS through OpenSSL) for Swift: the WebSocket
// server of `emrtd serve` and the client of `emrtd relay` (package Validation).
#include <libwebsockets.h>

// Macros Swift cannot import (computed padding, 64-bit option flags), as functions.
static inline size_t clws_pre(void) { return LWS_PRE; }
static inline uint64_t clws_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t clws_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t clws_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
static inline uint64_t clws_option_ipv6_only(void) {
    return LWS_SERVER_OPTION_IPV6_V6ONLY_MODIFY | LWS_SERVER_OPTION_IPV6_V6ONLY_VALUE;
}
static inline uint64_t clws_option_fail_upon_unable_to_bind(void) {
    return LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
}
