// The field and point arithmetic of P-256 and P-224: see include/CFieldKernels.h. Written for this
// project from the primes' forms; the Swift side (FourLimbNISTCurve.swift) holds the schedules.
//
// Montgomery reduction, one row per limb: m = t0·(-1/p) mod 2^64, t += m·p, drop the low limb.
// P-256: -1/p ≡ 1, so m = t0, and m·p = m·2^96 - m + m·p3·2^192 (p3 = 2^64 - 2^32 + 1): shifts
// and subtractions only. P-224 (p0 = 1): -1/p ≡ -1, so m = -t0, and m·p takes three products.

#include "CFieldKernels.h"
#include "CPUFeatures.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef emrtd_limb u64;
typedef unsigned __int128 u128;

enum { PRIME_P256 = 0, PRIME_P224 = 1 };

/// Least significant limb first.
static const u64 kModulus[2][4] = {
    {0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFFull, 0x0000000000000000ull, 0xFFFFFFFF00000001ull},
    {0x0000000000000001ull, 0xFFFFFFFF00000000ull, 0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFFull},
};

#define ALWAYS_INLINE static inline __attribute__((always_inline))

// MARK: Addition and subtraction (both kernels)

/// r = x - p when x = (x0..x3) + x4·2^256 ≥ p, else x; x < 2p. Masks only.
ALWAYS_INLINE void reduce_once(u64 r[4], u64 x0, u64 x1, u64 x2, u64 x3, u64 x4, int prime) {
    const u64 *p = kModulus[prime];
    u128 d = (u128)x0 - p[0];
    u64 d0 = (u64)d;
    d = (u128)x1 - p[1] - (u64)(d >> 127);
    u64 d1 = (u64)d;
    d = (u128)x2 - p[2] - (u64)(d >> 127);
    u64 d2 = (u64)d;
    d = (u128)x3 - p[3] - (u64)(d >> 127);
    u64 d3 = (u64)d;
    d = (u128)x4 - (u64)(d >> 127);
    u64 keep = (u64)(d >> 64);  // all ones when x < p
    r[0] = (x0 & keep) | (d0 & ~keep);
    r[1] = (x1 & keep) | (d1 & ~keep);
    r[2] = (x2 & keep) | (d2 & ~keep);
    r[3] = (x3 & keep) | (d3 & ~keep);
}

#if defined(__x86_64__)

// The modulus as memory operands at fixed addresses (no register needed, even unoptimised).
#define MODULUS_OPERANDS(P)                                                                         \
    [p0] "m"(kModulus[P][0]), [p1] "m"(kModulus[P][1]), [p2] "m"(kModulus[P][2]), [p3] "m"(kModulus[P][3])

/// a + b mod p: the sum, then the sum - p unless that borrows (CMOV).
#define ADD_ASM(P)                                                                                  \
    __asm__("xorl %k[carry], %k[carry]\n\t"                                                         \
            "addq 0(%[b]), %[r0]\n\t"                                                               \
            "adcq 8(%[b]), %[r1]\n\t"                                                               \
            "adcq 16(%[b]), %[r2]\n\t"                                                              \
            "adcq 24(%[b]), %[r3]\n\t"                                                              \
            "adcq $0, %[carry]\n\t"                                                                 \
            "movq %[r0], %[d0]\n\t"                                                                 \
            "movq %[r1], %[d1]\n\t"                                                                 \
            "movq %[r2], %[d2]\n\t"                                                                 \
            "movq %[r3], %[d3]\n\t"                                                                 \
            "subq %[p0], %[d0]\n\t"                                                                 \
            "sbbq %[p1], %[d1]\n\t"                                                                 \
            "sbbq %[p2], %[d2]\n\t"                                                                 \
            "sbbq %[p3], %[d3]\n\t"                                                                 \
            "sbbq $0, %[carry]\n\t"                                                                 \
            "cmovcq %[r0], %[d0]\n\t"                                                               \
            "cmovcq %[r1], %[d1]\n\t"                                                               \
            "cmovcq %[r2], %[d2]\n\t"                                                               \
            "cmovcq %[r3], %[d3]\n\t"                                                               \
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [d0] "=&r"(d0),       \
              [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [carry] "=&r"(carry)                  \
            : [b] "r"(b), MODULUS_OPERANDS(P), "m"(*(const u64(*)[4])b)                             \
            : "cc");

ALWAYS_INLINE void fadd(u64 r[4], const u64 a[4], const u64 b[4], int prime) {
    u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], d0, d1, d2, d3, carry;
    if (prime == PRIME_P256) {
        ADD_ASM(PRIME_P256)
    } else {
        ADD_ASM(PRIME_P224)
    }
    r[0] = d0;
    r[1] = d1;
    r[2] = d2;
    r[3] = d3;
}

/// a - b mod p: the difference, plus p masked by the borrow.
#define SUBTRACT_ASM(P)                                                                             \
    __asm__("subq 0(%[b]), %[r0]\n\t"                                                               \
            "sbbq 8(%[b]), %[r1]\n\t"                                                               \
            "sbbq 16(%[b]), %[r2]\n\t"                                                              \
            "sbbq 24(%[b]), %[r3]\n\t"                                                              \
            "sbbq %[mask], %[mask]\n\t"                                                             \
            "movq %[mask], %[m0]\n\t"                                                               \
            "andq %[p0], %[m0]\n\t"                                                                 \
            "movq %[mask], %[m1]\n\t"                                                               \
            "andq %[p1], %[m1]\n\t"                                                                 \
            "movq %[mask], %[m2]\n\t"                                                               \
            "andq %[p2], %[m2]\n\t"                                                                 \
            "andq %[p3], %[mask]\n\t"                                                               \
            "addq %[m0], %[r0]\n\t"                                                                 \
            "adcq %[m1], %[r1]\n\t"                                                                 \
            "adcq %[m2], %[r2]\n\t"                                                                 \
            "adcq %[mask], %[r3]\n\t"                                                               \
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [mask] "=&r"(mask),   \
              [m0] "=&r"(m0), [m1] "=&r"(m1), [m2] "=&r"(m2)                                        \
            : [b] "r"(b), MODULUS_OPERANDS(P), "m"(*(const u64(*)[4])b)                             \
            : "cc");

ALWAYS_INLINE void fsub(u64 r[4], const u64 a[4], const u64 b[4], int prime) {
    u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], mask, m0, m1, m2;
    if (prime == PRIME_P256) {
        SUBTRACT_ASM(PRIME_P256)
    } else {
        SUBTRACT_ASM(PRIME_P224)
    }
    r[0] = r0;
    r[1] = r1;
    r[2] = r2;
    r[3] = r3;
}

#else

ALWAYS_INLINE void fadd(u64 r[4], const u64 a[4], const u64 b[4], int prime) {
    u128 s = (u128)a[0] + b[0];
    u64 s0 = (u64)s;
    s = (u128)a[1] + b[1] + (u64)(s >> 64);
    u64 s1 = (u64)s;
    s = (u128)a[2] + b[2] + (u64)(s >> 64);
    u64 s2 = (u64)s;
    s = (u128)a[3] + b[3] + (u64)(s >> 64);
    reduce_once(r, s0, s1, s2, (u64)s, (u64)(s >> 64), prime);
}

ALWAYS_INLINE void fsub(u64 r[4], const u64 a[4], const u64 b[4], int prime) {
    const u64 *p = kModulus[prime];
    u128 d = (u128)a[0] - b[0];
    u64 d0 = (u64)d;
    d = (u128)a[1] - b[1] - (u64)(d >> 127);
    u64 d1 = (u64)d;
    d = (u128)a[2] - b[2] - (u64)(d >> 127);
    u64 d2 = (u64)d;
    d = (u128)a[3] - b[3] - (u64)(d >> 127);
    u64 d3 = (u64)d;
    u64 mask = (u64)0 - (u64)(d >> 127);
    u128 s = (u128)d0 + (p[0] & mask);
    r[0] = (u64)s;
    s = (u128)d1 + (p[1] & mask) + (u64)(s >> 64);
    r[1] = (u64)s;
    s = (u128)d2 + (p[2] & mask) + (u64)(s >> 64);
    r[2] = (u64)s;
    s = (u128)d3 + (p[3] & mask) + (u64)(s >> 64);
    r[3] = (u64)s;
}

#endif

// MARK: Portable Montgomery multiplication

ALWAYS_INLINE void montgomery_mul_portable(u64 r[4], const u64 a[4], const u64 b[4], int prime) {
    const u64 *p = kModulus[prime];
    u64 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int i = 0; i < 4; i++) {
        u64 bi = b[i];
        u128 c = (u128)a0 * bi + t0;
        t0 = (u64)c;
        c = (u128)a1 * bi + t1 + (u64)(c >> 64);
        t1 = (u64)c;
        c = (u128)a2 * bi + t2 + (u64)(c >> 64);
        t2 = (u64)c;
        c = (u128)a3 * bi + t3 + (u64)(c >> 64);
        t3 = (u64)c;
        c = (u128)t4 + (u64)(c >> 64);
        t4 = (u64)c;
        u64 t5 = (u64)(c >> 64);
        // t += m·p; the low limb becomes zero and is dropped.
        if (prime == PRIME_P256) {
            u64 m = t0;
            u128 mp3 = (u128)m * p[3];
            c = (u128)t1 + (m << 32);
            t0 = (u64)c;
            c = (u128)t2 + (m >> 32) + (u64)(c >> 64);
            t1 = (u64)c;
            c = (u128)t3 + (u64)mp3 + (u64)(c >> 64);
            t2 = (u64)c;
            c = (u128)t4 + (u64)(mp3 >> 64) + (u64)(c >> 64);
            t3 = (u64)c;
            t4 = t5 + (u64)(c >> 64);
        } else {
            u64 m = (u64)0 - t0;
            c = (u128)t0 + m;  // zero, with a carry unless t0 = 0
            c = (u128)m * p[1] + t1 + (u64)(c >> 64);
            t0 = (u64)c;
            c = (u128)m * p[2] + t2 + (u64)(c >> 64);
            t1 = (u64)c;
            c = (u128)m * p[3] + t3 + (u64)(c >> 64);
            t2 = (u64)c;
            c = (u128)t4 + (u64)(c >> 64);
            t3 = (u64)c;
            t4 = t5 + (u64)(c >> 64);
        }
    }
    reduce_once(r, t0, t1, t2, t3, t4, prime);
}

