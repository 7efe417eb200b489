// Montgomery fields of 3 to 8 limbs for any odd prime, and the public point arithmetic of curves
// with a = -3 over them: see include/MontgomeryCurve.h. Written for this project; the Swift side
// (MontgomeryField, ScalarMultiplier) holds the same formulas, whose many calls per point operation
// (a switch on the limb count each, and no unrolling past a few limbs) made Brainpool's variable-base
// multiplications 1.7 to 2.5 times OpenSSL's instead of the NIST curves' three.
//
// One instantiation per limb count, the count a constant, so the compiler unrolls every loop; a
// second set with the MULX/ADX target attribute, chosen as the P-256 kernel is (CPUID, and the tests'
// kernel switch). Products are CIOS Montgomery multiplications with 128-bit sums; squarings compute
// the cross products once. The field operations are regular (masks, no branch on the values); the
// point loop is variable time, for public scalars only.

#include "CFieldKernels.h"

typedef emrtd_limb u64;
typedef unsigned __int128 u128;

#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define UNROLL _Pragma("clang loop unroll(full)")
/// The most limbs a field here has.
enum { MAX_LIMBS = 8 };

/// The constants of one field and its products, as the point code passes them around: each
/// instantiation's product and square are functions of their own (inlined into every point formula,
/// the unrolled products made the object code, and its compile time, many times larger for no gain).
typedef struct field {
    const u64 *p;
    const u64 *one;
    u64 n0;
    void (*mul)(u64 *r, const u64 *a, const u64 *b, const u64 *p, u64 n0);
    void (*sqr)(u64 *r, const u64 *a, const u64 *p, u64 n0);
} field;

ALWAYS_INLINE void copy(u64 *r, const u64 *a, int n) {
    UNROLL for (int i = 0; i < n; i++) r[i] = a[i];
}

ALWAYS_INLINE u64 is_zero(const u64 *a, int n) {
    u64 acc = 0;
    UNROLL for (int i = 0; i < n; i++) acc |= a[i];
    return ((acc | ((u64)0 - acc)) >> 63) ^ 1;
}

/// r = t - p when t + high·2^(64n) ≥ p, else t (t < 2p), by a mask.
ALWAYS_INLINE void reduce_once(u64 *r, const u64 *t, u64 high, const u64 *p, int n) {
    u64 d[MAX_LIMBS];
    u64 borrow = 0;
    UNROLL for (int i = 0; i < n; i++) {
        u128 diff = (u128)t[i] - p[i] - borrow;
        d[i] = (u64)diff;
        borrow = (u64)(diff >> 64) & 1;
    }
    u64 keep = (u64)0 - (high | (borrow ^ 1));
    __asm__("" : "+r"(keep));
    UNROLL for (int i = 0; i < n; i++) r[i] = (d[i] & keep) | (t[i] & ~keep);
}

/// r = a·b/R mod p (CIOS). r may alias a or b.
ALWAYS_INLINE void mont_mul(u64 *r, const u64 *a, const u64 *b, const u64 *p, u64 n0, int n) {
    u64 t[MAX_LIMBS + 2];
    UNROLL for (int i = 0; i < n + 2; i++) t[i] = 0;
    UNROLL for (int i = 0; i < n; i++) {
        u128 c = 0;
        UNROLL for (int j = 0; j < n; j++) {
            c += (u128)a[j] * b[i] + t[j];
            t[j] = (u64)c;
            c >>= 64;
        }
        c += t[n];
        t[n] = (u64)c;
        t[n + 1] = (u64)(c >> 64);
        u64 m = t[0] * n0;
        c = ((u128)m * p[0] + t[0]) >> 64;
        UNROLL for (int j = 1; j < n; j++) {
            c += (u128)m * p[j] + t[j];
            t[j - 1] = (u64)c;
            c >>= 64;
        }
        c += t[n];
        t[n - 1] = (u64)c;
        t[n] = t[n + 1] + (u64)(c >> 64);
    }
    reduce_once(r, t, t[n], p, n);
}

