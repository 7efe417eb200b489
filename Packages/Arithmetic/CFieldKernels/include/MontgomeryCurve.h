// Montgomery arithmetic modulo any odd prime of 3 to 8 limbs, and the public scalar multiplication of
// curves with a = -3 over such fields (Brainpool's, through their a = -3 twins; every other curve
// without a dedicated kernel): the generic back end's hot loop in C (MontgomeryCurve.c).
//
// Elements are `limbs` 64-bit limbs, least significant first, in Montgomery form (R = 2^(64·limbs)),
// fully reduced (< p); `p` is the modulus and `n0` = -1/p mod 2^64. A Jacobian point is 3·limbs limbs
// X, Y, Z (Z = 0 is infinity), an affine one 2·limbs limbs x, y. Outputs may alias inputs.
#ifndef EMRTD_MONTGOMERY_CURVE_H
#define EMRTD_MONTGOMERY_CURVE_H

typedef unsigned long emrtd_limb;

/// r = a·b/R mod p, regular. `limbs` outside 3…8: nothing written.
void emrtd_montgomery_mul(int limbs, emrtd_limb *r, const emrtd_limb *a, const emrtd_limb *b, const emrtd_limb *p,
                          emrtd_limb n0);
/// r = a²/R mod p, regular. `limbs` outside 3…8: nothing written.
void emrtd_montgomery_sqr(int limbs, emrtd_limb *r, const emrtd_limb *a, const emrtd_limb *p, emrtd_limb n0);
/// q = Σ kᵢ·Pᵢ (Jacobian) on a curve with a = -3 for public scalars (variable time), as
/// emrtd_p256_public_terms: term t's wNAF digits (least significant first) at digits + lengths[0] + …
/// + lengths[t-1], tables[t] its affine odd multiples P, 3P, …, one doubling chain; `one` is R mod p.
/// Returns 1 for a finite sum, 0 for infinity, -1 when `limbs` is outside 3…8.
int emrtd_montgomery_public_terms(int limbs, emrtd_limb *q, const signed char *digits, const int *lengths,
                                  const emrtd_limb *const *tables, int count, const emrtd_limb *p, emrtd_limb n0,
                                  const emrtd_limb *one);

#endif