// MARK: MULX/ADCX/ADOX Montgomery multiplication and squaring

#if defined(__x86_64__)

// The products reduce the low half alone, a four-limb window whose top limb lands in the register of
// the limb it removes: the window's value stays below p + 2^192 < 2^256, so no carry leaves it.
//
// P-256: (x1, x2, x3) += m·p/2^64 for m = x0: x1 += m·2^32, x2 += m/2^32, (x3, x0) += m·p3, where
// m·p3 = m·2^64 - m·2^32 + m is (m - m/2^32 - borrow, m - (m·2^32 mod 2^64)): subtractions from the
// shifts, the high limb made in x0's own register, instead of MULX, whose three cycles sat on the
// chain of reductions (squaring 7.4 -> 7.1 ns, inversion 1.98 -> 1.92 µs, secret windows -6 %).
#define REDUCE4_P256(x0, x1, x2, x3)                                                                \
    "movq %[" #x0 "], %[t0]\n\t"                                                                    \
    "shlq $32, %[t0]\n\t"                                                                           \
    "movq %[" #x0 "], %[t1]\n\t"                                                                    \
    "shrq $32, %[t1]\n\t"                                                                           \
    "movq %[" #x0 "], %%rdx\n\t"                                                                    \
    "subq %[t0], %%rdx\n\t"                                                                         \
    "sbbq %[t1], %[" #x0 "]\n\t"                                                                    \
    "addq %[t0], %[" #x1 "]\n\t"                                                                    \
    "adcq %[t1], %[" #x2 "]\n\t"                                                                    \
    "adcq %%rdx, %[" #x3 "]\n\t"                                                                    \
    "adcq $0, %[" #x0 "]\n\t"

// P-224: m = -x0; x0 + m carries 1 unless x0 = 0, then m·p1..m·p3.
#define REDUCE4_P224(x0, x1, x2, x3)                                                                \
    "movq %[" #x0 "], %%rdx\n\t"                                                                    \
    "negq %%rdx\n\t"                                                                                \
    "xorl %k[t1], %k[t1]\n\t"                                                                       \
    "adcxq %%rdx, %[" #x0 "]\n\t"                                                                   \
    "mulxq %[p1], %[t0], %[t1]\n\t"                                                                 \
    "adcxq %[t0], %[" #x1 "]\n\t"                                                                   \
    "adoxq %[t1], %[" #x2 "]\n\t"                                                                   \
    "mulxq %[p2], %[t0], %[t1]\n\t"                                                                 \
    "adcxq %[t0], %[" #x2 "]\n\t"                                                                   \
    "adoxq %[t1], %[" #x3 "]\n\t"                                                                   \
    "mulxq %[p3], %[t0], %[" #x0 "]\n\t"                                                            \
    "adcxq %[t0], %[" #x3 "]\n\t"                                                                   \
    "movl $0, %k[t1]\n\t"                                                                           \
    "adoxq %[t1], %[" #x0 "]\n\t"                                                                   \
    "adcxq %[t1], %[" #x0 "]\n\t"

// The end of the products that reduce the low half alone (c0..c3 after the four REDUCE4, rotated
// back): c0..c3 = (c0..c3) + (c4..c7), minus p unless that borrows (the sum is below 2p), with d0..d3
// as scratch (free registers, or c4..c7 once added).
#define ADD_HIGH_SUBTRACT(d0, d1, d2, d3)                                                           \
    "xorl %k[t0], %k[t0]\n\t"                                                                       \
    "addq %[c4], %[c0]\n\t"                                                                         \
    "adcq %[c5], %[c1]\n\t"                                                                         \
    "adcq %[c6], %[c2]\n\t"                                                                         \
    "adcq %[c7], %[c3]\n\t"                                                                         \
    "adcq $0, %[t0]\n\t"                                                                            \
    "movq %[c0], %[" #d0 "]\n\t"                                                                    \
    "movq %[c1], %[" #d1 "]\n\t"                                                                    \
    "movq %[c2], %[" #d2 "]\n\t"                                                                    \
    "movq %[c3], %[" #d3 "]\n\t"                                                                    \
    "subq %[p0], %[" #d0 "]\n\t"                                                                    \
    "sbbq %[p1], %[" #d1 "]\n\t"                                                                    \
    "sbbq %[p2], %[" #d2 "]\n\t"                                                                    \
    "sbbq %[p3], %[" #d3 "]\n\t"                                                                    \
    "sbbq $0, %[t0]\n\t"                                                                            \
    "cmovncq %[" #d0 "], %[c0]\n\t"                                                                 \
    "cmovncq %[" #d1 "], %[c1]\n\t"                                                                 \
    "cmovncq %[" #d2 "], %[c2]\n\t"                                                                 \
    "cmovncq %[" #d3 "], %[c3]\n\t"

// The limb k of the element at byte offset `off` from the operand `base` (GAS adds the offsets).
#define LIMB(base, off, k) #off "+" #k "(%[" #base "])"

/// c0..c3 = a²/R mod p for the element at (base, off): the six cross products once, doubled, the
/// squares added, the low half reduced on its own and the high half added.
#define SQR_AT(REDUCE4, base, off)                                                                  \
    "movq " LIMB(base, off, 0) ", %%rdx\n\t"                                                        \
    "mulxq " LIMB(base, off, 8) ", %[c1], %[c2]\n\t"                                                \
    "mulxq " LIMB(base, off, 16) ", %[t0], %[c3]\n\t"                                               \
    "addq %[t0], %[c2]\n\t"                                                                         \
    "mulxq " LIMB(base, off, 24) ", %[t0], %[c4]\n\t"                                               \
    "adcq %[t0], %[c3]\n\t"                                                                         \
    "movq " LIMB(base, off, 8) ", %%rdx\n\t"                                                        \
    "mulxq " LIMB(base, off, 16) ", %[t0], %[t1]\n\t"                                               \
    "adcq $0, %[c4]\n\t"                                                                            \
    "xorl %k[c5], %k[c5]\n\t"                                                                       \
    "adcxq %[t0], %[c3]\n\t"                                                                        \
    "adoxq %[t1], %[c4]\n\t"                                                                        \
    "mulxq " LIMB(base, off, 24) ", %[t0], %[t1]\n\t"                                               \
    "adcxq %[t0], %[c4]\n\t"                                                                        \
    "adoxq %[t1], %[c5]\n\t"                                                                        \
    "movq " LIMB(base, off, 16) ", %%rdx\n\t"                                                       \
    "mulxq " LIMB(base, off, 24) ", %[t0], %[c6]\n\t"                                               \
    "adcxq %[t0], %[c5]\n\t"                                                                        \
    "movl $0, %k[c7]\n\t"                                                                           \
    "adcxq %[c7], %[c6]\n\t"                                                                        \
    "adoxq %[c7], %[c6]\n\t"                                                                        \
    "xorl %k[c7], %k[c7]\n\t"                                                                       \
    "adcxq %[c1], %[c1]\n\t"                                                                        \
    "adcxq %[c2], %[c2]\n\t"                                                                        \
    "adcxq %[c3], %[c3]\n\t"                                                                        \
    "adcxq %[c4], %[c4]\n\t"                                                                        \
    "adcxq %[c5], %[c5]\n\t"                                                                        \
    "adcxq %[c6], %[c6]\n\t"                                                                        \
    "adcxq %[c7], %[c7]\n\t"                                                                        \
    "movq " LIMB(base, off, 0) ", %%rdx\n\t"                                                        \
    "mulxq %%rdx, %[c0], %[t0]\n\t"                                                                 \
    "addq %[t0], %[c1]\n\t"                                                                         \
    "movq " LIMB(base, off, 8) ", %%rdx\n\t"                                                        \
    "mulxq %%rdx, %[t0], %[t1]\n\t"                                                                 \
    "adcq %[t0], %[c2]\n\t"                                                                         \
    "adcq %[t1], %[c3]\n\t"                                                                         \
    "movq " LIMB(base, off, 16) ", %%rdx\n\t"                                                       \
    "mulxq %%rdx, %[t0], %[t1]\n\t"                                                                 \
    "adcq %[t0], %[c4]\n\t"                                                                         \
    "adcq %[t1], %[c5]\n\t"                                                                         \
    "movq " LIMB(base, off, 24) ", %%rdx\n\t"                                                       \
    "mulxq %%rdx, %[t0], %[t1]\n\t"                                                                 \
    "adcq %[t0], %[c6]\n\t"                                                                         \
    "adcq %[t1], %[c7]\n\t" REDUCE4(c0, c1, c2, c3) REDUCE4(c1, c2, c3, c0) REDUCE4(c2, c3, c0, c1)   \
        REDUCE4(c3, c0, c1, c2) ADD_HIGH_SUBTRACT(c4, c5, c6, c7)

/// One row of a product: (y0..y4) += a·b[k/8], y4 zero before, the low halves of the products on the
/// CF chain and the high halves on the OF chain.
#define PRODUCT_ROW_AT(ab, ao, bb, bo, k, y0, y1, y2, y3, y4)                                       \
    "movq " LIMB(bb, bo, k) ", %%rdx\n\t"                                                           \
    "xorl %k[" #y4 "], %k[" #y4 "]\n\t"                                                             \
    "mulxq " LIMB(ab, ao, 0) ", %[t0], %[t1]\n\t"                                                   \
    "adcxq %[t0], %[" #y0 "]\n\t"                                                                   \
    "adoxq %[t1], %[" #y1 "]\n\t"                                                                   \
    "mulxq " LIMB(ab, ao, 8) ", %[t0], %[t1]\n\t"                                                   \
    "adcxq %[t0], %[" #y1 "]\n\t"                                                                   \
    "adoxq %[t1], %[" #y2 "]\n\t"                                                                   \
    "mulxq " LIMB(ab, ao, 16) ", %[t0], %[t1]\n\t"                                                  \
    "adcxq %[t0], %[" #y2 "]\n\t"                                                                   \
    "adoxq %[t1], %[" #y3 "]\n\t"                                                                   \
    "mulxq " LIMB(ab, ao, 24) ", %[t0], %[t1]\n\t"                                                  \
    "adcxq %[t0], %[" #y3 "]\n\t"                                                                   \
    "adoxq %[t1], %[" #y4 "]\n\t"                                                                   \
    "movl $0, %k[t0]\n\t"                                                                           \
    "adcxq %[t0], %[" #y4 "]\n\t"

