// Modular exponentiation for DH-sized moduli with AVX-512 IFMA: see include/WideMontgomery.h. Written
// for this project after Gueron and Krasnov's description of almost-Montgomery multiplication on
// 52-bit digits (vpmadd52luq / vpmadd52huq); the bound argument is below.
//
// Representation. A value is n digits of 52 bits (n = emrtd_wide_digit_count), least significant
// first, in K = ⌈n/8⌉ vectors of eight 64-bit lanes; lanes past n are zero. R = 2^(52·n) ≥ 4p.
//
// Almost-Montgomery product (amm): for a, b < 2p with digits < 2^52, returns t ≡ a·b/R (mod p) with
// t < 2p and digits < 2^52. Word-by-word Montgomery: for each digit b_i, x += a·b_i, then
// y = x_0·(-1/p) mod 2^52 and x += y·p (now x_0 ≡ 0 mod 2^52), then x /= 2^52. The digit steps sum to
// t = (a·b + Y·p)/R with Y = Σ y_i·2^(52·i) < R, so t < (4p² + R·p)/R = p·(4p/R + 1) ≤ 2p: no final
// subtraction is needed while values stay below 2p, only one at the very end (emrtd_wide_power
// leaves Montgomery form with amm(x, 1) < (2p + R·p)/R < p + 1, then subtracts p when the result is
// p, i.e. for a zero value, with a mask).
//
// Lanes hold unnormalised digits during a product: each of the n steps adds to a lane at most four
// 52-bit halves (a_j·b_i low, y·p_j low, and the high halves of the products of the digit below) and
// lane 0 the carry x_0 >> 52 (< 2^12; lane 0 is followed in scalar registers, see amm); a lane lives
// at most n ≤ 80 steps, so it stays below 80·4·2^52 + 80·2^12 < 2^61: no 64-bit lane overflows. At
// the end the carries are handled in the vectors (normalize) and the digits are below 2^52 again (the
// IFMA instructions read only the low 52 bits of their inputs); t < 2p < R, so no carry leaves the top
// digit. Tables and accumulators hold amm results (< 2p) or entries from amm(·, R²) of values < p.
//
// Constant time: the loops run on public counts (n, K, width, bits), the exponent's digits only feed
// compares whose results choose table entries (every entry loaded whole), the product's carry test
// and the final subtraction are arithmetic. Checked on the release object (clang 21, -O2):
// `objdump -d --no-show-raw-insn .build/release/CFieldKernels.build/WideMontgomery.c.o` shows, in
// windowed_power_3, windowed_power_5 and table_power_5, conditional jumps on loop counters and
// public bit positions only; the
// product's loop has none but its own (the carry is cmp/sbb), the table read is cmp/cmove into a
// mask register, vpternlogq k{z} into an all-ones/zero vector, then vpternlogq with every entry's
// memory operand (no masked loads).

#include "WideMontgomery.h"
#include "CPUFeatures.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef uint64_t u64;

#define DIGIT_BITS 52
#define DIGIT_MASK ((1ull << DIGIT_BITS) - 1)
#define MAX_LIMBS (EMRTD_WIDE_MAX_BITS / 64)
#define MAX_DIGITS ((EMRTD_WIDE_MAX_BITS + 2 + DIGIT_BITS - 1) / DIGIT_BITS)
#define MAX_VECTORS ((MAX_DIGITS + 7) / 8)

int emrtd_wide_digit_count(int bits) { return (bits + 2 + DIGIT_BITS - 1) / DIGIT_BITS; }

/// Digits of 52 bits from `limbs` 64-bit limbs (the digits past the value zero).
static void to_digits(u64 *digits, int digit_count, const u64 *limbs, int limb_count) {
    for (int i = 0; i < digit_count; i++) {
        int bit = i * DIGIT_BITS, limb = bit / 64, shift = bit % 64;
        u64 value = limb < limb_count ? limbs[limb] >> shift : 0;
        if (shift > 64 - DIGIT_BITS && limb + 1 < limb_count) value |= limbs[limb + 1] << (64 - shift);
        digits[i] = value & DIGIT_MASK;
    }
}

