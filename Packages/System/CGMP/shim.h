// GMP for Swift. GMP implements several queries as macros, which Swift cannot
// import, so each one used from Swift is wrapped here as an inline function.
#include <gmp.h>

static inline int cgmp_mpz_sgn(const mpz_t z) { return mpz_sgn(z); }
static inline int cgmp_mpz_odd_p(const mpz_t z) { return mpz_odd_p(z); }
static inline int cgmp_mpz_even_p(const mpz_t z) { return mpz_even_p(z); }
static inline int cgmp_mpz_cmp_ui(const mpz_t z, unsigned long v) { return mpz_cmp_ui(z, v); }
static inline int cgmp_mpz_cmp_si(const mpz_t z, long v) { return mpz_cmp_si(z, v); }
static inline size_t cgmp_mpz_limb_count(const mpz_t z) { return mpz_size(z); }
