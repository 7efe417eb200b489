// OpenSSL libcrypto (3.x) for Swift: the EVP, BN, EC, RSA and random APIs.
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/pem.h>

// Composite macros Swift cannot import, as functions.
static inline int copenssl_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