/// `limb_count` 64-bit limbs from normalised digits (value < 2^(64·limb_count)).
static void from_digits(u64 *limbs, int limb_count, const u64 *digits, int digit_count) {
    memset(limbs, 0, (size_t)limb_count * sizeof(u64));
    for (int i = 0; i < digit_count; i++) {
        int bit = i * DIGIT_BITS, limb = bit / 64, shift = bit % 64;
        if (limb < limb_count) limbs[limb] |= digits[i] << shift;
        if (shift > 64 - DIGIT_BITS && limb + 1 < limb_count) limbs[limb + 1] |= digits[i] >> (64 - shift);
    }
}

struct emrtd_wide_modulus {
    /// p in digits, then R² mod p in digits: MAX_VECTORS·8 lanes each, the unused ones zero.
    u64 p[MAX_VECTORS * 8] __attribute__((aligned(64)));
    u64 r_squared[MAX_VECTORS * 8] __attribute__((aligned(64)));
    u64 p_limbs[MAX_LIMBS];
    int limbs, digits, vectors;
    /// -1/p mod 2^52.
    u64 k0;
};

static int use_ifma = 0;

__attribute__((constructor)) static void choose_wide_kernel(void) { use_ifma = emrtd_cpu_has_avx512_ifma(); }

int emrtd_wide_select_kernel(int ifma) {
    return __atomic_exchange_n(&use_ifma, ifma && emrtd_cpu_has_avx512_ifma(), __ATOMIC_RELAXED);
}

int emrtd_wide_kernel_is_ifma(void) { return __atomic_load_n(&use_ifma, __ATOMIC_RELAXED); }

emrtd_wide_modulus *emrtd_wide_modulus_new(const emrtd_limb *p, const emrtd_limb *r_squared, int limbs) {
    if (!emrtd_cpu_has_avx512_ifma() || limbs < 1 || limbs > MAX_LIMBS || (p[0] & 1) == 0 || p[limbs - 1] == 0)
        return NULL;
    emrtd_wide_modulus *m = aligned_alloc(64, sizeof(emrtd_wide_modulus));
    if (!m) return NULL;
    memset(m, 0, sizeof *m);
    int bits = 64 * limbs - __builtin_clzl(p[limbs - 1]);
    m->limbs = limbs;
    m->digits = emrtd_wide_digit_count(bits);
    m->vectors = (m->digits + 7) / 8;
    if (m->digits < 3) {  // amm reads digits 0 to 2
        free(m);
        return NULL;
    }
    memcpy(m->p_limbs, p, (size_t)limbs * sizeof(u64));
    to_digits(m->p, m->digits, p, limbs);
    to_digits(m->r_squared, m->digits, r_squared, limbs);
    // Newton's iteration for p^-1 mod 2^64 (each step doubles the correct bits), then -p^-1 mod 2^52.
    u64 inverse = p[0];
    for (int i = 0; i < 6; i++) inverse *= 2 - p[0] * inverse;
    m->k0 = (0 - inverse) & DIGIT_MASK;
    return m;
}

void emrtd_wide_modulus_free(emrtd_wide_modulus *modulus) { free(modulus); }

#if defined(__x86_64__)

#define IFMA __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma")))