/// c0..c3 = a·b/R mod p for the elements at (ab, ao) and (bb, bo): the whole product first (c0..c7),
/// then the squaring's reduction of the low half alone and the high half added. The former
/// row-by-row reduction made every row wait for the previous reduction (multiplication 8.9 -> 8.5 ns,
/// full addition 134 -> 128 ns).
#define MUL_AT(REDUCE4, ab, ao, bb, bo)                                                             \
    "movq " LIMB(bb, bo, 0) ", %%rdx\n\t"                                                           \
    "mulxq " LIMB(ab, ao, 0) ", %[c0], %[c1]\n\t"                                                   \
    "mulxq " LIMB(ab, ao, 8) ", %[t0], %[c2]\n\t"                                                   \
    "addq %[t0], %[c1]\n\t"                                                                         \
    "mulxq " LIMB(ab, ao, 16) ", %[t0], %[c3]\n\t"                                                  \
    "adcq %[t0], %[c2]\n\t"                                                                         \
    "mulxq " LIMB(ab, ao, 24) ", %[t0], %[c4]\n\t"                                                  \
    "adcq %[t0], %[c3]\n\t"                                                                         \
    "adcq $0, %[c4]\n\t" PRODUCT_ROW_AT(ab, ao, bb, bo, 8, c1, c2, c3, c4, c5)                      \
        PRODUCT_ROW_AT(ab, ao, bb, bo, 16, c2, c3, c4, c5, c6)                                      \
            PRODUCT_ROW_AT(ab, ao, bb, bo, 24, c3, c4, c5, c6, c7) REDUCE4(c0, c1, c2, c3)          \
                REDUCE4(c1, c2, c3, c0) REDUCE4(c2, c3, c0, c1) REDUCE4(c3, c0, c1, c2)             \
                    ADD_HIGH_SUBTRACT(c4, c5, c6, c7)

/// a²/R mod p of a[4] (SQR_AT at a).
#define SQR_ADX(REDUCE4, P)                                                                         \
    u64 c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, dx;                                                 \
    __asm__(SQR_AT(REDUCE4, a, 0)                                                                   \
            : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4),       \
              [c5] "=&r"(c5), [c6] "=&r"(c6), [c7] "=&r"(c7), [t0] "=&r"(t0), [t1] "=&r"(t1),       \
              [dx] "=&d"(dx)                                                                        \
            : [a] "r"(a), MODULUS_OPERANDS(P), \
              "m"(*(const u64(*)[4])a)                                                              \
            : "cc");                                                                                \
    r[0] = c0;                                                                                      \
    r[1] = c1;                                                                                      \
    r[2] = c2;                                                                                      \
    r[3] = c3;

ALWAYS_INLINE void montgomery_sqr_adx(u64 r[4], const u64 a[4], int prime) {
    if (prime == PRIME_P256) {
        SQR_ADX(REDUCE4_P256, PRIME_P256)
    } else {
        SQR_ADX(REDUCE4_P224, PRIME_P224)
    }
}

/// a·b/R mod p of a[4] and b[4] (MUL_AT at a and b). The product takes 13 registers: memory
/// operands for a and b could need addresses of their own, one more than remain with a frame pointer
/// (SwiftPM keeps it), so a memory clobber says that the asm reads them.
#define MUL_ADX(REDUCE4, P)                                                                         \
    u64 c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, dx;                                                 \
    __asm__(MUL_AT(REDUCE4, a, 0, b, 0)                                                             \
            : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4),       \
              [c5] "=&r"(c5), [c6] "=&r"(c6), [c7] "=&r"(c7), [t0] "=&r"(t0), [t1] "=&r"(t1),       \
              [dx] "=&d"(dx)                                                                        \
            : [a] "r"(a), [b] "r"(b), MODULUS_OPERANDS(P)                                           \
            : "cc", "memory");                                                                      \
    r[0] = c0;                                                                                      \
    r[1] = c1;                                                                                      \
    r[2] = c2;                                                                                      \
    r[3] = c3;

ALWAYS_INLINE void montgomery_mul_adx(u64 r[4], const u64 a[4], const u64 b[4], int prime) {
    if (prime == PRIME_P256) {
        MUL_ADX(REDUCE4_P256, PRIME_P256)
    } else {
        MUL_ADX(REDUCE4_P224, PRIME_P224)
    }
}

