// CPU feature checks shared by the kernels of this target (defined in FourLimbNIST.c), so one
// place reads CPUID and XCR0. Not part of the public headers: Swift chooses kernels through the
// kernels' own select functions.
#ifndef EMRTD_CPU_FEATURES_H
#define EMRTD_CPU_FEATURES_H

/// AVX-512 F and DQ, and the operating system saving the ZMM state.
int emrtd_cpu_has_avx512(void);
/// AVX-512 F, VL and IFMA (52-bit multiply-add), and the operating system saving the ZMM state.
int emrtd_cpu_has_avx512_ifma(void);

#endif
