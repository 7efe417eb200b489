// P-521's field and point arithmetic for the dedicated back end (P521Curve.swift), in the unsaturated
// form of OpenSSL's ecp_nistp521 (written here from the idea, not copied): an element is nine limbs of
// 58 bits (the top one 57), kept in that form for a whole scalar multiplication. Products are
// 128-bit sums of 64×64-bit products, carried once per product; sums and differences carry lazily;
// the product's upper half folds onto the lower one since 2^521 ≡ 1 (mod p). The generic back end's
// Comba product on saturated limbs spent most of its time on carries, and the packing into this form
// per product cost more than it saved, hence whole point formulas and scalar loops here.
//
// On x86-64 with BMI2 the products run in MULX inline assembly (fe_mul_mulx, fe_sqr_mulx), chosen once
// from CPUID; the portable C stays for other CPUs and for the tests, which run both.
//
// Every function is regular (no branch, no memory address depends on the values) except the
// accumulation of public wNAF terms and the batch of public odd multiples, which say so. The branches
// left in the secret loop (objdump of the release emrtd_p521_multiply_secret with table_to_affine
// inlined, point_double, point_add_affine, point_add, fe_mul_mulx, fe_sqr_mulx, select_entry) are the
// window and table counts, the kernel choice and the NULL test of `masks`: none depends on a secret;
// the table read is masked, the digit's sign is taken with a mask and a conditional move, and the
// blinded inversions branch only on their random factor.
#include "include/CFieldKernels.h"
#include "include/P521.h"
#include "CPUFeatures.h"

// GMP (mpn_gcdext for the inversions): the system header; the library comes with Arithmetic, which links
// it through CGMP and is this target's only user (a C target's dependency on CGMP would list an import
// that Tools/check-imports.py, reading Swift imports, finds nowhere).
#include <gmp.h>
#include <stdatomic.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef emrtd_limb u64;

#define NLIMBS 9
#define M58 ((u64)0x3FFFFFFFFFFFFFFULL)
#define M57 ((u64)0x1FFFFFFFFFFFFFFULL)

/// An element: value Σ f[i]·2^(58i). Limbs stay below 2^59 between operations (below 2^62 inside
/// the product's operands), so no 128-bit column overflows: 17 products of at most 2^122 each.
typedef u64 fe[NLIMBS];

/// The point: X, Y, Z (Jacobian; Z = 0 is infinity).
typedef struct { fe x, y, z; } point;

/// x, hidden from the optimiser: without it clang turns a mask computed from a secret comparison back
/// into a branch (it did, in the table read: `cmp; je`).
static inline u64 value_barrier(u64 x) {
    __asm__ volatile("" : "+r"(x));
    return x;
}

/// Brings every limb back to 58 bits (57 for the top one) but the lowest, which keeps a small excess:
/// the carry out of the top limb (weight 2^521 ≡ 1) returns to limb 0.
static inline void fe_carry(fe r) {
    for (int i = 0; i < 8; i++) {
        r[i + 1] += r[i] >> 58;
        r[i] &= M58;
    }
    u64 c = r[8] >> 57;
    r[8] &= M57;
    r[0] += c;
}

/// out = a·b; column k sums a_i·b_j for i + j = k and 2·a_i·b_j for i + j = k + 9 (2^(58·9) = 2·2^521).
__attribute__((noinline)) static void fe_mul_portable(fe out, const fe a, const fe b) {
    u64 b2[NLIMBS];
    for (int i = 0; i < NLIMBS; i++) b2[i] = b[i] << 1;
    // Column by column, each carried into the next at once: one 128-bit sum live at a time.
    u128 acc;
    u64 l0, l1, l2, l3, l4, l5, l6, l7;
    acc = (u128)a[0] * b[0]
        + (u128)a[1] * b2[8]
        + (u128)a[2] * b2[7]
        + (u128)a[3] * b2[6]
        + (u128)a[4] * b2[5]
        + (u128)a[5] * b2[4]
        + (u128)a[6] * b2[3]
        + (u128)a[7] * b2[2]
        + (u128)a[8] * b2[1];
    l0 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[1]
        + (u128)a[1] * b[0]
        + (u128)a[2] * b2[8]
        + (u128)a[3] * b2[7]
        + (u128)a[4] * b2[6]
        + (u128)a[5] * b2[5]
        + (u128)a[6] * b2[4]
        + (u128)a[7] * b2[3]
        + (u128)a[8] * b2[2];
    l1 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[2]
        + (u128)a[1] * b[1]
        + (u128)a[2] * b[0]
        + (u128)a[3] * b2[8]
        + (u128)a[4] * b2[7]
        + (u128)a[5] * b2[6]
        + (u128)a[6] * b2[5]
        + (u128)a[7] * b2[4]
        + (u128)a[8] * b2[3];
    l2 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[3]
        + (u128)a[1] * b[2]
        + (u128)a[2] * b[1]
        + (u128)a[3] * b[0]
        + (u128)a[4] * b2[8]
        + (u128)a[5] * b2[7]
        + (u128)a[6] * b2[6]
        + (u128)a[7] * b2[5]
        + (u128)a[8] * b2[4];
    l3 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[4]
        + (u128)a[1] * b[3]
        + (u128)a[2] * b[2]
        + (u128)a[3] * b[1]
        + (u128)a[4] * b[0]
        + (u128)a[5] * b2[8]
        + (u128)a[6] * b2[7]
        + (u128)a[7] * b2[6]
        + (u128)a[8] * b2[5];
    l4 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[5]
        + (u128)a[1] * b[4]
        + (u128)a[2] * b[3]
        + (u128)a[3] * b[2]
        + (u128)a[4] * b[1]
        + (u128)a[5] * b[0]
        + (u128)a[6] * b2[8]
        + (u128)a[7] * b2[7]
        + (u128)a[8] * b2[6];
    l5 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[6]
        + (u128)a[1] * b[5]
        + (u128)a[2] * b[4]
        + (u128)a[3] * b[3]
        + (u128)a[4] * b[2]
        + (u128)a[5] * b[1]
        + (u128)a[6] * b[0]
        + (u128)a[7] * b2[8]
        + (u128)a[8] * b2[7];
    l6 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[7]
        + (u128)a[1] * b[6]
        + (u128)a[2] * b[5]
        + (u128)a[3] * b[4]
        + (u128)a[4] * b[3]
        + (u128)a[5] * b[2]
        + (u128)a[6] * b[1]
        + (u128)a[7] * b[0]
        + (u128)a[8] * b2[8];
    l7 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a[0] * b[8]
        + (u128)a[1] * b[7]
        + (u128)a[2] * b[6]
        + (u128)a[3] * b[5]
        + (u128)a[4] * b[4]
        + (u128)a[5] * b[3]
        + (u128)a[6] * b[2]
        + (u128)a[7] * b[1]
        + (u128)a[8] * b[0];
    // acc (< 2^125) has weight 2^464: its part above 57 bits folds onto limb 0 (2^521 ≡ 1).
    out[8] = (u64)acc & M57;
    acc = (acc >> 57) + l0;
    out[0] = (u64)acc & M58;
    out[1] = l1 + (u64)(acc >> 58);
    out[2] = l2;
    out[3] = l3;
    out[4] = l4;
    out[5] = l5;
    out[6] = l6;
    out[7] = l7;
}