/// a ← a^(2^count), count ≥ 1, for the inversion chains: the squaring of SQR_ADX looped inside one
/// asm block with the element in four registers (c0 = a0, a1, a2, a3), so that no store and reload
/// sits between two squarings (that round trip was a quarter of a squaring's latency). It takes all
/// 14 general registers besides RSP and RBP; the count stays in memory.
#define SQR_LOOP_ADX(REDUCE4, P)                                                                    \
    u64 c1, c2, c3, c4, c5, c6, c7, t0, t1, dx;                                                     \
    __asm__("1:\n\t"                                                                                \
            "movq %[c0], %%rdx\n\t"                                                                 \
            "mulxq %[a1], %[c1], %[c2]\n\t"                                                         \
            "mulxq %[a2], %[t0], %[c3]\n\t"                                                         \
            "addq %[t0], %[c2]\n\t"                                                                 \
            "mulxq %[a3], %[t0], %[c4]\n\t"                                                         \
            "adcq %[t0], %[c3]\n\t"                                                                 \
            "movq %[a1], %%rdx\n\t"                                                                 \
            "mulxq %[a2], %[t0], %[t1]\n\t"                                                         \
            "adcq $0, %[c4]\n\t"                                                                    \
            "xorl %k[c5], %k[c5]\n\t"                                                               \
            "adcxq %[t0], %[c3]\n\t"                                                                \
            "adoxq %[t1], %[c4]\n\t"                                                                \
            "mulxq %[a3], %[t0], %[t1]\n\t"                                                         \
            "adcxq %[t0], %[c4]\n\t"                                                                \
            "adoxq %[t1], %[c5]\n\t"                                                                \
            "movq %[a2], %%rdx\n\t"                                                                 \
            "mulxq %[a3], %[t0], %[c6]\n\t"                                                         \
            "adcxq %[t0], %[c5]\n\t"                                                                \
            "movl $0, %k[c7]\n\t"                                                                   \
            "adcxq %[c7], %[c6]\n\t"                                                                \
            "adoxq %[c7], %[c6]\n\t"                                                                \
            "xorl %k[c7], %k[c7]\n\t"                                                               \
            "adcxq %[c1], %[c1]\n\t"                                                                \
            "adcxq %[c2], %[c2]\n\t"                                                                \
            "adcxq %[c3], %[c3]\n\t"                                                                \
            "adcxq %[c4], %[c4]\n\t"                                                                \
            "adcxq %[c5], %[c5]\n\t"                                                                \
            "adcxq %[c6], %[c6]\n\t"                                                                \
            "adcxq %[c7], %[c7]\n\t"                                                                \
            "movq %[c0], %%rdx\n\t"                                                                 \
            "mulxq %%rdx, %[c0], %[t0]\n\t"                                                         \
            "addq %[t0], %[c1]\n\t"                                                                 \
            "movq %[a1], %%rdx\n\t"                                                                 \
            "mulxq %%rdx, %[t0], %[t1]\n\t"                                                         \
            "adcq %[t0], %[c2]\n\t"                                                                 \
            "adcq %[t1], %[c3]\n\t"                                                                 \
            "movq %[a2], %%rdx\n\t"                                                                 \
            "mulxq %%rdx, %[t0], %[t1]\n\t"                                                         \
            "adcq %[t0], %[c4]\n\t"                                                                 \
            "adcq %[t1], %[c5]\n\t"                                                                 \
            "movq %[a3], %%rdx\n\t"                                                                 \
            "mulxq %%rdx, %[t0], %[t1]\n\t"                                                         \
            "adcq %[t0], %[c6]\n\t"                                                                 \
            "adcq %[t1], %[c7]\n\t" REDUCE4(c0, c1, c2, c3) REDUCE4(c1, c2, c3, c0)                 \
                REDUCE4(c2, c3, c0, c1) REDUCE4(c3, c0, c1, c2)                                     \
            ADD_HIGH_SUBTRACT(a1, a2, a3, c4)                                                       \
            "movq %[c1], %[a1]\n\t"                                                                 \
            "movq %[c2], %[a2]\n\t"                                                                 \
            "movq %[c3], %[a3]\n\t"                                                                 \
            "decl %[count]\n\t"                                                                     \
            "jnz 1b\n\t"                                                                            \
            : [c0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [c1] "=&r"(c1),       \
              [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4), [c5] "=&r"(c5), [c6] "=&r"(c6),       \
              [c7] "=&r"(c7), [t0] "=&r"(t0), [t1] "=&r"(t1), [dx] "=&d"(dx), [count] "+m"(count)   \
            : MODULUS_OPERANDS(P)                                                                   \
            : "cc");

ALWAYS_INLINE void montgomery_sqr_loop_adx(u64 r[4], const u64 a[4], int count, int prime) {
    u64 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    if (prime == PRIME_P256) {
        SQR_LOOP_ADX(REDUCE4_P256, PRIME_P256)
    } else {
        SQR_LOOP_ADX(REDUCE4_P224, PRIME_P224)
    }
    r[0] = a0;
    r[1] = a1;
    r[2] = a2;
    r[3] = a3;
}

// MARK: The point doubling and the additions as asm blocks (SQR_AT, MUL_AT and the steps below)

#define LOAD_AT(base, off)                                                                          \
    "movq " LIMB(base, off, 0) ", %[c0]\n\t"                                                        \
    "movq " LIMB(base, off, 8) ", %[c1]\n\t"                                                        \
    "movq " LIMB(base, off, 16) ", %[c2]\n\t"                                                       \
    "movq " LIMB(base, off, 24) ", %[c3]\n\t"

#define STORE_AT(base, off)                                                                         \
    "movq %[c0], " LIMB(base, off, 0) "\n\t"                                                        \
    "movq %[c1], " LIMB(base, off, 8) "\n\t"                                                        \
    "movq %[c2], " LIMB(base, off, 16) "\n\t"                                                       \
    "movq %[c3], " LIMB(base, off, 24) "\n\t"

/// c0..c3 = (c0..c3) + (b0..b3) mod p, the b operands memory or registers: the sum, minus p unless
/// that borrows (CMOV), c4..c7 and t0 as scratch.
#define ADD_OPERANDS(b0, b1, b2, b3)                                                                \
    "xorl %k[t0], %k[t0]\n\t"                                                                       \
    "addq " b0 ", %[c0]\n\t"                                                                        \
    "adcq " b1 ", %[c1]\n\t"                                                                        \
    "adcq " b2 ", %[c2]\n\t"                                                                        \
    "adcq " b3 ", %[c3]\n\t"                                                                        \
    "adcq $0, %[t0]\n\t"                                                                            \
    "movq %[c0], %[c4]\n\t"                                                                         \
    "movq %[c1], %[c5]\n\t"                                                                         \
    "movq %[c2], %[c6]\n\t"                                                                         \
    "movq %[c3], %[c7]\n\t"                                                                         \
    "subq %[p0], %[c4]\n\t"                                                                         \
    "sbbq %[p1], %[c5]\n\t"                                                                         \
    "sbbq %[p2], %[c6]\n\t"                                                                         \
    "sbbq %[p3], %[c7]\n\t"                                                                         \
    "sbbq $0, %[t0]\n\t"                                                                            \
    "cmovncq %[c4], %[c0]\n\t"                                                                      \
    "cmovncq %[c5], %[c1]\n\t"                                                                      \
    "cmovncq %[c6], %[c2]\n\t"                                                                      \
    "cmovncq %[c7], %[c3]\n\t"

#define ADD_AT(base, off)                                                                           \
    ADD_OPERANDS(LIMB(base, off, 0), LIMB(base, off, 8), LIMB(base, off, 16), LIMB(base, off, 24))
#define DOUBLE_C ADD_OPERANDS("%[c0]", "%[c1]", "%[c2]", "%[c3]")

/// c0..c3 = (c0..c3) - b mod p for the element at (base, off): the difference, plus p masked by the
/// borrow.
#define SUB_AT(base, off)                                                                           \
    "subq " LIMB(base, off, 0) ", %[c0]\n\t"                                                        \
    "sbbq " LIMB(base, off, 8) ", %[c1]\n\t"                                                        \
    "sbbq " LIMB(base, off, 16) ", %[c2]\n\t"                                                       \
    "sbbq " LIMB(base, off, 24) ", %[c3]\n\t"                                                       \
    "sbbq %[t0], %[t0]\n\t"                                                                         \
    "movq %[t0], %[c4]\n\t"                                                                         \
    "andq %[p0], %[c4]\n\t"                                                                         \
    "movq %[t0], %[c5]\n\t"                                                                         \
    "andq %[p1], %[c5]\n\t"                                                                         \
    "movq %[t0], %[c6]\n\t"                                                                         \
    "andq %[p2], %[c6]\n\t"                                                                         \
    "andq %[p3], %[t0]\n\t"                                                                         \
    "addq %[c4], %[c0]\n\t"                                                                         \
    "adcq %[c5], %[c1]\n\t"                                                                         \
    "adcq %[c6], %[c2]\n\t"                                                                         \
    "adcq %[t0], %[c3]\n\t"

/// c0..c3 = (c0..c3)/2 mod p: plus p when odd (mask), then one shift right through the carry.
#define HALF_C                                                                                      \
    "movq %[c0], %[t0]\n\t"                                                                         \
    "andl $1, %k[t0]\n\t"                                                                           \
    "negq %[t0]\n\t"                                                                                \
    "movq %[t0], %[c4]\n\t"                                                                         \
    "andq %[p0], %[c4]\n\t"                                                                         \
    "movq %[t0], %[c5]\n\t"                                                                         \
    "andq %[p1], %[c5]\n\t"                                                                         \
    "movq %[t0], %[c6]\n\t"                                                                         \
    "andq %[p2], %[c6]\n\t"                                                                         \
    "andq %[p3], %[t0]\n\t"                                                                         \
    "xorl %k[t1], %k[t1]\n\t"                                                                       \
    "addq %[c4], %[c0]\n\t"                                                                         \
    "adcq %[c5], %[c1]\n\t"                                                                         \
    "adcq %[c6], %[c2]\n\t"                                                                         \
    "adcq %[t0], %[c3]\n\t"                                                                         \
    "adcq $0, %[t1]\n\t"                                                                            \
    "shrdq $1, %[c1], %[c0]\n\t"                                                                    \
    "shrdq $1, %[c2], %[c1]\n\t"                                                                    \
    "shrdq $1, %[c3], %[c2]\n\t"                                                                    \
    "shrdq $1, %[t1], %[c3]\n\t"

// The doubling's scratch elements, byte offsets into s; X, Y, Z at 0, 32, 64 of q.
#define D_DELTA 0
#define D_SUM 32
#define D_DIFFERENCE 64
#define D_TWO_Y 96
#define D_A4 128
#define D_PRODUCT 160
#define D_ALPHA 192
#define D_S4 224
#define D_TWO_S4 256
#define D_HALF_B 288
#define D_S4_MINUS_X3 320

/// point_double's formulas in one asm block: each product leaves its result in c0..c3, where the
/// additions, subtractions and the halving that follow take it, and the memory operands are at
/// fixed offsets from q and the scratch s (two registers). Between the field operations of the C
/// version sat the compiler's stores, reloads and address spills (1241 -> 1180 instructions per
/// doubling; the doubling runs are bound by instruction throughput, not latency: two interleaved
/// chains ran no faster than one). Secret windows (fastest of 81 runs, alternating in one process):
/// P-256 29.2 -> 27.6 µs, P-224 33.2 -> 32.1 µs. No branch: every reduction is SBB/CMOV, the halving a
/// mask.
#define DOUBLE_ADX(REDUCE4, P)                                                                      \
    u64 c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, dx;                                                 \
    u64 s[44];                                                                                      \
    __asm__(SQR_AT(REDUCE4, q, 64) STORE_AT(s, D_DELTA)                                             \
            ADD_AT(q, 0) STORE_AT(s, D_SUM)                                                         \
            LOAD_AT(q, 0) SUB_AT(s, D_DELTA) STORE_AT(s, D_DIFFERENCE)                              \
            LOAD_AT(q, 32) DOUBLE_C STORE_AT(s, D_TWO_Y)                                            \
            MUL_AT(REDUCE4, s, D_TWO_Y, q, 64) STORE_AT(q, 64)                                      \
            SQR_AT(REDUCE4, s, D_TWO_Y) STORE_AT(s, D_A4)                                           \
            MUL_AT(REDUCE4, s, D_DIFFERENCE, s, D_SUM) STORE_AT(s, D_PRODUCT)                       \
            ADD_AT(s, D_PRODUCT) ADD_AT(s, D_PRODUCT) STORE_AT(s, D_ALPHA)                          \
            MUL_AT(REDUCE4, s, D_A4, q, 0) STORE_AT(s, D_S4) DOUBLE_C STORE_AT(s, D_TWO_S4)         \
            SQR_AT(REDUCE4, s, D_A4) HALF_C STORE_AT(s, D_HALF_B)                                   \
            SQR_AT(REDUCE4, s, D_ALPHA) SUB_AT(s, D_TWO_S4) STORE_AT(q, 0)                          \
            LOAD_AT(s, D_S4) SUB_AT(q, 0) STORE_AT(s, D_S4_MINUS_X3)                                \
            MUL_AT(REDUCE4, s, D_ALPHA, s, D_S4_MINUS_X3) SUB_AT(s, D_HALF_B) STORE_AT(q, 32)       \
            : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4),       \
              [c5] "=&r"(c5), [c6] "=&r"(c6), [c7] "=&r"(c7), [t0] "=&r"(t0), [t1] "=&r"(t1),       \
              [dx] "=&d"(dx)                                                                        \
            : [q] "r"(q), [s] "r"(s), MODULUS_OPERANDS(P)                                           \
            : "cc", "memory");

ALWAYS_INLINE void point_double_adx(u64 q[12], int prime) {
    if (prime == PRIME_P256) {
        DOUBLE_ADX(REDUCE4_P256, PRIME_P256)
    } else {
        DOUBLE_ADX(REDUCE4_P224, PRIME_P224)
    }
}

#endif

// MARK: Kernel-generic code, instantiated once per prime and kernel

ALWAYS_INLINE void fmul(u64 r[4], const u64 a[4], const u64 b[4], int prime, int adx) {
#if defined(__x86_64__)
    if (adx) {
        montgomery_mul_adx(r, a, b, prime);
        return;
    }
#endif
    (void)adx;
    montgomery_mul_portable(r, a, b, prime);
}

ALWAYS_INLINE void fsqr(u64 r[4], const u64 a[4], int prime, int adx) {
#if defined(__x86_64__)
    if (adx) {
        montgomery_sqr_adx(r, a, prime);
        return;
    }
#endif
    (void)adx;
    montgomery_mul_portable(r, a, a, prime);
}

ALWAYS_INLINE u64 is_zero(const u64 a[4]) {
    u64 any = a[0] | a[1] | a[2] | a[3];
    return ((any | ((u64)0 - any)) >> 63) ^ 1;
}

ALWAYS_INLINE void copy4(u64 r[4], const u64 a[4]) {
    r[0] = a[0];
    r[1] = a[1];
    r[2] = a[2];
    r[3] = a[3];
}

/// r = a^(2^count) · b.
ALWAYS_INLINE void sqr_n_mul(u64 r[4], const u64 a[4], int count, const u64 b[4], int prime, int adx) {
    u64 t[4];
#if defined(__x86_64__)
    if (adx) {
        montgomery_sqr_loop_adx(t, a, count, prime);
        fmul(r, t, b, prime, adx);
        return;
    }
#endif
    copy4(t, a);
    // Not unrolled: the chain's 255 squarings would be some 80 KB of code.
#pragma clang loop unroll(disable)
    for (int i = 0; i < count; i++) fsqr(t, t, prime, adx);
    fmul(r, t, b, prime, adx);
}