/// r = x with digits below 2^52 (lane 0 replaced by x0), for lanes below 2^64 and a value below
/// 2^(52·8K). In amm, lanes from n on stay zero (the inputs' digits there are zero and the shift
/// brings in zeros), and t < R leaves no carry past them.
IFMA_INLINE void normalize(__m512i *r, __m512i *x, u64 x0, int K) {
    const __m512i zero = _mm512_setzero_si512();
    x[0] = _mm512_mask_mov_epi64(x[0], 1, _mm512_set1_epi64((long long)x0));
    // First every lane's high part (< 2^12, lanes are below 2^64) moves one lane up: lanes are then at
    // most 2^52 - 1 + 2^12 < 2^53, so each passes on a carry of 0 or 1.
    const __m512i mask = _mm512_set1_epi64((long long)DIGIT_MASK);
    __m512i high[MAX_VECTORS];
    for (int j = 0; j < K; j++) {
        high[j] = _mm512_srli_epi64(x[j], DIGIT_BITS);
        x[j] = _mm512_and_si512(x[j], mask);
    }
    x[0] = _mm512_add_epi64(x[0], _mm512_alignr_epi64(high[0], zero, 7));
    for (int j = 1; j < K; j++) x[j] = _mm512_add_epi64(x[j], _mm512_alignr_epi64(high[j], high[j - 1], 7));
    // Then the 0/1 carries ripple as in a binary addition, one bit per lane: a lane generates a carry
    // when ≥ 2^52 and propagates one when exactly 2^52 - 1 (never both), so the lanes that receive one
    // are ((generate << 1) + propagate) ^ propagate. Bit masks, no branch.
    unsigned __int128 generate = 0, propagate = 0;
    for (int j = 0; j < K; j++) {
        generate |= (unsigned __int128)_mm512_cmpgt_epu64_mask(x[j], mask) << (8 * j);
        propagate |= (unsigned __int128)_mm512_cmpeq_epu64_mask(x[j], mask) << (8 * j);
    }
    const unsigned __int128 receive = ((generate << 1) + propagate) ^ propagate;
    const __m512i ones = _mm512_set1_epi64(1);
    for (int j = 0; j < K; j++) {
        const __mmask8 lanes = (__mmask8)(receive >> (8 * j));
        r[j] = _mm512_and_si512(_mm512_mask_add_epi64(x[j], lanes, x[j], ones), mask);
    }
}

/// r = amm(a, b) (see the top of the file), K vectors of n digits; r may alias a or b. `K` is a
/// constant where this is inlined, so the accumulator lives in registers.
IFMA_INLINE void amm(__m512i *r, const __m512i *a, const __m512i *b, const __m512i *p, u64 k0, int n, int K) {
    __m512i x[MAX_VECTORS];
    for (int j = 0; j < K; j++) x[j] = _mm512_setzero_si512();
    const u64 *b_digits = (const u64 *)b;
    const u64 a0 = ((const u64 *)a)[0], a1 = ((const u64 *)a)[1], a2 = ((const u64 *)a)[2];
    const u64 p0 = ((const u64 *)p)[0], p1 = ((const u64 *)p)[1], p2 = ((const u64 *)p)[2];
    const __m512i zero = _mm512_setzero_si512();
    // a and p moved up one digit (the extra top lane in a 128-bit part): the high halves of
    // a_j·b_i and p_j·y, which belong one digit up, are added before the shift, off the chain that
    // runs through y, and the top one (digit n when n = 8K) is not lost.
    __m512i a_up[MAX_VECTORS], p_up[MAX_VECTORS];
    a_up[0] = _mm512_alignr_epi64(a[0], zero, 7);
    p_up[0] = _mm512_alignr_epi64(p[0], zero, 7);
    for (int j = 1; j < K; j++) {
        a_up[j] = _mm512_alignr_epi64(a[j], a[j - 1], 7);
        p_up[j] = _mm512_alignr_epi64(p[j], p[j - 1], 7);
    }
    const __m128i a_top = _mm512_castsi512_si128(_mm512_alignr_epi64(zero, a[K - 1], 7));
    const __m128i p_top = _mm512_castsi512_si128(_mm512_alignr_epi64(zero, p[K - 1], 7));
    // Lane 0 lives in scalar registers, exact; the vectors' lane 0 is left stale (it misses the
    // carries), their other lanes are exact. Lane 1 is followed in scalar too (x1), from the vectors'
    // lane 2 as it was before a step's additions, so the vector work (and that extraction) of a step
    // has two steps' time before the scalar side needs it. Lane 0 at the start of step i is kept as
    // s + h + l, h = ⌊p0·y/2^52⌋ and l = p1·y mod 2^52 for the previous y: then
    // y_i = (s + a0·b_i mod 2^52 + h + l)·k0 mod 2^52 = ((s + a0·b_i mod 2^52)·k0 + h·k0 + y·(p1·k0))
    // mod 2^52, and the chain from one y to the next is one product for h (p0 moved up 12 bits, so
    // that h is the high word), one by k0 and two additions; the exact lane 0 (for the carry) is summed
    // beside it.
    const u64 p0_up = p0 << 12, p1_up = p1 << 12, p1_k0 = p1 * k0;
    u64 s = 0, h = 0, l = 0, previous_y = 0, x1 = 0;
    for (int i = 0; i < n; i++) {
        const u64 bi = b_digits[i];
        const __m512i bv = _mm512_set1_epi64((long long)bi);
        const u64 lane2 = (u64)_mm_cvtsi128_si64(_mm512_extracti32x4_epi32(x[0], 1));
        const unsigned __int128 ab0 = (unsigned __int128)a0 * bi, ab1 = (unsigned __int128)a1 * bi;
        const u64 partial = s + ((u64)ab0 & DIGIT_MASK);
        const u64 y = (partial * k0 + h * k0 + previous_y * p1_k0) & DIGIT_MASK;
        const __m512i yv = _mm512_set1_epi64((long long)y);
        // t = lane 0 after x += a·b_i. t + (p0·y mod 2^52) is a multiple of 2^52, so p0·y mod 2^52 =
        // 2^52 - (t mod 2^52) unless t's low digit is 0 (then it is 0): the carry into the next lane 0
        // follows from t alone.
        const u64 t = partial + h + l;
        const u64 carry = (t >> DIGIT_BITS) + ((t & DIGIT_MASK) != 0);
        // Lanes 1 and 2 after this step's additions (low halves of digit j's products, high halves of
        // digit j - 1's) become lanes 0 and 1; lane 0's terms in y stay apart as h and l.
        s = x1 + ((u64)ab1 & DIGIT_MASK) + (u64)(ab0 >> DIGIT_BITS) + carry;
        h = (u64)(((unsigned __int128)p0_up * y) >> 64);
        l = (p1 * y) & DIGIT_MASK;
        x1 = lane2 + ((a2 * bi) & DIGIT_MASK) + (u64)(ab1 >> DIGIT_BITS) + ((p2 * y) & DIGIT_MASK) +
             (u64)(((unsigned __int128)p1_up * y) >> 64);
        previous_y = y;
        // The products start from zero and are added to x at the end: x's own chain from step to step
        // is two additions and the shift, not four dependent multiply-adds.
        for (int j = 0; j < K; j++) {
            const __m512i ab = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, a[j], bv), a_up[j], bv);
            const __m512i py = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, p[j], yv), p_up[j], yv);
            x[j] = _mm512_add_epi64(x[j], _mm512_add_epi64(ab, py));
        }
        __m128i top = _mm_madd52hi_epu64(_mm_setzero_si128(), a_top, _mm512_castsi512_si128(bv));
        top = _mm_madd52hi_epu64(top, p_top, _mm512_castsi512_si128(yv));
        // x /= 2^52: every lane moves down one (lane 0 dropped, the top part comes in).
        for (int j = 0; j < K - 1; j++) x[j] = _mm512_alignr_epi64(x[j + 1], x[j], 1);
        x[K - 1] = _mm512_alignr_epi64(_mm512_zextsi128_si512(top), x[K - 1], 1);
    }
    normalize(r, x, s + h + l, K);
}

