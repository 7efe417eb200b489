// P-521's field and point arithmetic in C (P521.c), for the dedicated back end P521Curve.swift.
//
// Field elements cross this interface as nine 64-bit limbs, least significant first, plain (no
// Montgomery factor) and below 2^521, as the generic back end keeps them; affine points are 18 such
// limbs (x, y). Inside, an element is nine limbs of 58 bits, and a Jacobian point is 27 limbs X, Y, Z
// of that form (Z = 0 is infinity), opaque to the caller. The curve has a = -3. Functions are regular
// (no branch or address depends on values) unless they say otherwise.
//
// `montgomery` = 1 says the caller's limbs carry the generic back end's Montgomery factor 2^576 (its
// debug builds keep P-521 in Montgomery form; release builds keep it plain, `montgomery` = 0).
#ifndef EMRTD_P521_H
#define EMRTD_P521_H

typedef unsigned long emrtd_limb;

/// Limbs of a point in the internal form.
#define EMRTD_P521_POINT_LIMBS 27
/// The widest window of emrtd_p521_multiply_secret (its table lives on the stack).
#define EMRTD_P521_MAX_WIDTH 6

/// Field operations on 64-bit limbs, for tests: r = a·b, a², a^(p-2), a - b (mod p), fully reduced.
void emrtd_p521_mul_words(emrtd_limb r[9], const emrtd_limb a[9], const emrtd_limb b[9]);
void emrtd_p521_sqr_words(emrtd_limb r[9], const emrtd_limb a[9]);
void emrtd_p521_inv_words(emrtd_limb r[9], const emrtd_limb a[9]);
/// r = a^-1 (0 for 0) by GMP's extended gcd, the inversion of the public paths, or (`blinded` = 1) the
/// secret paths' blinded one, for tests.
void emrtd_p521_inv_gcd_words(emrtd_limb r[9], const emrtd_limb a[9], int blinded);
void emrtd_p521_sub_words(emrtd_limb r[9], const emrtd_limb a[9], const emrtd_limb b[9]);

/// The kernel of the field products: 1 for the x86-64 MULX (BMI2) code, 0 for the portable C. `select` 0
/// or 1 chooses it (1 only where the CPU has BMI2; the tests run both), anything else only asks; returns
/// the kernel in use. The default is chosen from CPUID when the library loads.
int emrtd_p521_kernel(int select);

/// q = (x, ±y, 1) from an affine point (y negated when negate is 1).
void emrtd_p521_point_lift(emrtd_limb q[27], const emrtd_limb xy[18], int negate, int montgomery);
/// q doubled `count` times in place (dbl-2001-b).
void emrtd_p521_point_double(emrtd_limb q[27], int count);
/// q += (x, ±y) (madd-2007-bl), q not infinity; masks[0] = 1 when H = 0 (equal x), masks[1] = 1 when
/// R = 0 (equal y): both mean the points were equal and q is then not valid.
void emrtd_p521_point_add_affine(emrtd_limb q[27], const emrtd_limb xy[18], int negate, emrtd_limb masks[2],
                                 int montgomery);
int emrtd_p521_point_is_infinity(const emrtd_limb q[27]);
/// The affine form of a public q (variable-time inversion); 0 (and nothing written) when q is infinity.
int emrtd_p521_point_to_affine(emrtd_limb out[18], const emrtd_limb q[27], int montgomery);
/// 1 when q is finite with affine x equal to `x` (X = x·Z², no inversion).
int emrtd_p521_point_has_x(const emrtd_limb q[27], const emrtd_limb x[9], int montgomery);
/// `count` affine odd multiples P, 3P, … of a public point P of prime order above 2·count, one
/// inversion for all; scratch holds count·36 limbs.
void emrtd_p521_odd_multiples(emrtd_limb *out, const emrtd_limb point_xy[18], int count, emrtd_limb *scratch,
                              int montgomery);
/// k·P for a secret scalar given as `windows` odd regular digits of `width` bits (≤ EMRTD_P521_MAX_WIDTH),
/// least significant first, P affine of order n; the result negated when `negated` is 1. Returns 0 for
/// infinity.
int emrtd_p521_multiply_secret(emrtd_limb out[18], const emrtd_limb point_xy[18], const long *digits, int windows,
                               int width, int negated, int montgomery);
/// k·G from a fixed-base table (`windows` windows of 2^(width-1) affine entries of 18 limbs) and the
/// scalar's odd regular digits; as emrtd_p521_multiply_secret.
int emrtd_p521_multiply_fixed(emrtd_limb out[18], const emrtd_limb *table, const long *digits, int windows,
                              int width, int order_bits, int negated, int montgomery);

#endif