/// a^(p-2) by a fixed addition chain. xN = a^(2^N - 1).
ALWAYS_INLINE void finv(u64 r[4], const u64 a[4], int prime, int adx) {
    u64 x2[4], x3[4], x4[4], x6[4], x8[4], x12[4], x16[4], x24[4], x28[4], x30[4], x31[4], x32[4];
    u64 acc[4];
    if (prime == PRIME_P256) {
        // p - 2 = ffffffff 00000001 0…0 (96 bits) ffffffff ffffffff fffffffd.
        sqr_n_mul(x2, a, 1, a, prime, adx);
        sqr_n_mul(x4, x2, 2, x2, prime, adx);
        sqr_n_mul(x8, x4, 4, x4, prime, adx);
        sqr_n_mul(x16, x8, 8, x8, prime, adx);
        sqr_n_mul(x24, x16, 8, x8, prime, adx);
        sqr_n_mul(x28, x24, 4, x4, prime, adx);
        sqr_n_mul(x30, x28, 2, x2, prime, adx);
        sqr_n_mul(x32, x30, 2, x2, prime, adx);
        sqr_n_mul(acc, x32, 32, a, prime, adx);
        sqr_n_mul(acc, acc, 128, x32, prime, adx);
        sqr_n_mul(acc, acc, 32, x32, prime, adx);
        sqr_n_mul(acc, acc, 30, x30, prime, adx);
        sqr_n_mul(r, acc, 2, a, prime, adx);
    } else {
        // p - 2 = 2^224 - 2^96 - 1: 127 ones, a zero, 96 ones.
        u64 x64[4], x96[4], x127[4];
        sqr_n_mul(x2, a, 1, a, prime, adx);
        sqr_n_mul(x3, x2, 1, a, prime, adx);
        sqr_n_mul(x6, x3, 3, x3, prime, adx);
        sqr_n_mul(x12, x6, 6, x6, prime, adx);
        sqr_n_mul(x24, x12, 12, x12, prime, adx);
        sqr_n_mul(x30, x24, 6, x6, prime, adx);
        sqr_n_mul(x31, x30, 1, a, prime, adx);
        sqr_n_mul(x32, x31, 1, a, prime, adx);
        sqr_n_mul(x64, x32, 32, x32, prime, adx);
        sqr_n_mul(x96, x64, 32, x32, prime, adx);
        sqr_n_mul(x127, x96, 31, x31, prime, adx);
        sqr_n_mul(r, x127, 97, x96, prime, adx);
        (void)x4;
        (void)x8;
        (void)x16;
        (void)x28;
    }
}

/// a/2 mod p: a + p when a is odd (mask), then one shift right through the carry.
ALWAYS_INLINE void fhalf(u64 r[4], const u64 a[4], int prime) {
    const u64 *p = kModulus[prime];
    u64 mask = (u64)0 - (a[0] & 1);
    u128 s = (u128)a[0] + (p[0] & mask);
    u64 s0 = (u64)s;
    s = (u128)a[1] + (p[1] & mask) + (u64)(s >> 64);
    u64 s1 = (u64)s;
    s = (u128)a[2] + (p[2] & mask) + (u64)(s >> 64);
    u64 s2 = (u64)s;
    s = (u128)a[3] + (p[3] & mask) + (u64)(s >> 64);
    u64 s3 = (u64)s, carry = (u64)(s >> 64);
    r[0] = (s0 >> 1) | (s1 << 63);
    r[1] = (s1 >> 1) | (s2 << 63);
    r[2] = (s2 >> 1) | (s3 << 63);
    r[3] = (s3 >> 1) | (carry << 63);
}

/// dbl-2001-b for a = -3, in place, in the form with T = 2Y: Z3 = T·Z, A = T² = 4Y², S = A·X = 4β,
/// A²/2 = 8γ², α = 3(X - δ)(X + δ), X3 = α² - 2S, Y3 = α(S - X3) - A²/2. Four products and four
/// squarings like (Y + Z)² - γ - δ with γ, β, 4β, 8β, 8γ² by additions, but nine additions and one
/// halving instead of sixteen additions (82 -> 75 ns). The MULX/ADX kernel runs the same steps as
/// one asm block (point_double_adx).
ALWAYS_INLINE void point_double(u64 q[12], int prime, int adx) {
#if defined(__x86_64__)
    if (adx) {
        point_double_adx(q, prime);
        return;
    }
#endif
    u64 *x = q, *y = q + 4, *z = q + 8;
    u64 delta[4], t0[4], t1[4], twoY[4], alpha[4], a4[4], s4[4], b[4], x3[4], t[4];
    fsqr(delta, z, prime, adx);
    fadd(twoY, y, y, prime);
    fsub(t0, x, delta, prime);
    fadd(t1, x, delta, prime);
    fmul(z, twoY, z, prime, adx);
    fsqr(a4, twoY, prime, adx);
    fmul(t0, t0, t1, prime, adx);
    fmul(s4, a4, x, prime, adx);
    fadd(alpha, t0, t0, prime);
    fadd(alpha, alpha, t0, prime);
    fsqr(b, a4, prime, adx);
    fsqr(x3, alpha, prime, adx);
    fadd(t, s4, s4, prime);
    fsub(x3, x3, t, prime);
    fhalf(b, b, prime);
    fsub(t, s4, x3, prime);
    fmul(y, alpha, t, prime, adx);
    fsub(y, y, b, prime);
    copy4(x, x3);
}

/// The common end of the full and the mixed addition, from U1, S1, H = U2 - U1, R = S2 - S1 and Z3:
/// X3 = R² - H³ - 2·U1·H², Y3 = R(U1·H² - X3) - S1·H³, written to r; masks[0] and masks[1] tell
/// whether H and R are zero (the doubling and cancelling cases). r may alias the inputs' point.
ALWAYS_INLINE void finish_add(u64 r[12], const u64 u1[4], const u64 s1[4], const u64 h[4], const u64 rr[4],
                              const u64 z3[4], u64 masks[2], int prime, int adx) {
    u64 hh[4], hhh[4], v[4], x3[4], y3[4], t[4];
    fsqr(hh, h, prime, adx);
    fmul(hhh, h, hh, prime, adx);
    fmul(v, u1, hh, prime, adx);
    fsqr(x3, rr, prime, adx);
    fadd(t, v, v, prime);
    fsub(x3, x3, hhh, prime);
    fsub(x3, x3, t, prime);
    fmul(t, s1, hhh, prime, adx);
    fsub(y3, v, x3, prime);
    fmul(y3, rr, y3, prime, adx);
    fsub(y3, y3, t, prime);
    masks[0] = is_zero(h);
    masks[1] = is_zero(rr);
    copy4(r, x3);
    copy4(r + 4, y3);
    copy4(r + 8, z3);
}

#if defined(__x86_64__)

// The additions' elements, byte offsets into their scratch s: the operands copied in, the
// intermediate values, the sum (X3, Y3, Z3 contiguous) copied out.
#define A_X1 0
#define A_Y1 32
#define A_Z1 64
#define A_X2 96
#define A_Y2 128
#define A_Z2 160
#define A_Z1Z1 192
#define A_Z2Z2 224
#define A_U1 256
#define A_H 288
#define A_T 320
#define A_S1 352
#define A_R 384
#define A_Z1Z2 416
#define A_HH 448
#define A_HHH 480
#define A_V 512
#define A_TWO_V 544
#define A_T2 576
#define A_V_MINUS_X3 608
#define A_X3 640
#define A_Y3 672
#define A_Z3 704
#define A_LIMBS 92

/// finish_add's steps on the scratch, from U1 and S1 at the given offsets and H, R at A_H, A_R.
#define FINISH_ADD_AT(REDUCE4, U1, S1)                                                              \
    SQR_AT(REDUCE4, s, A_H) STORE_AT(s, A_HH)                                                       \
    MUL_AT(REDUCE4, s, A_H, s, A_HH) STORE_AT(s, A_HHH)                                             \
    MUL_AT(REDUCE4, s, U1, s, A_HH) STORE_AT(s, A_V) DOUBLE_C STORE_AT(s, A_TWO_V)                  \
    SQR_AT(REDUCE4, s, A_R) SUB_AT(s, A_HHH) SUB_AT(s, A_TWO_V) STORE_AT(s, A_X3)                   \
    MUL_AT(REDUCE4, s, S1, s, A_HHH) STORE_AT(s, A_T2)                                              \
    LOAD_AT(s, A_V) SUB_AT(s, A_X3) STORE_AT(s, A_V_MINUS_X3)                                       \
    MUL_AT(REDUCE4, s, A_R, s, A_V_MINUS_X3) SUB_AT(s, A_T2) STORE_AT(s, A_Y3)

/// point_add's steps: Z1², Z2², U1, H = U2 - U1, S1, R = S2 - S1, Z3 = Z1·Z2·H, then finish_add's.
#define FULL_ADD_AT(REDUCE4)                                                                        \
    SQR_AT(REDUCE4, s, A_Z1) STORE_AT(s, A_Z1Z1)                                                    \
    SQR_AT(REDUCE4, s, A_Z2) STORE_AT(s, A_Z2Z2)                                                    \
    MUL_AT(REDUCE4, s, A_X1, s, A_Z2Z2) STORE_AT(s, A_U1)                                           \
    MUL_AT(REDUCE4, s, A_X2, s, A_Z1Z1) SUB_AT(s, A_U1) STORE_AT(s, A_H)                            \
    MUL_AT(REDUCE4, s, A_Y1, s, A_Z2) STORE_AT(s, A_T)                                              \
    MUL_AT(REDUCE4, s, A_T, s, A_Z2Z2) STORE_AT(s, A_S1)                                            \
    MUL_AT(REDUCE4, s, A_Y2, s, A_Z1) STORE_AT(s, A_T)                                              \
    MUL_AT(REDUCE4, s, A_T, s, A_Z1Z1) SUB_AT(s, A_S1) STORE_AT(s, A_R)                             \
    MUL_AT(REDUCE4, s, A_Z1, s, A_Z2) STORE_AT(s, A_Z1Z2)                                           \
    MUL_AT(REDUCE4, s, A_Z1Z2, s, A_H) STORE_AT(s, A_Z3) FINISH_ADD_AT(REDUCE4, A_U1, A_S1)

