// GMP for Swift. GMP implements several queries as macros, which Swift cannot
// import, so each one used from Swift is wrapped here as an inline function.
#include <gmp.h>

static inline int cgmp_mpz_sgn(const mpz_t z) { return mpz_sgn(z); }
static inline int cgmp_mpz_odd_p(const mpz_t z) { return mpz_odd_p(z); }
static inline int cgmp_mpz_even_p(const mpz_t z) { return mpz_even_p(z); }
static inline int cgmp_mpz_cmp_ui(const mpz_t z, unsigned long v) { return mpz_cmp_ui(z, v); }
static inline int cgmp_mpz_cmp_si(const mpz_t z, long v) { return mpz_cmp_si(z, v); }
static inline size_t cgmp_mpz_limb_count(const mpz_t z) { return mpz_size(z); }

// Montgomery reduction of GMP's mpn layer (x86-64 assembly in libgmp). GMP exports it but leaves it out
// of gmp.h: rp = up / B^n mod mp (up has 2n limbs, destroyed), invm = -1/mp[0] mod B; returns the carry
// that the caller folds in with one conditional subtraction of mp.
mp_limb_t __gmpn_redc_1(mp_ptr rp, mp_ptr up, mp_srcptr mp, mp_size_t n, mp_limb_t invm);
static inline mp_limb_t cgmp_mpn_redc_1(mp_ptr rp, mp_ptr up, mp_srcptr mp, mp_size_t n, mp_limb_t invm) {
    return __gmpn_redc_1(rp, up, mp, n, invm);
}
