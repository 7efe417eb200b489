// Exponentiation modulo a DH-sized odd modulus (up to 4096 bits) with AVX-512 IFMA (WideMontgomery.c),
// for the DH groups of the Arithmetic package: almost-Montgomery products on 52-bit digits, the values
// kept in that radix for a whole exponentiation. Where the CPU lacks IFMA (or a test deselects the
// kernel) the calls say so, and the Swift side runs its GMP path instead.
#ifndef EMRTD_WIDE_MONTGOMERY_H
#define EMRTD_WIDE_MONTGOMERY_H

typedef unsigned long emrtd_limb;

/// The largest modulus, in bits (DomainParameterLimits.maximumGroupModulusBits).
#define EMRTD_WIDE_MAX_BITS 4096
/// The widest exponent window emrtd_wide_power accepts (its table lives on the stack).
#define EMRTD_WIDE_MAX_WIDTH 6

typedef struct emrtd_wide_modulus emrtd_wide_modulus;

/// The number of 52-bit digits n for a modulus of `bits` bits: the smallest with R = 2^(52·n) ≥ 4·p,
/// which the almost-Montgomery bound needs.
int emrtd_wide_digit_count(int bits);
/// A modulus for emrtd_wide_power: p odd, `limbs` 64-bit limbs (least significant first, the top one
/// non-zero), and R² mod p for R = 2^(52·emrtd_wide_digit_count(bits of p)), `limbs` limbs. NULL when
/// the CPU lacks AVX-512 IFMA or p is too large. Free with emrtd_wide_modulus_free.
emrtd_wide_modulus *emrtd_wide_modulus_new(const emrtd_limb *p, const emrtd_limb *r_squared, int limbs);
void emrtd_wide_modulus_free(emrtd_wide_modulus *modulus);

/// r = base^exponent mod p (`limbs` limbs each, base < p), fully reduced, for 0 ≤ exponent < 2^bits
/// given as `exponent_limbs` limbs (≥ ⌈bits/64⌉, least significant first). A left-to-right fixed
/// window of `width` bits (1…EMRTD_WIDE_MAX_WIDTH); regular: the same operations and memory addresses
/// whatever the exponent's and the base's values (every table entry read with masks), for the public
/// `bits`. Returns 1, or 0 with r untouched when the kernel is deselected (emrtd_wide_select_kernel).
int emrtd_wide_power(const emrtd_wide_modulus *modulus, emrtd_limb *r, const emrtd_limb *base,
                     const emrtd_limb *exponent, int exponent_limbs, int bits, int width);

typedef struct emrtd_wide_table emrtd_wide_table;

/// A fixed-base table for base (< p, `limbs` limbs of the modulus): for each of ⌈exponent_bits/width⌉
/// windows the 2^width powers base^(d·2^(width·i)) in the kernel's form. NULL when the kernel is off or
/// the arguments are out of range (width 1…EMRTD_WIDE_MAX_WIDTH, exponent_bits 1…EMRTD_WIDE_MAX_BITS).
/// Free with emrtd_wide_table_free (which wipes it).
emrtd_wide_table *emrtd_wide_table_new(const emrtd_wide_modulus *modulus, const emrtd_limb *base, int exponent_bits,
                                       int width);
void emrtd_wide_table_free(emrtd_wide_table *table);
/// r = base^exponent mod p, fully reduced, for 0 ≤ exponent < 2^(windows·width) given as
/// `exponent_limbs` limbs (enough for windows·width bits): one product per window, every entry of each
/// window read with masks. Returns 1, or 0 with r untouched when the kernel is deselected.
int emrtd_wide_table_power(const emrtd_wide_modulus *modulus, const emrtd_wide_table *table, emrtd_limb *r,
                           const emrtd_limb *exponent, int exponent_limbs);

/// For tests of the carry handling inside each product: digits = the 8·vectors lanes (each below 2^64,
/// their value below 2^(52·8·vectors)) carried into 52-bit digits, as the kernel does after each
/// product. Returns 0 (digits untouched) when the kernel is off, else 1.
int emrtd_wide_normalize(emrtd_limb *digits, const emrtd_limb *lanes, int vectors);

/// Turns the IFMA kernel on (1, when the CPU has it) or off (0) for every later emrtd_wide_power, and
/// returns the previous choice. For tests, which run both paths: the choice is process-wide, and both
/// paths give the same results.
int emrtd_wide_select_kernel(int ifma);
/// 1 when emrtd_wide_power runs (the CPU has IFMA and the kernel is selected).
int emrtd_wide_kernel_is_ifma(void);

#endif
