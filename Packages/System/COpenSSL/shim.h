// OpenSSL libcrypto (3.x) for Swift: the EVP, BN, EC, RSA and random APIs.
#include <openssl/bn.h>
#include <openssl/cms.h>
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

// OpenSSL's own EC_KEY/ECDSA code path, deprecated in 3.0 but the reference that ArithmeticTests and
// emrtd-bench compare against; wrapped so that Swift sees no deprecated declarations.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static inline EC_KEY *copenssl_ec_key_new(const EC_GROUP *group, const BIGNUM *private_key, const EC_POINT *public_key) {
    EC_KEY *key = EC_KEY_new();
    if (key == NULL) return NULL;
    if (EC_KEY_set_group(key, group) != 1 || (private_key != NULL && EC_KEY_set_private_key(key, private_key) != 1)
        || (public_key != NULL && EC_KEY_set_public_key(key, public_key) != 1)) {
        EC_KEY_free(key);
        return NULL;
    }
    return key;
}
static inline void copenssl_ec_key_free(EC_KEY *key) { EC_KEY_free(key); }
static inline ECDSA_SIG *copenssl_ecdsa_do_sign(const unsigned char *digest, int length, EC_KEY *key) {
    return ECDSA_do_sign(digest, length, key);
}
static inline int copenssl_ecdsa_do_verify(const unsigned char *digest, int length, const ECDSA_SIG *signature, EC_KEY *key) {
    return ECDSA_do_verify(digest, length, signature, key);
}
#pragma clang diagnostic pop