/// r = a²/R mod p: the cross products once, doubled, the diagonal, then n reduction rows. r may alias a.
ALWAYS_INLINE void mont_sqr(u64 *r, const u64 *a, const u64 *p, u64 n0, int n) {
    u64 t[2 * MAX_LIMBS];
    UNROLL for (int i = 0; i < 2 * n; i++) t[i] = 0;
    UNROLL for (int i = 0; i < n - 1; i++) {
        u128 c = 0;
        UNROLL for (int j = i + 1; j < n; j++) {
            c += (u128)a[i] * a[j] + t[i + j];
            t[i + j] = (u64)c;
            c >>= 64;
        }
        t[i + n] = (u64)c;
    }
    u64 shifted = 0;
    UNROLL for (int i = 0; i < 2 * n; i++) {
        u64 limb = t[i];
        t[i] = (limb << 1) | shifted;
        shifted = limb >> 63;
    }
    u128 c = 0;
    UNROLL for (int i = 0; i < n; i++) {
        c += (u128)a[i] * a[i] + t[2 * i];
        t[2 * i] = (u64)c;
        c >>= 64;
        c += t[2 * i + 1];
        t[2 * i + 1] = (u64)c;
        c >>= 64;
    }
    u64 extra = 0;
    UNROLL for (int i = 0; i < n; i++) {
        u64 m = t[i] * n0;
        u128 carry = 0;
        UNROLL for (int j = 0; j < n; j++) {
            carry += (u128)m * p[j] + t[i + j];
            t[i + j] = (u64)carry;
            carry >>= 64;
        }
        carry += (u128)t[i + n] + extra;
        t[i + n] = (u64)carry;
        extra = (u64)(carry >> 64);
    }
    reduce_once(r, t + n, extra, p, n);
}

/// The instantiation's product and square, through the field's functions.
ALWAYS_INLINE void fmul(u64 *r, const u64 *a, const u64 *b, field f, int n) {
    (void)n;
    f.mul(r, a, b, f.p, f.n0);
}

ALWAYS_INLINE void fsqr(u64 *r, const u64 *a, field f, int n) {
    (void)n;
    f.sqr(r, a, f.p, f.n0);
}

/// r = a + b mod p (a, b < p).
ALWAYS_INLINE void fadd(u64 *r, const u64 *a, const u64 *b, field f, int n) {
    u64 s[MAX_LIMBS];
    u128 c = 0;
    UNROLL for (int i = 0; i < n; i++) {
        c += (u128)a[i] + b[i];
        s[i] = (u64)c;
        c >>= 64;
    }
    reduce_once(r, s, (u64)c, f.p, n);
}

/// r = a - b mod p (a, b < p).
ALWAYS_INLINE void fsub(u64 *r, const u64 *a, const u64 *b, field f, int n) {
    u64 borrow = 0;
    UNROLL for (int i = 0; i < n; i++) {
        u128 diff = (u128)a[i] - b[i] - borrow;
        r[i] = (u64)diff;
        borrow = (u64)(diff >> 64) & 1;
    }
    u64 mask = (u64)0 - borrow;
    __asm__("" : "+r"(mask));
    u128 c = 0;
    UNROLL for (int i = 0; i < n; i++) {
        c += (u128)r[i] + (f.p[i] & mask);
        r[i] = (u64)c;
        c >>= 64;
    }
}

/// q = 2q in place (dbl-2001-b, a = -3); infinity stays infinity (Z = 0).
ALWAYS_INLINE void point_double(u64 *q, field f, int n) {
    u64 *x = q, *y = q + n, *z = q + 2 * n;
    u64 delta[MAX_LIMBS], gamma[MAX_LIMBS], beta[MAX_LIMBS], alpha[MAX_LIMBS], t[MAX_LIMBS], u[MAX_LIMBS];
    fsqr(delta, z, f, n);
    fsqr(gamma, y, f, n);
    fmul(beta, x, gamma, f, n);
    fsub(t, x, delta, f, n);
    fadd(u, x, delta, f, n);
    fmul(t, t, u, f, n);
    fadd(alpha, t, t, f, n);
    fadd(alpha, alpha, t, f, n);
    // Z3 = (Y + Z)² - gamma - delta
    fadd(t, y, z, f, n);
    fsqr(t, t, f, n);
    fsub(t, t, gamma, f, n);
    fsub(z, t, delta, f, n);
    // X3 = alpha² - 8·beta
    fadd(beta, beta, beta, f, n);
    fadd(beta, beta, beta, f, n);
    fsqr(t, alpha, f, n);
    fadd(u, beta, beta, f, n);
    fsub(x, t, u, f, n);
    // Y3 = alpha·(4·beta - X3) - 8·gamma²
    fsub(t, beta, x, f, n);
    fmul(t, alpha, t, f, n);
    fsqr(gamma, gamma, f, n);
    fadd(gamma, gamma, gamma, f, n);
    fadd(gamma, gamma, gamma, f, n);
    fadd(gamma, gamma, gamma, f, n);
    fsub(y, t, gamma, f, n);
}