/// out = table[index] of `count` entries of K vectors: every entry loaded whole and ANDed with an
/// all-ones or all-zero vector. (A compare mask used directly would let the compiler fold the choice
/// into masked loads, which may skip the memory access of masked-off entries; the empty asm hides
/// where the vector comes from.)
IFMA_INLINE void select_entry(__m512i *out, const __m512i *table, int count, u64 index, int K) {
    const __m512i wanted = _mm512_set1_epi64((long long)index);
    for (int j = 0; j < K; j++) out[j] = _mm512_setzero_si512();
    for (int e = 0; e < count; e++) {
        __m512i choose = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(_mm512_set1_epi64(e), wanted),
                                                _mm512_set1_epi64(-1));
        __asm__("" : "+v"(choose));
        for (int j = 0; j < K; j++) out[j] = _mm512_or_si512(out[j], _mm512_and_si512(table[e * K + j], choose));
    }
}

/// The `width` exponent bits from bit `position` on (public position, secret value).
static inline u64 exponent_bits(const u64 *exponent, int limbs, int position, int width) {
    const int limb = position / 64, shift = position % 64;
    u64 value = limb < limbs ? exponent[limb] >> shift : 0;
    if (shift + width > 64 && limb + 1 < limbs) value |= exponent[limb + 1] << (64 - shift);
    return value & ((1ull << width) - 1);
}

