// What the kernels of this target ask of the platform, answered in one place (Platform.c): the CPU's
// instruction sets (CPUID, and XCR0 for the vector state the operating system saves) and fresh
// random limbs. Not part of the public headers: Swift chooses kernels through the kernels' own
// select functions.
#ifndef EMRTD_CPU_FEATURES_H
#define EMRTD_CPU_FEATURES_H

/// BMI2 (MULX), which the P-521 product kernels need.
int emrtd_cpu_has_bmi2(void);
/// BMI2 and ADX (MULX, ADCX, ADOX), which the P-256/P-224 product kernels need.
int emrtd_cpu_has_bmi2_adx(void);
/// AVX2, and the operating system saving the YMM state.
int emrtd_cpu_has_avx2(void);
/// AVX-512 F and DQ, and the operating system saving the ZMM state.
int emrtd_cpu_has_avx512(void);
/// AVX-512 F, VL and IFMA (52-bit multiply-add), and the operating system saving the ZMM state.
int emrtd_cpu_has_avx512_ifma(void);

#endif