/// point_add_affine's steps: Z1², H = X2·Z1² - X1, R = Y2·Z1³ - Y1, Z3 = Z1·H, then finish_add's
/// with U1 = X1, S1 = Y1.
#define MIXED_ADD_AT(REDUCE4)                                                                       \
    SQR_AT(REDUCE4, s, A_Z1) STORE_AT(s, A_Z1Z1)                                                    \
    MUL_AT(REDUCE4, s, A_X2, s, A_Z1Z1) SUB_AT(s, A_X1) STORE_AT(s, A_H)                            \
    MUL_AT(REDUCE4, s, A_Y2, s, A_Z1) STORE_AT(s, A_T)                                              \
    MUL_AT(REDUCE4, s, A_T, s, A_Z1Z1) SUB_AT(s, A_Y1) STORE_AT(s, A_R)                             \
    MUL_AT(REDUCE4, s, A_Z1, s, A_H) STORE_AT(s, A_Z3) FINISH_ADD_AT(REDUCE4, A_X1, A_Y1)

/// One asm block of steps on the scratch s (its one address register).
#define SCRATCH_ASM(STEPS, P)                                                                       \
    {                                                                                               \
        u64 c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, dx;                                             \
        __asm__(STEPS                                                                               \
                : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4),   \
                  [c5] "=&r"(c5), [c6] "=&r"(c6), [c7] "=&r"(c7), [t0] "=&r"(t0), [t1] "=&r"(t1),   \
                  [dx] "=&d"(dx)                                                                    \
                : [s] "r"(s), MODULUS_OPERANDS(P)                                                   \
                : "cc", "memory");                                                                  \
    }

/// point_add and point_add_affine of P-256's MULX/ADX kernel: the operands copied into the scratch,
/// every field operation in one asm block like point_double_adx, the sum and the masks copied out.
/// Between the asm products of the C additions (2179 instructions) sat the compiler's loads, stores
/// and spills: P-256 secret windows 27.6 -> 26.0 µs, fixed windows 4.7 -> 4.55 µs. P-224's additions
/// stay in C: the same blocks gave its secret windows nothing (34.4 against 34.1 µs).
ALWAYS_INLINE void point_add_p256_adx(u64 r[12], const u64 q1[12], const u64 *q2, int affine, u64 masks[2]) {
    u64 s[A_LIMBS];
    for (int limb = 0; limb < 12; limb++) s[A_X1 / 8 + limb] = q1[limb];
    for (int limb = 0; limb < (affine ? 8 : 12); limb++) s[A_X2 / 8 + limb] = q2[limb];
    if (affine) {
        SCRATCH_ASM(MIXED_ADD_AT(REDUCE4_P256), PRIME_P256)
    } else {
        SCRATCH_ASM(FULL_ADD_AT(REDUCE4_P256), PRIME_P256)
    }
    masks[0] = is_zero(s + A_H / 8);
    masks[1] = is_zero(s + A_R / 8);
    for (int limb = 0; limb < 12; limb++) r[limb] = s[A_X3 / 8 + limb];
}

#endif

/// Addition without add-2007-bl's factors of two: H = U2 - U1, R = S2 - S1, Z3 = Z1·Z2·H,
/// X3 = R² - H³ - 2·U1·H², Y3 = R(U1·H² - X3) - S1·H³. Twelve products and four squarings like
/// add-2007-bl, seven additions instead of eleven.
ALWAYS_INLINE void point_add(u64 r[12], const u64 q1[12], const u64 q2[12], u64 masks[2], int prime, int adx) {
    const u64 *x1 = q1, *y1 = q1 + 4, *z1 = q1 + 8, *x2 = q2, *y2 = q2 + 4, *z2 = q2 + 8;
#if defined(__x86_64__)
    if (adx && prime == PRIME_P256) {
        point_add_p256_adx(r, q1, q2, 0, masks);
        return;
    }
#endif
    u64 z1z1[4], z2z2[4], u1[4], u2[4], s1[4], s2[4], h[4], rr[4], z3[4], t[4], w[4];
    fsqr(z1z1, z1, prime, adx);
    fsqr(z2z2, z2, prime, adx);
    fmul(u1, x1, z2z2, prime, adx);
    fmul(u2, x2, z1z1, prime, adx);
    fmul(t, y1, z2, prime, adx);
    fmul(w, y2, z1, prime, adx);
    fmul(s1, t, z2z2, prime, adx);
    fmul(s2, w, z1z1, prime, adx);
    fsub(h, u2, u1, prime);
    fmul(z3, z1, z2, prime, adx);
    fsub(rr, s2, s1, prime);
    fmul(z3, z3, h, prime, adx);
    finish_add(r, u1, s1, h, rr, z3, masks, prime, adx);
}

/// Mixed addition without madd-2007-bl's factors of two: H = U2 - X1, R = S2 - Y1, Z3 = Z1·H,
/// X3 = R² - H³ - 2·X1·H², Y3 = R(X1·H² - X3) - Y1·H³. Eight products and three squarings like
/// madd-2007-bl, seven additions instead of twelve.
ALWAYS_INLINE void point_add_affine(u64 r[12], const u64 q1[12], const u64 xy2[8], u64 masks[2], int prime,
                                    int adx) {
    const u64 *x1 = q1, *y1 = q1 + 4, *z1 = q1 + 8, *x2 = xy2, *y2 = xy2 + 4;
#if defined(__x86_64__)
    if (adx && prime == PRIME_P256) {
        point_add_p256_adx(r, q1, xy2, 1, masks);
        return;
    }
#endif
    u64 z1z1[4], u2[4], s2[4], h[4], rr[4], z3[4], t[4];
    fsqr(z1z1, z1, prime, adx);
    fmul(u2, x2, z1z1, prime, adx);
    fmul(t, y2, z1, prime, adx);
    fsub(h, u2, x1, prime);
    fmul(s2, t, z1z1, prime, adx);
    fmul(z3, z1, h, prime, adx);
    fsub(rr, s2, y1, prime);
    finish_add(r, x1, y1, h, rr, z3, masks, prime, adx);
}

/// The field's one in Montgomery form (R mod p), per prime.
static const u64 kOne[2][4] = {
    {0x0000000000000001ull, 0xFFFFFFFF00000000ull, 0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFEull},
    {0xFFFFFFFF00000000ull, 0xFFFFFFFFFFFFFFFFull, 0x0000000000000000ull, 0x0000000000000000ull},
};

/// The complete sum into q (the first point, whose Z decides infinity) without branching: `sum`,
/// or `doubled` when the points were equal (H = R = 0), or `second` when q is infinity.
ALWAYS_INLINE void choose_complete(u64 q[12], const u64 sum[12], const u64 doubled[12], const u64 second[12],
                                   const u64 masks[2]) {
    u64 infinity = is_zero(q + 8);
    u64 useDoubled = (u64)0 - (masks[0] & masks[1] & (infinity ^ 1));
    u64 useSecond = (u64)0 - infinity;
    // Barriers: the compiler must not turn the masked choices into branches.
    __asm__("" : "+r"(useDoubled), "+r"(useSecond));
    for (int limb = 0; limb < 12; limb++) {
        u64 value = sum[limb] ^ ((sum[limb] ^ doubled[limb]) & useDoubled);
        q[limb] = value ^ ((value ^ second[limb]) & useSecond);
    }
}

/// q + (x2, y2) for every q, without branching: the mixed sum, or the affine point doubled when
/// q equals it (H = R = 0), or the affine point when q is infinity; q = -(x2, y2) gives Z = 0.
ALWAYS_INLINE void point_add_affine_complete(u64 q[12], const u64 xy2[8], int prime, int adx) {
    u64 sum[12], lifted[12], doubled[12], masks[2];
    point_add_affine(sum, q, xy2, masks, prime, adx);
    copy4(lifted, xy2);
    copy4(lifted + 4, xy2 + 4);
    copy4(lifted + 8, kOne[prime]);
    for (int limb = 0; limb < 12; limb++) doubled[limb] = lifted[limb];
    point_double(doubled, prime, adx);
    choose_complete(q, sum, doubled, lifted, masks);
}

/// out = T[(|d| - 1)/2] with y negated when d < 0, for an odd digit d of a secret scalar and a table
/// T of `entries` points of `limbs` limbs (8 affine, 12 Jacobian): every entry read and masked, the
/// sign applied by masks. The read-sign step of the fixed-base and the secret windows.
ALWAYS_INLINE void signed_entry(u64 *out, const u64 *table, int entries, int limbs, long digit, int prime) {
    static const u64 zero[4] = {0, 0, 0, 0};
    u64 negated[4];
    u64 sign = (u64)0 - ((u64)digit >> 63);
    // A barrier: the compiler must not turn the masked choice below into a branch.
    __asm__("" : "+r"(sign));
    long magnitude = (digit ^ (digit >> 63)) - (digit >> 63);
    emrtd_select_entry(out, table, entries, limbs, (int)((magnitude - 1) / 2));
    fsub(negated, zero, out + 4, prime);
    for (int limb = 0; limb < 4; limb++) out[4 + limb] ^= (out[4 + limb] ^ negated[limb]) & sign;
}

/// q += ±T[i][(|d_i| - 1)/2] for the windows i in [from, to) of a fixed-base table (`entries`
/// affine points per window), d_i odd: the read of every entry, the negation by the digit's sign
/// (masks) and the mixed addition, complete from window `complete_from` on (only the top windows can
/// meet the exceptional cases), without returning to Swift between windows.
ALWAYS_INLINE void fixed_windows(u64 q[12], const u64 *table, const long *digits, int from, int to,
                                 int complete_from, int entries, int prime, int adx) {
    u64 xy[8], masks[2];
    for (int index = from; index < to; index++) {
        signed_entry(xy, table + (long)index * entries * 8, entries, 8, digits[index], prime);
        // The next window's entries into L1 while the addition runs (the whole table is larger than
        // L1, and its reads waited on L2). Every line of the window is fetched, so the addresses
        // depend only on the window number.
        if (index + 1 < to) {
            const char *next = (const char *)(table + (long)(index + 1) * entries * 8);
            for (long offset = 0; offset < (long)entries * 64; offset += 64) __builtin_prefetch(next + offset, 0, 3);
        }
        if (index < complete_from) {
            point_add_affine(q, q, xy, masks, prime, adx);
        } else {
            point_add_affine_complete(q, xy, prime, adx);
        }
    }
}