/// The kernel's one (digit 0 = 1), to leave Montgomery form: amm(x, 1) = x/R.
IFMA_INLINE void set_one(__m512i *one, int K) {
    for (int j = 0; j < K; j++) one[j] = _mm512_setzero_si512();
    one[0] = _mm512_mask_mov_epi64(one[0], 1, _mm512_set1_epi64(1));
}

/// out = amm(in, R²) = in·R mod p (below 2p), for in < p given as 64-bit limbs.
IFMA_INLINE void enter(const emrtd_wide_modulus *m, __m512i *out, const u64 *in, int K) {
    u64 digits[MAX_VECTORS * 8] __attribute__((aligned(64)));
    memset(digits, 0, sizeof digits);
    to_digits(digits, m->digits, in, m->limbs);
    amm(out, (const __m512i *)digits, (const __m512i *)m->r_squared, (const __m512i *)m->p, m->k0, m->digits, K);
}

/// r = x/R mod p, fully reduced, as 64-bit limbs: amm(x, 1) < (2p + R·p)/R < p + 1, and equals p only
/// for a zero value, which the masked subtraction turns into 0.
IFMA_INLINE void leave(const emrtd_wide_modulus *m, u64 *r, const __m512i *x, int K) {
    __m512i one[MAX_VECTORS], value[MAX_VECTORS];
    set_one(one, K);
    amm(value, x, one, (const __m512i *)m->p, m->k0, m->digits, K);
    u64 digits[MAX_VECTORS * 8] __attribute__((aligned(64)));
    for (int j = 0; j < K; j++) _mm512_store_si512((__m512i *)digits + j, value[j]);
    u64 result[MAX_LIMBS], difference[MAX_LIMBS];
    from_digits(result, m->limbs, digits, m->digits);
    u64 borrow = 0;
    for (int i = 0; i < m->limbs; i++) {
        const unsigned __int128 d = (unsigned __int128)result[i] - m->p_limbs[i] - borrow;
        difference[i] = (u64)d;
        borrow = (u64)(d >> 64) & 1;
    }
    // borrow = 0: result ≥ p (so = p), keep the difference (zero).
    const u64 keep = 0 - (borrow ^ 1);
    for (int i = 0; i < m->limbs; i++) r[i] = (difference[i] & keep) | (result[i] & ~keep);
}

static void wipe(void *memory, size_t bytes) {
    volatile unsigned char *bytes_ = memory;
    for (size_t i = 0; i < bytes; i++) bytes_[i] = 0;
}

IFMA_INLINE void windowed_power(const emrtd_wide_modulus *m, u64 *r, const u64 *base, const u64 *exponent,
                                int exponent_limbs, int bits, int width, int K) {
    const int n = m->digits, entries = 1 << width;
    const int windows = bits > 0 ? (bits + width - 1) / width : 1;
    const __m512i *p = (const __m512i *)m->p;
    const u64 k0 = m->k0;
    __m512i table[(1 << EMRTD_WIDE_MAX_WIDTH) * MAX_VECTORS];
    __m512i accumulator[MAX_VECTORS], entry[MAX_VECTORS], one[MAX_VECTORS];
    set_one(one, K);
    // table[e] = base^e·R mod p (below 2p): table[0] = amm(R², 1) = R, table[1] = amm(base, R²).
    amm(table, (const __m512i *)m->r_squared, one, p, k0, n, K);
    enter(m, table + K, base, K);
    for (int e = 2; e < entries; e++) {
        if (e % 2 == 0) {
            amm(table + e * K, table + (e / 2) * K, table + (e / 2) * K, p, k0, n, K);
        } else {
            amm(table + e * K, table + (e - 1) * K, table + K, p, k0, n, K);
        }
    }
    select_entry(accumulator, table, entries, exponent_bits(exponent, exponent_limbs, (windows - 1) * width, width),
                 K);
    for (int window = windows - 2; window >= 0; window--) {
        for (int s = 0; s < width; s++) amm(accumulator, accumulator, accumulator, p, k0, n, K);
        select_entry(entry, table, entries, exponent_bits(exponent, exponent_limbs, window * width, width), K);
        amm(accumulator, accumulator, entry, p, k0, n, K);
    }
    leave(m, r, accumulator, K);
    // Wipe what derives from the exponent.
    wipe(accumulator, sizeof accumulator);
    wipe(entry, sizeof entry);
}