/// out = a², each cross product once, doubled (and doubled again where it wraps).
__attribute__((noinline)) static void fe_sqr_portable(fe out, const fe a) {
    u64 a2[NLIMBS], a4[NLIMBS];
    for (int i = 0; i < NLIMBS; i++) {
        a2[i] = a[i] << 1;
        a4[i] = a[i] << 2;
    }
    u128 acc;
    u64 l0, l1, l2, l3, l4, l5, l6, l7;
    acc = (u128)a[0] * a[0]
        + (u128)a4[1] * a[8]
        + (u128)a4[2] * a[7]
        + (u128)a4[3] * a[6]
        + (u128)a4[4] * a[5];
    l0 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[1]
        + (u128)a4[2] * a[8]
        + (u128)a4[3] * a[7]
        + (u128)a4[4] * a[6]
        + (u128)a2[5] * a[5];
    l1 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[2]
        + (u128)a[1] * a[1]
        + (u128)a4[3] * a[8]
        + (u128)a4[4] * a[7]
        + (u128)a4[5] * a[6];
    l2 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[3]
        + (u128)a2[1] * a[2]
        + (u128)a4[4] * a[8]
        + (u128)a4[5] * a[7]
        + (u128)a2[6] * a[6];
    l3 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[4]
        + (u128)a2[1] * a[3]
        + (u128)a[2] * a[2]
        + (u128)a4[5] * a[8]
        + (u128)a4[6] * a[7];
    l4 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[5]
        + (u128)a2[1] * a[4]
        + (u128)a2[2] * a[3]
        + (u128)a4[6] * a[8]
        + (u128)a2[7] * a[7];
    l5 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[6]
        + (u128)a2[1] * a[5]
        + (u128)a2[2] * a[4]
        + (u128)a[3] * a[3]
        + (u128)a4[7] * a[8];
    l6 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[7]
        + (u128)a2[1] * a[6]
        + (u128)a2[2] * a[5]
        + (u128)a2[3] * a[4]
        + (u128)a2[8] * a[8];
    l7 = (u64)acc & M58;
    acc = (acc >> 58)
        + (u128)a2[0] * a[8]
        + (u128)a2[1] * a[7]
        + (u128)a2[2] * a[6]
        + (u128)a2[3] * a[5]
        + (u128)a[4] * a[4];
    // acc (< 2^125) has weight 2^464: its part above 57 bits folds onto limb 0 (2^521 ≡ 1).
    out[8] = (u64)acc & M57;
    acc = (acc >> 57) + l0;
    out[0] = (u64)acc & M58;
    out[1] = l1 + (u64)(acc >> 58);
    out[2] = l2;
    out[3] = l3;
    out[4] = l4;
    out[5] = l5;
    out[6] = l6;
    out[7] = l7;
}

#if defined(__x86_64__)

/// Finishes the fold of nine column sums (each below 17·2^123 < 2^127.1, weight 2^(58k), the wrapped halves already
/// doubled in). The assembly carries each group of three columns as soon as it is summed (in registers,
/// while the next group's products run): g[4j], g[4j+1] are limbs 3j and 3j+1 (58 bits), g[4j+2..3] the
/// third column with both carries added, T_j < 2^127.1 + 2^70 < 2^128, weight 2^(58(3j+2)). Each T_j
/// splits into three 58-bit pieces on limbs 3j+2..3j+4, T_2's part above 57 bits returning to limb 0
/// (2^521 ≡ 1); the three limbs that received two pieces carry once more. Limbs end below 2^58 + 2^14
/// (the top one below 2^57), inside the "carried" bound of the point formulas (2^58.01).
static inline void fe_reduce_groups(fe out, const u64 g[12]) {
    u128 t0 = ((u128)g[3] << 64) | g[2];
    u128 t1 = ((u128)g[7] << 64) | g[6];
    u128 t2 = ((u128)g[11] << 64) | g[10];
    u128 wrap = (t2 >> 57) + g[0];  // < 2^72
    out[0] = (u64)wrap & M58;
    out[1] = g[1] + (u64)(wrap >> 58);  // < 2^58 + 2^14
    out[2] = (u64)t0 & M58;
    u64 l3 = g[4] + ((u64)(t0 >> 58) & M58);  // < 2^59
    out[3] = l3 & M58;
    out[4] = g[5] + (u64)(t0 >> 116) + (l3 >> 58);  // < 2^58 + 2^13
    out[5] = (u64)t1 & M58;
    u64 l6 = g[8] + ((u64)(t1 >> 58) & M58);
    out[6] = l6 & M58;
    out[7] = g[9] + (u64)(t1 >> 116) + (l6 >> 58);
    out[8] = (u64)t2 & M57;
}