/// r = q + (x2, y2) (madd-2007-bl), q Jacobian and not infinity, r not aliasing q. masks[0] = 1 when
/// H = 0 (same x), masks[1] = 1 when R = 0 (same y): then r is not the sum (q = ±(x2, y2)).
ALWAYS_INLINE void point_add_affine(u64 *r, const u64 *q, const u64 *xy, u64 masks[2], field f, int n) {
    const u64 *x1 = q, *y1 = q + n, *z1 = q + 2 * n, *x2 = xy, *y2 = xy + n;
    u64 z1z1[MAX_LIMBS], u2[MAX_LIMBS], s2[MAX_LIMBS], h[MAX_LIMBS], hh[MAX_LIMBS], i4[MAX_LIMBS];
    u64 j[MAX_LIMBS], rr[MAX_LIMBS], v[MAX_LIMBS], t[MAX_LIMBS];
    fsqr(z1z1, z1, f, n);
    fmul(u2, x2, z1z1, f, n);
    fmul(s2, y2, z1, f, n);
    fmul(s2, s2, z1z1, f, n);
    fsub(h, u2, x1, f, n);
    fsqr(hh, h, f, n);
    fadd(i4, hh, hh, f, n);
    fadd(i4, i4, i4, f, n);
    fmul(j, h, i4, f, n);
    fsub(rr, s2, y1, f, n);
    fadd(rr, rr, rr, f, n);
    fmul(v, x1, i4, f, n);
    // X3 = r² - J - 2V
    fsqr(t, rr, f, n);
    fsub(t, t, j, f, n);
    fsub(t, t, v, f, n);
    fsub(r, t, v, f, n);
    // Y3 = r·(V - X3) - 2·Y1·J
    fsub(t, v, r, f, n);
    fmul(t, rr, t, f, n);
    fmul(j, y1, j, f, n);
    fadd(j, j, j, f, n);
    fsub(r + n, t, j, f, n);
    // Z3 = (Z1 + H)² - Z1Z1 - HH
    fadd(t, z1, h, f, n);
    fsqr(t, t, f, n);
    fsub(t, t, z1z1, f, n);
    fsub(r + 2 * n, t, hh, f, n);
    masks[0] = is_zero(h, n);
    masks[1] = is_zero(rr, n);
}

/// Σ kᵢ·Pᵢ for public scalars (variable time), as emrtd_p256_public_terms: every term's wNAF digits
/// sharing one doubling chain, doublings deferred until a digit needs the sum. 0 for infinity.
ALWAYS_INLINE int public_terms(u64 *q, const signed char *digits, const int *lengths, const u64 *const *tables,
                               int count, field f, int n) {
    static const u64 zero[MAX_LIMBS] = {0};
    int infinity = 1, pending = 0, length = 0;
    for (int term = 0; term < count; term++)
        if (lengths[term] > length) length = lengths[term];
    for (int position = length - 1; position >= 0; position--) {
        if (!infinity) pending++;
        const signed char *termDigits = digits;
        for (int term = 0; term < count; term++) {
            int termLength = lengths[term];
            int digit = position < termLength ? termDigits[position] : 0;
            termDigits += termLength;
            if (digit == 0) continue;
            for (; pending > 0; pending--) point_double(q, f, n);
            const u64 *entry = tables[term] + (long)(((digit < 0 ? -digit : digit) - 1) / 2) * 2 * n;
            u64 xy[2 * MAX_LIMBS];
            copy(xy, entry, n);
            if (digit < 0) {
                fsub(xy + n, zero, entry + n, f, n);
            } else {
                copy(xy + n, entry + n, n);
            }
            if (infinity) {
                copy(q, xy, 2 * n);
                copy(q + 2 * n, f.one, n);
                infinity = 0;
                continue;
            }
            u64 sum[3 * MAX_LIMBS], masks[2];
            point_add_affine(sum, q, xy, masks, f, n);
            if (masks[0]) {
                if (masks[1]) {
                    point_double(q, f, n);
                } else {
                    infinity = 1;
                }
            } else {
                copy(q, sum, 3 * n);
            }
        }
    }
    if (infinity) return 0;
    for (; pending > 0; pending--) point_double(q, f, n);
    return (int)(is_zero(q + 2 * n, n) ^ 1);
}