struct emrtd_wide_table {
    int windows, width, vectors;
    /// windows·2^width entries of `vectors` vectors: window i, digit d holds base^(d·2^(width·i))·R.
    __m512i entries[];
};

/// Fills t's entries: for each window, R, then products by the window's base (below 2p throughout);
/// the next window's base is the last entry times this window's base.
IFMA_INLINE void build_table(const emrtd_wide_modulus *m, emrtd_wide_table *t, const u64 *base, int K) {
    const int n = m->digits, entries = 1 << t->width;
    const __m512i *p = (const __m512i *)m->p;
    __m512i window_base[MAX_VECTORS], one[MAX_VECTORS];
    set_one(one, K);
    enter(m, window_base, base, K);
    for (int window = 0; window < t->windows; window++) {
        __m512i *row = t->entries + (size_t)window * entries * K;
        amm(row, (const __m512i *)m->r_squared, one, p, m->k0, n, K);
        for (int d = 1; d < entries; d++) amm(row + d * K, row + (d - 1) * K, window_base, p, m->k0, n, K);
        amm(window_base, row + (entries - 1) * K, window_base, p, m->k0, n, K);
    }
}

/// r = base^exponent: one table read (every entry of the window) and one product per window.
IFMA_INLINE void table_power(const emrtd_wide_modulus *m, const emrtd_wide_table *t, u64 *r, const u64 *exponent,
                             int exponent_limbs, int K) {
    const int entries = 1 << t->width;
    __m512i accumulator[MAX_VECTORS], entry[MAX_VECTORS];
    select_entry(accumulator, t->entries, entries, exponent_bits(exponent, exponent_limbs, 0, t->width), K);
    for (int window = 1; window < t->windows; window++) {
        const __m512i *row = t->entries + (size_t)window * entries * K;
        select_entry(entry, row, entries, exponent_bits(exponent, exponent_limbs, window * t->width, t->width), K);
        amm(accumulator, accumulator, entry, (const __m512i *)m->p, m->k0, m->digits, K);
    }
    leave(m, r, accumulator, K);
    wipe(accumulator, sizeof accumulator);
    wipe(entry, sizeof entry);
}

IFMA static void normalize_lanes(emrtd_limb *digits, const emrtd_limb *lanes, int vectors) {
    __m512i x[MAX_VECTORS], r[MAX_VECTORS];
    for (int j = 0; j < vectors; j++) x[j] = _mm512_loadu_si512((const __m512i *)lanes + j);
    normalize(r, x, lanes[0], vectors);
    for (int j = 0; j < vectors; j++) _mm512_storeu_si512((__m512i *)digits + j, r[j]);
}

int emrtd_wide_normalize(emrtd_limb *digits, const emrtd_limb *lanes, int vectors) {
    if (!emrtd_wide_kernel_is_ifma() || vectors < 1 || vectors > MAX_VECTORS) return 0;
    normalize_lanes(digits, lanes, vectors);
    return 1;
}

#define INSTANCE(k)                                                                                 \
    IFMA static void windowed_power_##k(const emrtd_wide_modulus *m, u64 *r, const u64 *base,         \
                                        const u64 *exponent, int limbs, int bits, int width) {      \
        windowed_power(m, r, base, exponent, limbs, bits, width, k);                                \
    }                                                                                               \
    IFMA static void build_table_##k(const emrtd_wide_modulus *m, emrtd_wide_table *t, const u64 *base) { \
        build_table(m, t, base, k);                                                                 \
    }                                                                                               \
    IFMA static void table_power_##k(const emrtd_wide_modulus *m, const emrtd_wide_table *t, u64 *r,    \
                                     const u64 *exponent, int limbs) {                              \
        table_power(m, t, r, exponent, limbs, k);                                                   \
    }
INSTANCE(1)
INSTANCE(2)
INSTANCE(3)
INSTANCE(4)
INSTANCE(5)
INSTANCE(6)
INSTANCE(7)
INSTANCE(8)
INSTANCE(9)
INSTANCE(10)