/// Meloni's co-Z addition (ZADDU) of two points sharing Z: sum ← twice + sum, and twice ← twice with
/// the new Z, so the next addition shares it again. Five products and two squarings where add-2007-bl
/// takes twelve and four; X1 ≠ X2 (never equal in the tables of odd multiples of a point of prime
/// order above their count).
ALWAYS_INLINE void point_add_coz(u64 twice[12], u64 sum[12], int prime, int adx) {
    u64 *x1 = twice, *y1 = twice + 4, *z = twice + 8, *x2 = sum, *y2 = sum + 4;
    u64 dx[4], dy[4], c[4], w1[4], w2[4], d[4], a1[4], t[4];
    fsub(dx, x1, x2, prime);
    fsub(dy, y1, y2, prime);
    fmul(z, z, dx, prime, adx);
    fsqr(c, dx, prime, adx);
    fsqr(d, dy, prime, adx);
    fmul(w1, x1, c, prime, adx);
    fmul(w2, x2, c, prime, adx);
    fsub(t, w1, w2, prime);
    fmul(a1, y1, t, prime, adx);
    fsub(x2, d, w1, prime);
    fsub(x2, x2, w2, prime);
    fsub(t, w1, x2, prime);
    fmul(y2, dy, t, prime, adx);
    fsub(y2, y2, a1, prime);
    copy4(sum + 8, z);
    copy4(x1, w1);
    copy4(y1, a1);
}

/// The `count` odd multiples P, 3P, … of an affine P = (x, y) of prime order above 2·count, Jacobian
/// (12 limbs each): 2P, P brought to 2P's Z, then co-Z additions (1.1 µs for sixteen entries where
/// full additions took 2 µs).
ALWAYS_INLINE void odd_multiples(u64 *table, const u64 xy[8], int count, int prime, int adx) {
    u64 twice[12], sum[12], z2[4], z3[4];
    copy4(table, xy);
    copy4(table + 4, xy + 4);
    copy4(table + 8, kOne[prime]);
    if (count < 2) return;
    for (int limb = 0; limb < 12; limb++) twice[limb] = table[limb];
    point_double(twice, prime, adx);
    fsqr(z2, twice + 8, prime, adx);
    fmul(z3, z2, twice + 8, prime, adx);
    fmul(sum, xy, z2, prime, adx);
    fmul(sum + 4, xy + 4, z3, prime, adx);
    copy4(sum + 8, twice + 8);
    for (int index = 1; index < count; index++) {
        point_add_coz(twice, sum, prime, adx);
        for (int limb = 0; limb < 12; limb++) table[(long)index * 12 + limb] = sum[limb];
    }
}

/// q1 + q2 for every q1 without branching (q2 never infinity): the sum, or q2 doubled when q1 = q2
/// (H = R = 0), or q2 when q1 is infinity; q1 = -q2 gives Z = 0. In place on q1.
ALWAYS_INLINE void point_add_complete(u64 q1[12], const u64 q2[12], int prime, int adx) {
    u64 sum[12], doubled[12], masks[2];
    point_add(sum, q1, q2, masks, prime, adx);
    for (int limb = 0; limb < 12; limb++) doubled[limb] = q2[limb];
    point_double(doubled, prime, adx);
    choose_complete(q1, sum, doubled, q2, masks);
}

/// The secret-scalar windows of a variable base: q = T[(|d_top| - 1)/2], then for every lower window
/// q = 2^width·q ± T[(|d_i| - 1)/2] (`entries` Jacobian odd multiples, 12 limbs each), the last
/// addition complete: the whole ladder in one call (a Swift call per doubling run, entry and
/// addition cost about 4 % of a multiplication). Regular like fixed_windows. The doubling run and the
/// addition are calls (`doubling`, `addition`): inlined, P-224's loop ran at 0.8× OpenSSL.
/// Checked in the object code (clang 21, -O2 with frame pointer, `objdump -d`): p256_adx_secret_windows
/// branches only on `windows` and the window counter; the digit's magnitude takes a CMOVS; the doubling
/// run (p256_adx_double, p224_adx_double: the asm block of point_double_adx) branches only on its
/// count, the addition (p256_adx_add: the asm block of point_add_p256_adx) not at all, select_avx512
/// only on the entry count and width; every reduction is SBB/CMOV. p256_adx_fixed_windows branches
/// only on the window index, `to`, `complete_from` and the prefetch loop over the entries.
ALWAYS_INLINE void secret_windows(u64 q[12], const u64 *table, const long *digits, int windows, int width,
                                  int entries, int prime, int adx, void (*doubling)(u64[12], int),
                                  void (*addition)(u64[12], const u64[12], const u64[12], u64[2])) {
    u64 entry[12];
    emrtd_select_entry(q, table, entries, 12, (int)((digits[windows - 1] - 1) / 2));
    for (int index = windows - 2; index >= 0; index--) {
        doubling(q, width);
        signed_entry(entry, table, entries, 12, digits[index], prime);
        if (index > 0) {
            u64 masks[2];
            addition(q, q, entry, masks);
        } else {
            point_add_complete(q, entry, prime, adx);
        }
    }
    for (int limb = 0; limb < 12; limb++) entry[limb] = 0;
}

/// Σ kᵢ·Pᵢ for public scalars, variable time: the wNAF loop of every term (digits of term t at
/// digits + Σ_{u<t} lengths[u], most significant last; tables[t] its affine odd multiples, 8 limbs
/// each) sharing one doubling chain, in one call (a Swift call per doubling run and addition cost
/// about 4 % of a multiplication). Returns 0 for infinity, else 1 with q Jacobian.
ALWAYS_INLINE int public_terms(u64 q[12], const signed char *digits, const int *lengths, const u64 *const *tables,
                               int count, int prime, int adx) {
    static const u64 zero[4] = {0, 0, 0, 0};
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
            for (; pending > 0; pending--) point_double(q, prime, adx);
            const u64 *entry = tables[term] + (long)(((digit < 0 ? -digit : digit) - 1) / 2) * 8;
            u64 xy[8];
            copy4(xy, entry);
            if (digit < 0) {
                fsub(xy + 4, zero, entry + 4, prime);
            } else {
                copy4(xy + 4, entry + 4);
            }
            if (infinity) {
                copy4(q, xy);
                copy4(q + 4, xy + 4);
                copy4(q + 8, kOne[prime]);
                infinity = 0;
                continue;
            }
            u64 sum[12], masks[2];
            point_add_affine(sum, q, xy, masks, prime, adx);
            if (masks[0]) {
                if (masks[1]) {
                    point_double(q, prime, adx);
                } else {
                    infinity = 1;
                }
            } else {
                for (int limb = 0; limb < 12; limb++) q[limb] = sum[limb];
            }
        }
    }
    if (infinity) return 0;
    for (; pending > 0; pending--) point_double(q, prime, adx);
    return (int)(is_zero(q + 8) ^ 1);
}

// One instantiation per prime and kernel. The MULX/ADX one carries the target attribute, so the
// compiler may use BMI2 in the C parts too; it runs only when CPUID reports both extensions.
#define INSTANTIATE(name, prime, adx, attributes)                                                   \
    attributes static void name##_mul(u64 r[4], const u64 a[4], const u64 b[4]) {                  \
        fmul(r, a, b, prime, adx);                                                                  \
    }                                                                                               \
    attributes static void name##_sqr(u64 r[4], const u64 a[4]) { fsqr(r, a, prime, adx); }        \
    attributes static void name##_inv(u64 r[4], const u64 a[4]) { finv(r, a, prime, adx); }        \
    attributes __attribute__((noinline)) static void name##_double(u64 q[12], int count) {                                    \
        for (int k = 0; k < count; k++) point_double(q, prime, adx);                                \
    }                                                                                               \
    attributes __attribute__((noinline)) static void name##_add(u64 r[12], const u64 q1[12], const u64 q2[12], u64 m[2]) {    \
        point_add(r, q1, q2, m, prime, adx);                                                        \
    }                                                                                               \
    attributes static void name##_fixed_windows(u64 q[12], const u64 *table, const long *digits, int from, int to, \
                                                 int complete_from, int entries) {                  \
        fixed_windows(q, table, digits, from, to, complete_from, entries, prime, adx);              \
    }                                                                                               \
    attributes static void name##_secret_windows(u64 q[12], const u64 *table, const long *digits, int windows, \
                                                  int width, int entries) {                         \
        secret_windows(q, table, digits, windows, width, entries, prime, adx, name##_double, name##_add);                      \
    }                                                                                               \
    attributes static void name##_odd_multiples(u64 *table, const u64 xy[8], int count) {            \
        odd_multiples(table, xy, count, prime, adx);                                                \
    }                                                                                               \
    attributes static int name##_public_terms(u64 q[12], const signed char *digits, const int *lengths, \
                                              const u64 *const *tables, int count) {                \
        return public_terms(q, digits, lengths, tables, count, prime, adx);                         \
    }

INSTANTIATE(p256_portable, PRIME_P256, 0, )
INSTANTIATE(p224_portable, PRIME_P224, 0, )
#if defined(__x86_64__)
INSTANTIATE(p256_adx, PRIME_P256, 1, __attribute__((target("bmi2,adx"))))
INSTANTIATE(p224_adx, PRIME_P224, 1, __attribute__((target("bmi2,adx"))))
#endif

// MARK: Kernel choice

/// The widest vectors the CPU offers for table reads: 2 for AVX-512, 1 for AVX2, 0 for none.
static int cpu_vector_level(void) { return emrtd_cpu_has_avx512() ? 2 : emrtd_cpu_has_avx2(); }

static int use_adx = 0;
static int use_vectors = 0;

__attribute__((constructor)) static void choose_kernel(void) {
    use_adx = emrtd_cpu_has_bmi2_adx();
    use_vectors = cpu_vector_level();
}

int emrtd_field_kernel_is_adx(void) { return __atomic_load_n(&use_adx, __ATOMIC_RELAXED); }

int emrtd_field_select_kernel(int adx) {
    __atomic_store_n(&use_vectors, adx ? cpu_vector_level() : 0, __ATOMIC_RELAXED);
    return __atomic_exchange_n(&use_adx, adx && emrtd_cpu_has_bmi2_adx(), __ATOMIC_RELAXED);
}

#if defined(__x86_64__)
#define DISPATCH(prime, operation, ...)                                                             \
    if (__atomic_load_n(&use_adx, __ATOMIC_RELAXED)) {                                              \
        prime##_adx_##operation(__VA_ARGS__);                                                       \
    } else {                                                                                        \
        prime##_portable_##operation(__VA_ARGS__);                                                  \
    }