#define INSTANTIATE(name, n, attributes)                                                                     \
    attributes __attribute__((noinline)) static void name##_mul(u64 *r, const u64 *a, const u64 *b,           \
                                                                const u64 *p, u64 n0) {                       \
        mont_mul(r, a, b, p, n0, n);                                                                          \
    }                                                                                                         \
    attributes __attribute__((noinline)) static void name##_sqr(u64 *r, const u64 *a, const u64 *p, u64 n0) { \
        mont_sqr(r, a, p, n0, n);                                                                             \
    }                                                                                                         \
    attributes static int name##_public_terms(u64 *q, const signed char *digits, const int *lengths,        \
                                              const u64 *const *tables, int count, const u64 *p, u64 n0,    \
                                              const u64 *one) {                                             \
        field f = {p, one, n0, name##_mul, name##_sqr};                                                       \
        return public_terms(q, digits, lengths, tables, count, f, n);                                         \
    }

#define INSTANTIATE_SIZES(kernel, attributes)        \
    INSTANTIATE(kernel##3, 3, attributes)            \
    INSTANTIATE(kernel##4, 4, attributes)            \
    INSTANTIATE(kernel##5, 5, attributes)            \
    INSTANTIATE(kernel##6, 6, attributes)            \
    INSTANTIATE(kernel##7, 7, attributes)            \
    INSTANTIATE(kernel##8, 8, attributes)

INSTANTIATE_SIZES(portable, )
#if defined(__x86_64__)
INSTANTIATE_SIZES(adx, __attribute__((target("bmi2,adx"))))
#define ADX_CHOSEN emrtd_field_kernel_is_adx()
#else
#define ADX_CHOSEN 0
#define adx3_mul portable3_mul
#define adx4_mul portable4_mul
#define adx5_mul portable5_mul
#define adx6_mul portable6_mul
#define adx7_mul portable7_mul
#define adx8_mul portable8_mul
#define adx3_sqr portable3_sqr
#define adx4_sqr portable4_sqr
#define adx5_sqr portable5_sqr
#define adx6_sqr portable6_sqr
#define adx7_sqr portable7_sqr
#define adx8_sqr portable8_sqr
#define adx3_public_terms portable3_public_terms
#define adx4_public_terms portable4_public_terms
#define adx5_public_terms portable5_public_terms
#define adx6_public_terms portable6_public_terms
#define adx7_public_terms portable7_public_terms
#define adx8_public_terms portable8_public_terms
#endif

/// Calls the instantiation for `limbs` (3…8) and the chosen kernel, giving `result` its value
/// (`result` empty for the void operations); the callers check the range.
#define DISPATCH(result, operation, ...)                                                                 \
    int adx = ADX_CHOSEN;                                                                                \
    switch (limbs) {                                                                                     \
    case 3: result(adx ? adx3_##operation(__VA_ARGS__) : portable3_##operation(__VA_ARGS__)); break;     \
    case 4: result(adx ? adx4_##operation(__VA_ARGS__) : portable4_##operation(__VA_ARGS__)); break;     \
    case 5: result(adx ? adx5_##operation(__VA_ARGS__) : portable5_##operation(__VA_ARGS__)); break;     \
    case 6: result(adx ? adx6_##operation(__VA_ARGS__) : portable6_##operation(__VA_ARGS__)); break;     \
    case 7: result(adx ? adx7_##operation(__VA_ARGS__) : portable7_##operation(__VA_ARGS__)); break;     \
    case 8: result(adx ? adx8_##operation(__VA_ARGS__) : portable8_##operation(__VA_ARGS__)); break;     \
    default: break;                                                                                      \
    }

void emrtd_montgomery_mul(int limbs, u64 *r, const u64 *a, const u64 *b, const u64 *p, u64 n0) {
    DISPATCH(, mul, r, a, b, p, n0)
}

void emrtd_montgomery_sqr(int limbs, u64 *r, const u64 *a, const u64 *p, u64 n0) {
    DISPATCH(, sqr, r, a, p, n0)
}

int emrtd_montgomery_public_terms(int limbs, u64 *q, const signed char *digits, const int *lengths,
                                  const u64 *const *tables, int count, const u64 *p, u64 n0, const u64 *one) {
    int finite = -1;
    DISPATCH(finite =, public_terms, q, digits, lengths, tables, count, p, n0, one)
    return finite;
}