// The same column sums as fe_mul_portable and fe_sqr_portable (same terms, same bounds), with BMI2's
// MULX, which leaves the flags and its multiplier register alone: the columns are summed three at a
// time in registers, one load of a limb serving every product of it in those columns, and the doubled
// (wrapping) terms double the limb in RDX instead of reading a doubled copy of the other operand.
// About 300 and 190 instructions against clang's ~500 and ~300 for the C. The C carries each column
// into the next; these carry each group of three columns in registers as soon as it is summed (BZHI,
// SHRD), off the critical path but for the last group, and finish in fe_reduce_groups: the fold of all
// nine columns at the end took a fifth of a secret multiplication's time, this is 2–3 % faster. The top
// group comes first, so the last chain ends near limb 0, which the next product reads first (1.5 %
// more). No branch and no address depends on the values.
__attribute__((noinline)) static void fe_mul_mulx(fe out, const fe a, const fe b) {
    u64 c[12];
    __asm__ volatile(
        "movq 0(%[a]), %%rdx\n\t"
        "mulxq 48(%[b]), %%r8, %%r9\n\t"
        "mulxq 56(%[b]), %%r10, %%r11\n\t"
        "mulxq 64(%[b]), %%r12, %%r13\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 48(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 56(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "movq 64(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "movq $58, %%rax\n\t"
        "bzhiq %%rax, %%r8, %%rsi\n\t"
        "movq %%rsi, 64(%[c])\n\t"
        "shrdq $58, %%r9, %%r8\n\t"
        "shrq $58, %%r9\n\t"
        "addq %%r8, %%r10\n\t"
        "adcq %%r9, %%r11\n\t"
        "bzhiq %%rax, %%r10, %%rsi\n\t"
        "movq %%rsi, 72(%[c])\n\t"
        "shrdq $58, %%r11, %%r10\n\t"
        "shrq $58, %%r11\n\t"
        "addq %%r10, %%r12\n\t"
        "adcq %%r11, %%r13\n\t"
        "movq %%r12, 80(%[c])\n\t"
        "movq %%r13, 88(%[c])\n\t"
        "movq 0(%[a]), %%rdx\n\t"
        "mulxq 24(%[b]), %%r8, %%r9\n\t"
        "mulxq 32(%[b]), %%r10, %%r11\n\t"
        "mulxq 40(%[b]), %%r12, %%r13\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "movq 48(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 56(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 64(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq $58, %%rax\n\t"
        "bzhiq %%rax, %%r8, %%rsi\n\t"
        "movq %%rsi, 32(%[c])\n\t"
        "shrdq $58, %%r9, %%r8\n\t"
        "shrq $58, %%r9\n\t"
        "addq %%r8, %%r10\n\t"
        "adcq %%r9, %%r11\n\t"
        "bzhiq %%rax, %%r10, %%rsi\n\t"
        "movq %%rsi, 40(%[c])\n\t"
        "shrdq $58, %%r11, %%r10\n\t"
        "shrq $58, %%r11\n\t"
        "addq %%r10, %%r12\n\t"
        "adcq %%r11, %%r13\n\t"
        "movq %%r12, 48(%[c])\n\t"
        "movq %%r13, 56(%[c])\n\t"
        "movq 0(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%r8, %%r9\n\t"
        "mulxq 8(%[b]), %%r10, %%r11\n\t"
        "mulxq 16(%[b]), %%r12, %%r13\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq 0(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 64(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 56(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 48(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 48(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 40(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 56(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 32(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 64(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 8(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 16(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 24(%[b]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq $58, %%rax\n\t"
        "bzhiq %%rax, %%r8, %%rsi\n\t"
        "movq %%rsi, 0(%[c])\n\t"
        "shrdq $58, %%r9, %%r8\n\t"
        "shrq $58, %%r9\n\t"
        "addq %%r8, %%r10\n\t"
        "adcq %%r9, %%r11\n\t"
        "bzhiq %%rax, %%r10, %%rsi\n\t"
        "movq %%rsi, 8(%[c])\n\t"
        "shrdq $58, %%r11, %%r10\n\t"
        "shrq $58, %%r11\n\t"
        "addq %%r10, %%r12\n\t"
        "adcq %%r11, %%r13\n\t"
        "movq %%r12, 16(%[c])\n\t"
        "movq %%r13, 24(%[c])\n\t"
        :
        : [a] "r"(a), [b] "r"(b), [c] "r"(c)
        : "rax", "rsi", "rdx", "r10", "r11", "r12", "r13", "r8", "r9", "cc", "memory");
    fe_reduce_groups(out, c);
}

__attribute__((noinline)) static void fe_sqr_mulx(fe out, const fe a) {
    u64 c[12];
    __asm__ volatile(
        "movq 24(%[a]), %%rdx\n\t"
        "mulxq 24(%[a]), %%r8, %%r9\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "mulxq 32(%[a]), %%r12, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 16(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 24(%[a]), %%r10, %%r11\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 8(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 16(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 24(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 48(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 8(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 16(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 56(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 8(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 64(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 64(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 56(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "movq $58, %%rax\n\t"
        "bzhiq %%rax, %%r8, %%rsi\n\t"
        "movq %%rsi, 64(%[c])\n\t"
        "shrdq $58, %%r9, %%r8\n\t"
        "shrq $58, %%r9\n\t"
        "addq %%r8, %%r10\n\t"
        "adcq %%r9, %%r11\n\t"
        "bzhiq %%rax, %%r10, %%rsi\n\t"
        "movq %%rsi, 72(%[c])\n\t"
        "shrdq $58, %%r11, %%r10\n\t"
        "shrq $58, %%r11\n\t"
        "addq %%r10, %%r12\n\t"
        "adcq %%r11, %%r13\n\t"
        "movq %%r12, 80(%[c])\n\t"
        "movq %%r13, 88(%[c])\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq 16(%[a]), %%r10, %%r11\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 8(%[a]), %%r8, %%r9\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 8(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 16(%[a]), %%r12, %%r13\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 8(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 48(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 48(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "movq 56(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 56(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 40(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 48(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "movq 64(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 32(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 40(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 48(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq $58, %%rax\n\t"
        "bzhiq %%rax, %%r8, %%rsi\n\t"
        "movq %%rsi, 32(%[c])\n\t"
        "shrdq $58, %%r9, %%r8\n\t"
        "shrq $58, %%r9\n\t"
        "addq %%r8, %%r10\n\t"
        "adcq %%r9, %%r11\n\t"
        "bzhiq %%rax, %%r10, %%rsi\n\t"
        "movq %%rsi, 40(%[c])\n\t"
        "shrdq $58, %%r11, %%r10\n\t"
        "shrq $58, %%r11\n\t"
        "addq %%r10, %%r12\n\t"
        "adcq %%r11, %%r13\n\t"
        "movq %%r12, 48(%[c])\n\t"
        "movq %%r13, 56(%[c])\n\t"
        "movq 0(%[a]), %%rdx\n\t"
        "mulxq 0(%[a]), %%r8, %%r9\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq 8(%[a]), %%r12, %%r13\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%r10, %%r11\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 0(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 40(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 32(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "movq 48(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 24(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 32(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 40(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 56(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 16(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 24(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 32(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq 64(%[a]), %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "addq %%rdx, %%rdx\n\t"
        "mulxq 8(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r8\n\t"
        "adcq %%rsi, %%r9\n\t"
        "mulxq 16(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r10\n\t"
        "adcq %%rsi, %%r11\n\t"
        "mulxq 24(%[a]), %%rax, %%rsi\n\t"
        "addq %%rax, %%r12\n\t"
        "adcq %%rsi, %%r13\n\t"
        "movq $58, %%rax\n\t"
        "bzhiq %%rax, %%r8, %%rsi\n\t"
        "movq %%rsi, 0(%[c])\n\t"
        "shrdq $58, %%r9, %%r8\n\t"
        "shrq $58, %%r9\n\t"
        "addq %%r8, %%r10\n\t"
        "adcq %%r9, %%r11\n\t"
        "bzhiq %%rax, %%r10, %%rsi\n\t"
        "movq %%rsi, 8(%[c])\n\t"
        "shrdq $58, %%r11, %%r10\n\t"
        "shrq $58, %%r11\n\t"
        "addq %%r10, %%r12\n\t"
        "adcq %%r11, %%r13\n\t"
        "movq %%r12, 16(%[c])\n\t"
        "movq %%r13, 24(%[c])\n\t"
        :
        : [a] "r"(a), [c] "r"(c)
        : "rax", "rsi", "rdx", "r10", "r11", "r12", "r13", "r8", "r9", "cc", "memory");
    fe_reduce_groups(out, c);
}
#endif

/// 1 when the MULX kernels serve the products: chosen once from CPUID when the library loads, changed
/// only by emrtd_p521_kernel (the tests run both). A property of the machine, not of any secret.
static _Atomic int use_mulx;

__attribute__((constructor)) static void select_kernel(void) {
    atomic_store_explicit(&use_mulx, emrtd_cpu_has_bmi2(), memory_order_relaxed);
}

int emrtd_p521_kernel(int select) {
    if (select == 0 || (select == 1 && emrtd_cpu_has_bmi2())) {
        atomic_store_explicit(&use_mulx, select, memory_order_relaxed);
    }
    return atomic_load_explicit(&use_mulx, memory_order_relaxed);
}

static inline void fe_mul(fe out, const fe a, const fe b) {
#if defined(__x86_64__)
    if (atomic_load_explicit(&use_mulx, memory_order_relaxed)) {
        fe_mul_mulx(out, a, b);
        return;
    }
#endif
    fe_mul_portable(out, a, b);
}

static inline void fe_sqr(fe out, const fe a) {
#if defined(__x86_64__)
    if (atomic_load_explicit(&use_mulx, memory_order_relaxed)) {
        fe_sqr_mulx(out, a);
        return;
    }
#endif
    fe_sqr_portable(out, a);
}

/// out = a + b, carried.
static inline void fe_add(fe out, const fe a, const fe b) {
    for (int i = 0; i < NLIMBS; i++) out[i] = a[i] + b[i];
    fe_carry(out);
}

/// out = a - b + 8p, carried: 8p's limbs (2^61 - 8, top 2^60 - 8) exceed any carried b's.
static inline void fe_sub(fe out, const fe a, const fe b) {
    for (int i = 0; i < 8; i++) out[i] = a[i] + ((M58 << 3) - b[i]);
    out[8] = a[8] + ((M57 << 3) - b[8]);
    fe_carry(out);
}

/// out = k·a for a small k (≤ 8), carried.
static inline void fe_scale(fe out, const fe a, u64 k) {
    for (int i = 0; i < NLIMBS; i++) out[i] = a[i] * k;
    fe_carry(out);
}

/// Uncarried forms, for the point formulas: each says what it needs of its operands. A carried
/// element has limbs below 2^58 + 2^11 (the top one below 2^57); product operands may reach 2^61.5
/// (17·2^123 < 2^128, and 4·2^61.5 < 2^64 for the square's quadrupled limbs).

/// a + b, not carried.
static inline void fe_add_nc(fe out, const fe a, const fe b) {
    for (int i = 0; i < NLIMBS; i++) out[i] = a[i] + b[i];
}

/// a - b + 2^s·p, not carried; b's limbs below 2^s·(2^58 - 1) (the top one 2^s·(2^57 - 1)).
static inline void fe_sub_nc(fe out, const fe a, const fe b, int s) {
    for (int i = 0; i < 8; i++) out[i] = a[i] + ((M58 << s) - b[i]);
    out[8] = a[8] + ((M57 << s) - b[8]);
}

/// k·a, not carried.
static inline void fe_scale_nc(fe out, const fe a, u64 k) {
    for (int i = 0; i < NLIMBS; i++) out[i] = a[i] * k;
}

/// The unique representative below p, limbs of exactly 58 bits (57 on top).
static void fe_contract(fe out, const fe a) {
    for (int i = 0; i < NLIMBS; i++) out[i] = a[i];
    fe_carry(out);
    fe_carry(out);
    fe_carry(out);
    // Now the value is at most 2^521 - 1 = p; p (every limb full) becomes 0.
    u64 differs = 0;
    for (int i = 0; i < 8; i++) differs |= out[i] ^ M58;
    differs |= out[8] ^ M57;
    u64 isP = ((differs | (0 - differs)) >> 63) - 1;
    for (int i = 0; i < NLIMBS; i++) out[i] &= ~isP;
}

/// 1 when a ≡ 0 (mod p), else 0.
static inline u64 fe_is_zero(const fe a) {
    fe c;
    fe_contract(c, a);
    u64 any = 0;
    for (int i = 0; i < NLIMBS; i++) any |= c[i];
    return ((any | (0 - any)) >> 63) ^ 1;
}

/// out = mask ? b : a (mask all ones or zero).
static inline void fe_select(fe out, const fe a, const fe b, u64 mask) {
    mask = value_barrier(mask);
    for (int i = 0; i < NLIMBS; i++) out[i] = a[i] ^ ((a[i] ^ b[i]) & mask);
}

/// out = -a when negate is 1, a when 0.
static inline void fe_negate_if(fe out, const fe a, u64 negate) {
    fe zero = {0}, minus;
    fe_sub(minus, zero, a);
    fe_select(out, a, minus, 0 - negate);
}

/// Limbs of 64 bits (as the generic back end keeps P-521's elements: plain, below 2^521) to 58 bits.
static void fe_from_words(fe out, const emrtd_limb w[9]) {
    for (int i = 0; i < NLIMBS; i++) {
        int bit = 58 * i, word = bit / 64, shift = bit % 64;
        u64 v = w[word] >> shift;
        if (shift > 6 && word + 1 < 9) v |= w[word + 1] << (64 - shift);
        out[i] = v & (i == 8 ? M57 : M58);
    }
}

/// The representative below p as nine 64-bit limbs.
static void fe_to_words(emrtd_limb w[9], const fe a) {
    fe c;
    fe_contract(c, a);
    for (int i = 0; i < 9; i++) w[i] = 0;
    for (int i = 0; i < NLIMBS; i++) {
        int bit = 58 * i, word = bit / 64, shift = bit % 64;
        w[word] |= c[i] << shift;
        if (shift > 6 && word + 1 < 9) w[word + 1] |= c[i] >> (64 - shift);
    }
}

/// Enters the internal form from a caller's limbs: plain, or (`montgomery` = 1) in the generic
/// back end's Montgomery form of debug builds, x·2^576 ≡ x·2^55, left by multiplying with 2^466 = 2^-55.
static void fe_load(fe out, const emrtd_limb w[9], int montgomery) {
    fe_from_words(out, w);
    if (montgomery) {
        fe rInverse = {0, 0, 0, 0, 0, 0, 0, 0, 4};
        fe_mul(out, out, rInverse);
    }
}

/// Leaves the internal form for the caller's (as fe_load).
static void fe_store(emrtd_limb w[9], const fe a, int montgomery) {
    fe t;
    memcpy(t, a, sizeof(fe));
    if (montgomery) {
        fe r = {(u64)1 << 55, 0, 0, 0, 0, 0, 0, 0, 0};
        fe_mul(t, t, r);
    }
    fe_to_words(w, t);
}

static void fe_sqr_n(fe out, const fe a, int n) {
    fe_sqr(out, a);
    for (int i = 1; i < n; i++) fe_sqr(out, out);
}

/// out = a^(p-2) = a^(2^521 - 3) (0 for 0): t_k = a^(2^k - 1) up to t_519, then t_519·4 + 1.
static void fe_inv(fe out, const fe a) {
    fe t2, t3, t4, t7, t8, t16, t32, t64, t128, t256, t;
    fe_sqr(t, a);
    fe_mul(t2, t, a);
    fe_sqr(t, t2);
    fe_mul(t3, t, a);
    fe_sqr_n(t, t2, 2);
    fe_mul(t4, t, t2);
    fe_sqr_n(t, t4, 3);
    fe_mul(t7, t, t3);
    fe_sqr(t, t7);
    fe_mul(t8, t, a);
    fe_sqr_n(t, t8, 8);
    fe_mul(t16, t, t8);
    fe_sqr_n(t, t16, 16);
    fe_mul(t32, t, t16);
    fe_sqr_n(t, t32, 32);
    fe_mul(t64, t, t32);
    fe_sqr_n(t, t64, 64);
    fe_mul(t128, t, t64);
    fe_sqr_n(t, t128, 128);
    fe_mul(t256, t, t128);
    fe_sqr_n(t, t256, 256);
    fe_mul(t, t, t256);  // t_512
    fe_sqr_n(t, t, 7);
    fe_mul(t, t, t7);  // t_519
    fe_sqr_n(t, t, 2);
    fe_mul(out, t, a);
}

/// p as nine 64-bit limbs.
static const emrtd_limb prime_words[9] = {~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, 0x1FF};

/// out = 1/a for a ≢ 0 by GMP's extended gcd: variable time, for public values (and for the blinded
/// ones of fe_inv_blinded). About 2 µs against 11 µs for fe_inv's 520 squarings. Returns 0, and
/// leaves out alone, when a ≡ 0.
static int fe_inv_vartime(fe out, const fe a) {
    mp_limb_t u[9], v[9], g[9], s[10];
    mp_size_t sn;
    emrtd_limb w[9];
    fe_to_words(w, a);
    // U = a + p (< 2^522, no carry out of nine limbs) and V = p meet mpn_gcdext's U ≥ V, top limb of V
    // non-zero; 1 = U·S + p·T makes S ≡ a^-1 (mod p), with |S| < p/2, negative when sn < 0.
    mpn_add_n(u, w, prime_words, 9);
    memcpy(v, prime_words, sizeof(v));
    mp_size_t gn = mpn_gcdext(g, s, &sn, u, 9, v, 9);
    if (gn != 1 || g[0] != 1) return 0;
    mp_size_t n = sn < 0 ? -sn : sn;
    for (int i = 0; i < 9; i++) w[i] = i < n ? s[i] : 0;
    if (sn < 0) mpn_sub_n(w, prime_words, w, 9);
    fe_from_words(out, w);
    return 1;
}

/// out = 1/a for a secret a ≢ 0 without timing that depends on it: a is multiplied by a fresh random
/// r ≢ 0, so the variable-time gcd sees a uniformly random element whatever a is, and out = r·(a·r)^-1
/// (OpenSSL's ec_GFp_simple_field_inv blinds its inversion the same way). The only branches are on r
/// and on the generator's outcome; without randomness, fe_inv's fixed chain.
static void fe_inv_blinded(fe out, const fe a) {
    emrtd_limb w[9];
    fe r, ar;
    if (!emrtd_random_limbs(w, 9)) {
        fe_inv(out, a);
        return;
    }
    w[8] &= 0x1FF;  // below 2^521; p itself (every bit set) reads as 0 and takes fe_inv below
    fe_from_words(r, w);
    if (fe_is_zero(r)) {
        fe_inv(out, a);
    } else {
        fe_mul(ar, a, r);
        if (!fe_inv_vartime(ar, ar)) memset(ar, 0, sizeof(fe));  // a ≡ 0: 0, as fe_inv gives
        fe_mul(out, ar, r);
    }
    // The blinding factor would unblind a's inverse: wiped where the compiler cannot drop the stores.
    explicit_bzero(w, sizeof(w));
    explicit_bzero(r, sizeof(r));
    explicit_bzero(ar, sizeof(ar));
}

// MARK: Points (EFD formulas for a = -3)

/// dbl-2001-b; r may be q. Infinity and points of order 2 give Z = 0. Three carries in all: the bounds
/// of each uncarried value are in the comments (carried inputs: limbs < 2^58.01, top < 2^57).
static void point_double(point *r, const point *q) {
    fe delta, gamma, beta, alpha, t, u;
    fe_sqr(delta, q->z);
    fe_sqr(gamma, q->y);
    fe_mul(beta, q->x, gamma);
    fe_sub_nc(t, q->x, delta, 2);  // < 2^60.3
    fe_add_nc(u, q->x, delta);     // < 2^59.1
    fe_scale_nc(t, t, 3);          // < 2^61.9; 2^61.9 · 2^59.1 · 17 < 2^128
    fe_mul(alpha, t, u);
    fe_add_nc(t, q->y, q->z);  // < 2^59.1
    fe_sqr(t, t);
    fe_sub_nc(t, t, gamma, 2);  // < 2^60.3
    fe_sub_nc(t, t, delta, 2);  // < 2^61.2
    fe_carry(t);
    memcpy(r->z, t, sizeof(fe));
    fe_scale_nc(u, beta, 8);  // < 2^61.1, top < 2^60
    fe_sqr(t, alpha);
    fe_sub_nc(t, t, u, 4);  // < 2^62.1
    fe_carry(t);
    memcpy(r->x, t, sizeof(fe));
    fe_scale_nc(u, beta, 4);    // < 2^60.1
    fe_sub_nc(u, u, r->x, 2);   // < 2^61.1
    fe_mul(u, alpha, u);
    fe_sqr(gamma, gamma);
    fe_scale_nc(gamma, gamma, 8);  // < 2^61.1, top < 2^60
    fe_sub_nc(u, u, gamma, 4);     // < 2^62.1
    fe_carry(u);
    memcpy(r->y, u, sizeof(fe));
}

/// add-2007-bl for p1 + p2, neither infinity; r may alias either. masks[0] = 1 when H = 0 (equal x),
/// masks[1] = 1 when R = 0 (equal y): with both, p1 = p2 and the sum is not valid. masks may be NULL
/// (the regular loops' middle windows, which never meet those cases: a public choice). Carries as
/// point_double's (bounds in the comments).
static void point_add(point *r, const point *p1, const point *p2, u64 masks[2]) {
    fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    point out;
    fe_sqr(z1z1, p1->z);
    fe_sqr(z2z2, p2->z);
    fe_mul(u1, p1->x, z2z2);
    fe_mul(u2, p2->x, z1z1);
    fe_mul(s1, p1->y, p2->z);
    fe_mul(s1, s1, z2z2);
    fe_mul(s2, p2->y, p1->z);
    fe_mul(s2, s2, z1z1);
    fe_sub_nc(h, u2, u1, 2);   // < 2^60.3
    fe_sub_nc(rr, s2, s1, 2);  // < 2^60.3
    if (masks) {
        masks[0] = fe_is_zero(h);
        masks[1] = fe_is_zero(rr);
    }
    fe_add_nc(rr, rr, rr);  // < 2^61.3
    fe_add_nc(i, h, h);     // < 2^61.3
    fe_sqr(i, i);
    fe_mul(j, h, i);
    fe_mul(v, u1, i);
    fe_sqr(out.x, rr);
    fe_sub_nc(out.x, out.x, j, 2);  // < 2^60.3
    fe_add_nc(t, v, v);             // < 2^59.1, top < 2^58
    fe_sub_nc(out.x, out.x, t, 2);  // < 2^61.2
    fe_carry(out.x);
    fe_sub_nc(t, v, out.x, 2);  // < 2^60.3
    fe_mul(t, rr, t);
    fe_mul(s1, s1, j);
    fe_add_nc(s1, s1, s1);         // < 2^59.1, top < 2^58
    fe_sub_nc(out.y, t, s1, 2);    // < 2^60.3
    fe_carry(out.y);
    fe_add_nc(t, p1->z, p2->z);  // < 2^59.1
    fe_sqr(t, t);
    fe_sub_nc(t, t, z1z1, 2);
    fe_sub_nc(t, t, z2z2, 2);  // < 2^61.2
    fe_mul(out.z, t, h);
    *r = out;
}

/// madd-2007-bl for p1 (not infinity) + (x2, y2) (carried); masks as point_add.
static void point_add_affine(point *r, const point *p1, const fe x2, const fe y2, u64 masks[2]) {
    fe z1z1, u2, s2, h, hh, i, j, rr, v, t;
    point out;
    fe_sqr(z1z1, p1->z);
    fe_mul(u2, x2, z1z1);
    fe_mul(s2, y2, p1->z);
    fe_mul(s2, s2, z1z1);
    fe_sub_nc(h, u2, p1->x, 2);   // < 2^60.3
    fe_sub_nc(rr, s2, p1->y, 2);  // < 2^60.3
    if (masks) {
        masks[0] = fe_is_zero(h);
        masks[1] = fe_is_zero(rr);
    }
    fe_add_nc(rr, rr, rr);  // < 2^61.3
    fe_sqr(hh, h);
    fe_scale_nc(i, hh, 4);  // < 2^60.1
    fe_mul(j, h, i);
    fe_mul(v, p1->x, i);
    fe_sqr(out.x, rr);
    fe_sub_nc(out.x, out.x, j, 2);
    fe_add_nc(t, v, v);
    fe_sub_nc(out.x, out.x, t, 2);  // < 2^61.2
    fe_carry(out.x);
    fe_sub_nc(t, v, out.x, 2);
    fe_mul(t, rr, t);
    fe_mul(s2, p1->y, j);
    fe_add_nc(s2, s2, s2);
    fe_sub_nc(out.y, t, s2, 2);
    fe_carry(out.y);
    fe_add_nc(t, p1->z, h);  // < 2^60.5
    fe_sqr(t, t);
    fe_sub_nc(t, t, z1z1, 2);
    fe_sub_nc(out.z, t, hh, 2);  // < 2^61.2
    fe_carry(out.z);
    *r = out;
}

static void point_select(point *out, const point *a, const point *b, u64 mask) {
    fe_select(out->x, a->x, b->x, mask);
    fe_select(out->y, a->y, b->y, mask);
    fe_select(out->z, a->z, b->z, mask);
}

/// p1 + p2 for every input without branching: p1 = p2 doubles, p1 = -p2 gives infinity (Z = 0),
/// p1 = infinity gives p2 (p2 is never infinity).
static void point_add_complete(point *r, const point *p1, const point *p2) {
    u64 p1Infinity = fe_is_zero(p1->z);
    u64 masks[2];
    point sum, doubled, second = *p2;
    point_add(&sum, p1, &second, masks);
    point_double(&doubled, &second);
    point_select(&sum, &sum, &doubled, 0 - (masks[0] & masks[1] & (p1Infinity ^ 1)));
    point_select(r, &sum, &second, 0 - p1Infinity);
}

static void point_lift(point *r, const fe x, const fe y) {
    memcpy(r->x, x, sizeof(fe));
    memcpy(r->y, y, sizeof(fe));
    memset(r->z, 0, sizeof(fe));
    r->z[0] = 1;
}

/// Co-Z addition (Meloni's ZADDU): r = p + d for p and d sharing their Z, neither infinity and p ≠ ±d;
/// d is rewritten in place with r's Z (the same point), so it can be added again to r. 5M + 2S where
/// add-2007-bl costs 11M + 5S: the tables of odd multiples, (2i+1)P = (2i-1)P + 2P. r may alias p.
static void point_add_coz(point *r, const point *p, point *d) {
    fe h, c, w1, w2, e, a1, x3, t;
    fe_sub_nc(h, d->x, p->x, 2);  // < 2^60.3
    fe_sqr(c, h);
    fe_mul(w1, d->x, c);
    fe_mul(w2, p->x, c);
    fe_sub_nc(e, d->y, p->y, 2);  // < 2^60.3
    fe_sub_nc(t, w1, w2, 2);      // < 2^60.3
    fe_mul(a1, d->y, t);
    fe_mul(r->z, p->z, h);
    memcpy(d->z, r->z, sizeof(fe));
    fe_sqr(x3, e);
    fe_sub_nc(x3, x3, w1, 2);
    fe_sub_nc(x3, x3, w2, 2);  // < 2^61.2
    fe_carry(x3);
    fe_sub_nc(t, w1, x3, 2);  // < 2^60.3
    fe_mul(t, e, t);
    fe_sub_nc(t, t, a1, 2);  // < 2^60.3
    fe_carry(t);
    memcpy(r->x, x3, sizeof(fe));
    memcpy(r->y, t, sizeof(fe));
    memcpy(d->x, w1, sizeof(fe));
    memcpy(d->y, a1, sizeof(fe));
}

/// The odd multiples P, 3P, …, (2·count - 1)P of the affine point P = (x, y) into `table` (Jacobian,
/// own Z each), by co-Z additions of 2P: P is first rescaled to 2P's Z. No exceptional case for a
/// point of prime order above 2·count + 1 (every sum (2i+1)P is finite and ≠ ±2P).
static void odd_multiples_coz(point *table, int count, const fe x, const fe y) {
    point twice;
    fe zz, t;
    point_lift(&table[0], x, y);
    point_double(&twice, &table[0]);
    fe_sqr(zz, twice.z);
    fe_mul(table[0].x, x, zz);
    fe_mul(t, zz, twice.z);
    fe_mul(table[0].y, y, t);
    memcpy(table[0].z, twice.z, sizeof(fe));
    for (int i = 1; i < count; i++) point_add_coz(&table[i], &table[i - 1], &twice);
}

/// Writes the affine (x, y) of q, Z ≠ 0, as 18 64-bit limbs; `secret` says whether Z derives from a
/// secret (blinded inversion) or is public (plain variable-time inversion).
static void point_store_affine(emrtd_limb out[18], const point *q, int montgomery, int secret) {
    fe zi, zi2, t;
    if (secret) {
        fe_inv_blinded(zi, q->z);
    } else if (!fe_inv_vartime(zi, q->z)) {
        fe_inv(zi, q->z);
    }
    fe_sqr(zi2, zi);
    fe_mul(t, q->x, zi2);
    fe_store(out, t, montgomery);
    fe_mul(zi2, zi2, zi);
    fe_mul(t, q->y, zi2);
    fe_store(out + 9, t, montgomery);
}

/// out = entry `index` of `count` entries of `limbs` limbs: every entry read and masked.
static void select_entry(u64 *out, const u64 *table, int count, int limbs, u64 index) {
    for (int l = 0; l < limbs; l++) out[l] = 0;
    for (int e = 0; e < count; e++) {
        u64 mask = value_barrier(0 - ((((u64)e ^ index) - 1) >> 63));
        const u64 *entry = table + (long)e * limbs;
        for (int l = 0; l < limbs; l++) out[l] |= entry[l] & mask;
    }
}

/// The table index ((|d| - 1)/2) and sign bit of an odd regular digit, without branching.
static inline u64 digit_index(long d, u64 *sign) {
    long s = d >> 63;
    *sign = (u64)s & 1;
    return (u64)(((d ^ s) - s) - 1) >> 1;
}

// MARK: Exported

void emrtd_p521_mul_words(emrtd_limb r[9], const emrtd_limb a[9], const emrtd_limb b[9]) {
    fe x, y;
    fe_from_words(x, a);
    fe_from_words(y, b);
    fe_mul(x, x, y);
    fe_to_words(r, x);
}

void emrtd_p521_sqr_words(emrtd_limb r[9], const emrtd_limb a[9]) {
    fe x;
    fe_from_words(x, a);
    fe_sqr(x, x);
    fe_to_words(r, x);
}

void emrtd_p521_inv_words(emrtd_limb r[9], const emrtd_limb a[9]) {
    fe x;
    fe_from_words(x, a);
    fe_inv(x, x);
    fe_to_words(r, x);
}

void emrtd_p521_inv_gcd_words(emrtd_limb r[9], const emrtd_limb a[9], int blinded) {
    fe x;
    fe_from_words(x, a);
    if (blinded) {
        fe_inv_blinded(x, x);
    } else if (!fe_inv_vartime(x, x)) {
        memset(x, 0, sizeof(x));
    }
    fe_to_words(r, x);
}

void emrtd_p521_sub_words(emrtd_limb r[9], const emrtd_limb a[9], const emrtd_limb b[9]) {
    fe x, y;
    fe_from_words(x, a);
    fe_from_words(y, b);
    fe_sub(x, x, y);
    fe_to_words(r, x);
}

_Static_assert(sizeof(point) == EMRTD_P521_POINT_LIMBS * sizeof(emrtd_limb), "27 limbs per point");

void emrtd_p521_point_lift(emrtd_limb q[27], const emrtd_limb xy[18], int negate, int montgomery) {
    point *p = (point *)q;
    fe x, y;
    fe_load(x, xy, montgomery);
    fe_load(y, xy + 9, montgomery);
    fe_negate_if(y, y, (u64)(negate & 1));
    point_lift(p, x, y);
}

void emrtd_p521_point_double(emrtd_limb q[27], int count) {
    point *p = (point *)q;
    for (int i = 0; i < count; i++) point_double(p, p);
}

void emrtd_p521_point_add_affine(emrtd_limb q[27], const emrtd_limb xy[18], int negate, emrtd_limb masks[2],
                                 int montgomery) {
    fe x, y;
    fe_load(x, xy, montgomery);
    fe_load(y, xy + 9, montgomery);
    fe_negate_if(y, y, (u64)(negate & 1));
    u64 m[2];
    point_add_affine((point *)q, (const point *)q, x, y, m);
    masks[0] = m[0];
    masks[1] = m[1];
}

int emrtd_p521_point_is_infinity(const emrtd_limb q[27]) { return (int)fe_is_zero(((const point *)q)->z); }

/// The affine form of q (0 for infinity, the only outcome it branches on besides those of the inversion).
static int point_to_affine(emrtd_limb out[18], const point *q, int montgomery, int secret) {
    if (fe_is_zero(q->z)) return 0;
    point_store_affine(out, q, montgomery, secret);
    return 1;
}

int emrtd_p521_point_to_affine(emrtd_limb out[18], const emrtd_limb q[27], int montgomery) {
    return point_to_affine(out, (const point *)q, montgomery, 0);
}

int emrtd_p521_point_has_x(const emrtd_limb q[27], const emrtd_limb x[9], int montgomery) {
    const point *p = (const point *)q;
    fe c, z2;
    fe_load(c, x, montgomery);
    fe_sqr(z2, p->z);
    fe_mul(c, c, z2);
    fe_sub(c, c, p->x);
    return (int)(fe_is_zero(c) & (fe_is_zero(p->z) ^ 1));
}

void emrtd_p521_odd_multiples(emrtd_limb *out, const emrtd_limb point_xy[18], int count, emrtd_limb *scratch,
                              int montgomery) {
    point *jacobian = (point *)scratch;
    fe *prefix = (fe *)(scratch + (long)count * EMRTD_P521_POINT_LIMBS);
    fe x, y;
    fe_load(x, point_xy, montgomery);
    fe_load(y, point_xy + 9, montgomery);
    odd_multiples_coz(jacobian, count, x, y);
    memcpy(prefix[0], jacobian[0].z, sizeof(fe));
    for (int i = 1; i < count; i++) fe_mul(prefix[i], prefix[i - 1], jacobian[i].z);
    fe inverse, zi, zi2, t;
    if (!fe_inv_vartime(inverse, prefix[count - 1])) fe_inv(inverse, prefix[count - 1]);
    for (int i = count - 1; i >= 0; i--) {
        if (i > 0) {
            fe_mul(zi, inverse, prefix[i - 1]);
            fe_mul(inverse, inverse, jacobian[i].z);
        } else {
            memcpy(zi, inverse, sizeof(fe));
        }
        fe_sqr(zi2, zi);
        fe_mul(t, jacobian[i].x, zi2);
        fe_store(out + (long)i * 18, t, montgomery);
        fe_mul(zi2, zi2, zi);
        fe_mul(t, jacobian[i].y, zi2);
        fe_store(out + (long)i * 18 + 9, t, montgomery);
    }
}

/// The Jacobian odd multiples `table` as affine (x, y) pairs of 18 internal limbs, for mixed additions
/// (madd-2007-bl, 7M + 4S, where add-2007-bl takes 11M + 5S: about a tenth of a secret multiplication).
/// One inversion serves all (prefix products of the Z's); it is the blinded one, since P itself may be
/// secret (PACE's mapped generator), so this stays regular: 3M per entry for the prefixes and the walk
/// back, 1S + 3M for each entry's coordinates.
static void table_to_affine(u64 (*out)[18], const point *table, int count, fe *prefix) {
    fe inverse, zi, zi2;
    memcpy(prefix[0], table[0].z, sizeof(fe));
    for (int i = 1; i < count; i++) fe_mul(prefix[i], prefix[i - 1], table[i].z);
    fe_inv_blinded(inverse, prefix[count - 1]);
    for (int i = count - 1; i >= 0; i--) {
        if (i > 0) {
            fe_mul(zi, inverse, prefix[i - 1]);
            fe_mul(inverse, inverse, table[i].z);
        } else {
            memcpy(zi, inverse, sizeof(fe));
        }
        fe_sqr(zi2, zi);
        fe_mul(out[i], table[i].x, zi2);
        fe_mul(zi2, zi2, zi);
        fe_mul(out[i] + NLIMBS, table[i].y, zi2);
    }
    explicit_bzero(inverse, sizeof(inverse));
    explicit_bzero(zi, sizeof(zi));
    explicit_bzero(zi2, sizeof(zi2));
}

int emrtd_p521_multiply_secret(emrtd_limb out[18], const emrtd_limb point_xy[18], const long *digits, int windows,
                               int width, int negated, int montgomery) {
    enum { maxEntries = 1 << (EMRTD_P521_MAX_WIDTH - 1) };
    int entries = 1 << (width - 1);
    point table[maxEntries], q, lifted;
    fe prefix[maxEntries];
    u64 affine[maxEntries][18], entry[18];
    u64 sign;
    fe x, y;
    fe_load(x, point_xy, montgomery);
    fe_load(y, point_xy + 9, montgomery);
    odd_multiples_coz(table, entries, x, y);
    table_to_affine(affine, table, entries, prefix);
    u64 index = digit_index(digits[windows - 1], &sign);
    select_entry(entry, (const u64 *)affine, entries, 18, index);
    point_lift(&q, entry, entry + NLIMBS);
    for (int w = windows - 2; w >= 0; w--) {
        for (int i = 0; i < width; i++) point_double(&q, &q);
        index = digit_index(digits[w], &sign);
        select_entry(entry, (const u64 *)affine, entries, 18, index);
        fe_negate_if(entry + NLIMBS, entry + NLIMBS, sign);
        if (w == 0) {
            point_lift(&lifted, entry, entry + NLIMBS);
            point_add_complete(&q, &q, &lifted);
        } else {
            point_add_affine(&q, &q, entry, entry + NLIMBS, NULL);
        }
    }
    fe_negate_if(q.y, q.y, (u64)(negated & 1));
    int finite = point_to_affine(out, &q, montgomery, 1);
    explicit_bzero(table, sizeof(table));
    explicit_bzero(prefix, sizeof(prefix));
    explicit_bzero(affine, sizeof(affine));
    explicit_bzero(&q, sizeof(q));
    explicit_bzero(&lifted, sizeof(lifted));
    explicit_bzero(entry, sizeof(entry));
    return finite;
}

int emrtd_p521_multiply_fixed(emrtd_limb out[18], const emrtd_limb *table, const long *digits, int windows,
                              int width, int order_bits, int negated, int montgomery) {
    int entries = 1 << (width - 1);
    point q, lifted;
    u64 sign;
    emrtd_limb chosen[18];
    fe x, y;
    for (int w = 0; w < windows; w++) {
        u64 index = digit_index(digits[w], &sign);
        select_entry(chosen, table + (long)w * entries * 18, entries, 18, index);
        fe_load(x, chosen, montgomery);
        fe_load(y, chosen + 9, montgomery);
        fe_negate_if(y, y, sign);
        if (w == 0) {
            point_lift(&q, x, y);
        } else if (width * (w + 1) >= order_bits - 1) {
            // Only the top windows can meet the exceptional cases (partial sums reach the order).
            point_lift(&lifted, x, y);
            point_add_complete(&q, &q, &lifted);
        } else {
            point_add_affine(&q, &q, x, y, NULL);
        }
    }
    fe_negate_if(q.y, q.y, (u64)(negated & 1));
    int finite = point_to_affine(out, &q, montgomery, 1);
    memset(&q, 0, sizeof(q));
    memset(chosen, 0, sizeof(chosen));
    return finite;
}