#define DISPATCH(vectors, function, ...)                                                           \
    switch (vectors) {                                                                              \
    case 1: function##_1(__VA_ARGS__); break;                                                       \
    case 2: function##_2(__VA_ARGS__); break;                                                       \
    case 3: function##_3(__VA_ARGS__); break;                                                       \
    case 4: function##_4(__VA_ARGS__); break;                                                       \
    case 5: function##_5(__VA_ARGS__); break;                                                       \
    case 6: function##_6(__VA_ARGS__); break;                                                       \
    case 7: function##_7(__VA_ARGS__); break;                                                       \
    case 8: function##_8(__VA_ARGS__); break;                                                       \
    case 9: function##_9(__VA_ARGS__); break;                                                       \
    default: function##_10(__VA_ARGS__); break;                                                     \
    }

int emrtd_wide_power(const emrtd_wide_modulus *modulus, emrtd_limb *r, const emrtd_limb *base,
                     const emrtd_limb *exponent, int exponent_limbs, int bits, int width) {
    if (!modulus || !emrtd_wide_kernel_is_ifma() || width < 1 || width > EMRTD_WIDE_MAX_WIDTH || bits < 0 ||
        exponent_limbs * 64 < bits)
        return 0;
    const u64 *e = (const u64 *)exponent;
    DISPATCH(modulus->vectors, windowed_power, modulus, r, base, e, exponent_limbs, bits, width);
    return 1;
}

emrtd_wide_table *emrtd_wide_table_new(const emrtd_wide_modulus *modulus, const emrtd_limb *base, int exponent_bits,
                                       int width) {
    if (!modulus || !emrtd_wide_kernel_is_ifma() || width < 1 || width > EMRTD_WIDE_MAX_WIDTH || exponent_bits < 1 ||
        exponent_bits > EMRTD_WIDE_MAX_BITS)
        return NULL;
    const int windows = (exponent_bits + width - 1) / width;
    const size_t vectors = (size_t)windows * ((size_t)1 << width) * (size_t)modulus->vectors;
    const size_t bytes = sizeof(emrtd_wide_table) + vectors * sizeof(__m512i);
    emrtd_wide_table *t = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!t) return NULL;
    t->windows = windows;
    t->width = width;
    t->vectors = modulus->vectors;
    DISPATCH(modulus->vectors, build_table, modulus, t, base);
    return t;
}

int emrtd_wide_table_power(const emrtd_wide_modulus *modulus, const emrtd_wide_table *table, emrtd_limb *r,
                           const emrtd_limb *exponent, int exponent_limbs) {
    if (!modulus || !table || !emrtd_wide_kernel_is_ifma() || table->vectors != modulus->vectors ||
        exponent_limbs * 64 < table->windows * table->width)
        return 0;
    DISPATCH(modulus->vectors, table_power, modulus, table, r, (const u64 *)exponent, exponent_limbs);
    return 1;
}

void emrtd_wide_table_free(emrtd_wide_table *table) {
    if (!table) return;
    wipe(table->entries, (size_t)table->windows * ((size_t)1 << table->width) * (size_t)table->vectors *
                             sizeof(__m512i));
    free(table);
}

#else

int emrtd_wide_normalize(emrtd_limb *digits, const emrtd_limb *lanes, int vectors) {
    (void)digits, (void)lanes, (void)vectors;
    return 0;
}

emrtd_wide_table *emrtd_wide_table_new(const emrtd_wide_modulus *modulus, const emrtd_limb *base, int exponent_bits,
                                       int width) {
    (void)modulus, (void)base, (void)exponent_bits, (void)width;
    return NULL;
}

int emrtd_wide_table_power(const emrtd_wide_modulus *modulus, const emrtd_wide_table *table, emrtd_limb *r,
                           const emrtd_limb *exponent, int exponent_limbs) {
    (void)modulus, (void)table, (void)r, (void)exponent, (void)exponent_limbs;
    return 0;
}

void emrtd_wide_table_free(emrtd_wide_table *table) { (void)table; }

int emrtd_wide_power(const emrtd_wide_modulus *modulus, emrtd_limb *r, const emrtd_limb *base,
                     const emrtd_limb *exponent, int exponent_limbs, int bits, int width) {
    (void)modulus, (void)r, (void)base, (void)exponent, (void)exponent_limbs, (void)bits, (void)width;
    return 0;
}

#endif