#define RETURN_DISPATCH(prime, operation, ...)                                                      \
    if (__atomic_load_n(&use_adx, __ATOMIC_RELAXED)) {                                              \
        return prime##_adx_##operation(__VA_ARGS__);                                                \
    } else {                                                                                        \
        return prime##_portable_##operation(__VA_ARGS__);                                           \
    }
#else
#define DISPATCH(prime, operation, ...) prime##_portable_##operation(__VA_ARGS__);
#define RETURN_DISPATCH(prime, operation, ...) return prime##_portable_##operation(__VA_ARGS__);
#endif

#define PUBLIC_FUNCTIONS(prime)                                                                     \
    void emrtd_##prime##_mul(u64 r[4], const u64 a[4], const u64 b[4]) { DISPATCH(prime, mul, r, a, b) } \
    void emrtd_##prime##_sqr(u64 r[4], const u64 a[4]) { DISPATCH(prime, sqr, r, a) }               \
    void emrtd_##prime##_inv(u64 r[4], const u64 a[4]) { DISPATCH(prime, inv, r, a) }               \
    void emrtd_##prime##_fixed_windows(u64 q[12], const u64 *table, const long *digits, int from, int to, \
                                       int complete_from, int entries) {                            \
        DISPATCH(prime, fixed_windows, q, table, digits, from, to, complete_from, entries)         \
    }                                                                                               \
    void emrtd_##prime##_secret_windows(u64 q[12], const u64 *table, const long *digits, int windows, int width, \
                                        int entries) {                                              \
        DISPATCH(prime, secret_windows, q, table, digits, windows, width, entries)                  \
    }                                                                                               \
    void emrtd_##prime##_odd_multiples(u64 *table, const u64 xy[8], int count) {                    \
        DISPATCH(prime, odd_multiples, table, xy, count)                                            \
    }                                                                                               \
    int emrtd_##prime##_public_terms(u64 q[12], const signed char *digits, const int *lengths,       \
                                     const u64 *const *tables, int count) {                         \
        RETURN_DISPATCH(prime, public_terms, q, digits, lengths, tables, count)                     \
    }

PUBLIC_FUNCTIONS(p256)
PUBLIC_FUNCTIONS(p224)

// MARK: Table reads for secret indices

ALWAYS_INLINE void select_entry(u64 *out, const u64 *table, int count, int limbs, int index) {
    u64 acc[12] = {0};
    for (int candidate = 0; candidate < count; candidate++) {
        u64 difference = (u64)(candidate ^ index);
        u64 mask = ((difference | ((u64)0 - difference)) >> 63) - 1;  // all ones when equal
        // A barrier: without it the compiler sees through the mask and reads only the chosen entry.
        __asm__("" : "+r"(mask));
        const u64 *entry = table + (long)candidate * limbs;
        for (int limb = 0; limb < limbs; limb++) acc[limb] |= entry[limb] & mask;
    }
    for (int limb = 0; limb < limbs; limb++) out[limb] = acc[limb];
}

#if defined(__x86_64__)
/// The same with 256-bit vectors: the mask comes from a vector comparison of a running counter with
/// the index (no branch), and every entry is loaded and masked.
ALWAYS_INLINE __attribute__((target("avx2"))) void select_entry_avx2(u64 *out, const u64 *table, int count,
                                                                     int limbs, int index) {
    const __m256i wanted = _mm256_set1_epi64x(index);
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i counter = _mm256_setzero_si256();
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256(), acc2 = _mm256_setzero_si256();
    for (int candidate = 0; candidate < count; candidate++) {
        __m256i mask = _mm256_cmpeq_epi64(counter, wanted);
        const __m256i *entry = (const __m256i *)(table + (long)candidate * limbs);
        acc0 = _mm256_or_si256(acc0, _mm256_and_si256(_mm256_loadu_si256(entry), mask));
        acc1 = _mm256_or_si256(acc1, _mm256_and_si256(_mm256_loadu_si256(entry + 1), mask));
        if (limbs == 12) acc2 = _mm256_or_si256(acc2, _mm256_and_si256(_mm256_loadu_si256(entry + 2), mask));
        counter = _mm256_add_epi64(counter, one);
    }
    _mm256_storeu_si256((__m256i *)out, acc0);
    _mm256_storeu_si256((__m256i *)(out + 4), acc1);
    if (limbs == 12) _mm256_storeu_si256((__m256i *)(out + 8), acc2);
}

__attribute__((target("avx2"))) static void select_avx2(u64 *out, const u64 *table, int count, int limbs, int index) {
    if (limbs == 8) {
        select_entry_avx2(out, table, count, 8, index);
    } else {
        select_entry_avx2(out, table, count, 12, index);
    }
}

/// The same with 512-bit vectors: an affine entry is one vector, the comparison's mask register
/// becomes a vector (VPMOVM2Q), and one ternary-logic instruction ORs the masked entry in. Every
/// entry is loaded whole, unmasked. Four accumulators and four counters, so that no chain of
/// one-cycle operations runs through all entries (the single-accumulator loop was bound by it).
ALWAYS_INLINE __attribute__((target("avx512f,avx512dq"))) __m512i select_mask_avx512(__m512i counter, __m512i wanted) {
    return _mm512_movm_epi64(_mm512_cmpeq_epi64_mask(counter, wanted));
}

ALWAYS_INLINE __attribute__((target("avx512f,avx512dq"))) void select_entry_avx512(u64 *out, const u64 *table,
                                                                                   int count, int limbs,
                                                                                   int index) {
    const __m512i wanted = _mm512_set1_epi64(index);
    const __m512i four = _mm512_set1_epi64(4);
    __m512i counter[4], acc[4];
    __m256i high[4];
    for (int lane = 0; lane < 4; lane++) {
        counter[lane] = _mm512_set1_epi64(lane);
        acc[lane] = _mm512_setzero_si512();
        high[lane] = _mm256_setzero_si256();
    }
    int candidate = 0;
    for (; candidate + 4 <= count; candidate += 4) {
        for (int lane = 0; lane < 4; lane++) {
            __m512i mask = select_mask_avx512(counter[lane], wanted);
            const u64 *entry = table + (long)(candidate + lane) * limbs;
            // 0xF8: acc | (entry & mask).
            acc[lane] = _mm512_ternarylogic_epi64(acc[lane], _mm512_loadu_si512(entry), mask, 0xF8);
            if (limbs == 12) {
                __m256i low = _mm512_castsi512_si256(mask);
                high[lane] = _mm256_or_si256(
                    high[lane], _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(entry + 8)), low));
            }
            counter[lane] = _mm512_add_epi64(counter[lane], four);
        }
    }
    for (int lane = 0; candidate < count; candidate++, lane++) {
        __m512i mask = select_mask_avx512(counter[lane], wanted);
        const u64 *entry = table + (long)candidate * limbs;
        acc[lane] = _mm512_ternarylogic_epi64(acc[lane], _mm512_loadu_si512(entry), mask, 0xF8);
        if (limbs == 12) {
            __m256i low = _mm512_castsi512_si256(mask);
            high[lane] =
                _mm256_or_si256(high[lane], _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(entry + 8)), low));
        }
    }
    __m512i sum = _mm512_or_si512(_mm512_or_si512(acc[0], acc[1]), _mm512_or_si512(acc[2], acc[3]));
    _mm512_storeu_si512(out, sum);
    if (limbs == 12) {
        __m256i top = _mm256_or_si256(_mm256_or_si256(high[0], high[1]), _mm256_or_si256(high[2], high[3]));
        _mm256_storeu_si256((__m256i *)(out + 8), top);
    }
}

__attribute__((target("avx512f,avx512dq"))) static void select_avx512(u64 *out, const u64 *table, int count,
                                                                      int limbs, int index) {
    if (limbs == 8) {
        select_entry_avx512(out, table, count, 8, index);
    } else {
        select_entry_avx512(out, table, count, 12, index);
    }
}
#endif

void emrtd_select_entry(u64 *out, const u64 *table, int count, int limbs, int index) {
#if defined(__x86_64__)
    int vectors = __atomic_load_n(&use_vectors, __ATOMIC_RELAXED);
    if (vectors == 2) {
        select_avx512(out, table, count, limbs, index);
        return;
    }
    if (vectors == 1) {
        select_avx2(out, table, count, limbs, index);
        return;
    }
#endif
    if (limbs == 8) {
        select_entry(out, table, count, 8, index);
    } else {
        select_entry(out, table, count, 12, index);
    }
}

/// `count` (≤ 63) bits of the four limbs k from bit `position` on; bits past the end read as zero. The
/// position is public (the window number), so its branches are too.
static u64 scalar_bits(const u64 k[4], int position, int count) {
    int index = position / 64, shift = position % 64;
    u64 low = index < 4 ? k[index] >> shift : 0;
    u64 high = (shift > 0 && index + 1 < 4) ? k[index + 1] << (64 - shift) : 0;
    return (low | high) & (((u64)1 << count) - 1);
}

/// Recoding in C where Swift's spent two arrays, a BigInt export of the order and a limb shift per call
/// (about 5 % of a P-256 fixed-base multiplication). Checked in the object code (`objdump -d`): the
/// only branches are on the window counter and width; the choice of k or order - k is AND/XOR masks.
emrtd_limb emrtd_regular_digits4(long *digits, const emrtd_limb scalar[4], const emrtd_limb order[4], int width,
                                 int windows) {
    u64 k[4];
    u64 even = (scalar[0] & 1) ^ 1;
    u64 mask = (u64)0 - even;
    // A barrier: the compiler must not turn the masked choice below into a branch.
    __asm__("" : "+r"(mask));
    unsigned __int128 difference = 0;
    for (int limb = 0; limb < 4; limb++) {
        difference = (unsigned __int128)order[limb] - scalar[limb] - (u64)(difference >> 127);
        u64 complement = (u64)difference;
        k[limb] = scalar[limb] ^ ((scalar[limb] ^ complement) & mask);
    }
    long half = 1L << width;
    digits[0] = (long)scalar_bits(k, 0, width + 1) - half;
    for (int index = 1; index < windows; index++) {
        if (index == windows - 1) {
            digits[index] = 2 * (long)scalar_bits(k, width * index + 1, 63 - width) + 1;
        } else {
            digits[index] = 2 * (long)scalar_bits(k, width * index + 1, width) + 1 - half;
        }
    }
    explicit_bzero(k, sizeof k);
    return even;
}
