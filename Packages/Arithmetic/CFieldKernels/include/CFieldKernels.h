// The field and point arithmetic of P-256 and P-224 in C, for the dedicated back end of the
// Arithmetic package (FourLimbNISTCurve.swift): Montgomery products with MULX/ADCX/ADOX (two carry
// chains) when the CPU has BMI2 and ADX, else portable ones with 128-bit products. Swift's code for
// the same arithmetic spent about twice the instructions of OpenSSL's assembly on each product.
//
// Elements are four 64-bit limbs, least significant first, in Montgomery form (R = 2^256, for both
// primes), fully reduced (< p). A Jacobian point is 12 limbs: X, Y, Z (Z = 0 is infinity); the
// curves have a = -3. Every function is regular: no branch and no memory address depends on the
// values. Outputs may alias inputs.
#ifndef EMRTD_CFIELDKERNELS_H
#define EMRTD_CFIELDKERNELS_H

/// A limb: GMP's mp_limb_t on 64-bit Linux (unsigned long), so Swift sees the Arithmetic package's
/// `Limb` (UInt) and passes its buffers without conversion.
typedef unsigned long emrtd_limb;

_Static_assert(sizeof(emrtd_limb) == 8, "64-bit limbs");

/// Fills `count` limbs from the kernel's generator (getrandom): 1, or 0 when it fails. The blinding
/// factors of the inversions of secret values.
int emrtd_random_limbs(emrtd_limb *out, int count);

/// 1 when the MULX/ADX kernel serves the calls below, 0 for the portable one.
int emrtd_field_kernel_is_adx(void);
/// Chooses the kernel (1: MULX/ADX and AVX-512 or AVX2 table reads, each as far as the CPU has it;
/// 0: portable products and 64-bit table reads) and returns the previous MULX/ADX choice. For tests, which run both: the choice is process-wide, and both kernels give
/// the same results, so a concurrent caller sees no difference.
int emrtd_field_select_kernel(int adx);

void emrtd_p256_mul(emrtd_limb r[4], const emrtd_limb a[4], const emrtd_limb b[4]);
void emrtd_p256_sqr(emrtd_limb r[4], const emrtd_limb a[4]);
/// a^(p-2) (0 for 0), by a fixed addition chain.
void emrtd_p256_inv(emrtd_limb r[4], const emrtd_limb a[4]);

/// q += Σ ±T[i][(|d_i| - 1)/2] over the windows from ≤ i < to of a fixed-base table T (`entries`
/// affine points per window, 8 limbs each), d_i = digits[i] odd, one mixed addition per window,
/// complete (doubling, infinity) from window `complete_from` on: only the top windows can meet the
/// exceptional cases. Regular: every entry of a window is read, the sign is applied with masks.
void emrtd_p256_fixed_windows(emrtd_limb q[12], const emrtd_limb *table, const long *digits, int from, int to,
                              int complete_from, int entries);
/// q = Σ ±2^(width·i)·T[(|d_i| - 1)/2] over the windows i < `windows` of a secret scalar's regular
/// recoding (d_i = digits[i] odd), T the `entries` Jacobian odd multiples P, 3P, … of the base (12
/// limbs each): doublings, masked reads of every entry, masked signs, the last addition complete.
void emrtd_p256_secret_windows(emrtd_limb q[12], const emrtd_limb *table, const long *digits, int windows, int width,
                               int entries);
/// The `count` odd multiples P, 3P, … (2·count - 1)P of the affine point `xy` (prime order above
/// 2·count), Jacobian, 12 limbs each, by co-Z additions.
void emrtd_p256_odd_multiples(emrtd_limb *table, const emrtd_limb xy[8], int count);
/// q = Σ kᵢ·Pᵢ for public scalars (variable time): `count` terms, term t's wNAF digits (least
/// significant first) at digits + lengths[0] + … + lengths[t-1], tables[t] its affine odd multiples P,
/// 3P, … (8 limbs each), one doubling chain. Returns 0 when the sum is infinity, else 1.
int emrtd_p256_public_terms(emrtd_limb q[12], const signed char *digits, const int *lengths,
                            const emrtd_limb *const *tables, int count);

void emrtd_p224_mul(emrtd_limb r[4], const emrtd_limb a[4], const emrtd_limb b[4]);
void emrtd_p224_sqr(emrtd_limb r[4], const emrtd_limb a[4]);
void emrtd_p224_inv(emrtd_limb r[4], const emrtd_limb a[4]);
void emrtd_p224_fixed_windows(emrtd_limb q[12], const emrtd_limb *table, const long *digits, int from, int to,
                              int complete_from, int entries);
void emrtd_p224_secret_windows(emrtd_limb q[12], const emrtd_limb *table, const long *digits, int windows, int width,
                               int entries);
void emrtd_p224_odd_multiples(emrtd_limb *table, const emrtd_limb xy[8], int count);
int emrtd_p224_public_terms(emrtd_limb q[12], const signed char *digits, const int *lengths,
                            const emrtd_limb *const *tables, int count);

/// out = entry `index` of `count` entries of `limbs` limbs each (8: an affine point, 12: a Jacobian
/// one), every entry read and masked: the memory addresses do not depend on the secret index.
void emrtd_select_entry(emrtd_limb *out, const emrtd_limb *table, int count, int limbs, int index);

/// The regular signed digits of a secret scalar 0 < k < order of four limbs: k made odd (order - k when
/// k is even, by masks), then `windows` odd digits in ±[1, 2^width - 1], least significant first,
/// k = Σ dᵢ·2^(width·i), the top digit positive (`ScalarRecoding.regularDigits`). Returns 1 when k
/// was replaced by order - k (the caller negates the result), else 0. No branch or address depends
/// on k; the copies of k are wiped.
emrtd_limb emrtd_regular_digits4(long *digits, const emrtd_limb k[4], const emrtd_limb order[4], int width,
                                 int windows);
#include "MontgomeryCurve.h"
#include "P521.h"
#include "WideMontgomery.h"

#endif
