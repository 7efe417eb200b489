// The CPU checks of every kernel in this target (CPUFeatures.h) and the random limbs of the blinded
// inversions (CFieldKernels.h): one place reads CPUID, XCR0 and the kernel's generator.

#include "CFieldKernels.h"
#include "CPUFeatures.h"

#include <string.h>
#include <sys/random.h>
#include <pthread.h>

#if defined(__x86_64__)
#include <cpuid.h>

/// CPUID leaf 7's EBX (structured extended features), 0 where the leaf is missing.
static unsigned int leaf7_ebx(void) {
    unsigned int eax, ebx, ecx, edx;
    return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) ? ebx : 0;
}

/// Whether the operating system saves every state component in `mask` (XCR0; OSXSAVE first).
static int os_saves(unsigned int mask) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || (ecx & (1u << 27)) == 0) return 0;
    unsigned int xcr0, xcr0High;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0High) : "c"(0));
    return (xcr0 & mask) == mask;
}

int emrtd_cpu_has_bmi2(void) { return (leaf7_ebx() >> 8) & 1; }

int emrtd_cpu_has_bmi2_adx(void) { return emrtd_cpu_has_bmi2() && ((leaf7_ebx() >> 19) & 1); }

/// AVX2 (leaf 7 EBX bit 5) with the SSE and AVX states saved (XCR0 bits 1 and 2).
int emrtd_cpu_has_avx2(void) { return os_saves(0x6) && ((leaf7_ebx() >> 5) & 1); }

/// AVX-512 F and DQ (bits 16, 17) with the opmask and ZMM states saved too (XCR0 bits 5 to 7).
int emrtd_cpu_has_avx512(void) {
    unsigned int ebx = leaf7_ebx();
    return emrtd_cpu_has_avx2() && os_saves(0xE6) && ((ebx >> 16) & 1) && ((ebx >> 17) & 1);
}

/// AVX512_IFMA (bit 21) and AVX512VL (bit 31) beside AVX-512 F and DQ.
int emrtd_cpu_has_avx512_ifma(void) {
    unsigned int ebx = leaf7_ebx();
    return emrtd_cpu_has_avx512() && ((ebx >> 21) & 1) && ((ebx >> 31) & 1);
}

#else

int emrtd_cpu_has_bmi2(void) { return 0; }
int emrtd_cpu_has_bmi2_adx(void) { return 0; }
int emrtd_cpu_has_avx2(void) { return 0; }
int emrtd_cpu_has_avx512(void) { return 0; }
int emrtd_cpu_has_avx512_ifma(void) { return 0; }

#endif

/// The blinding factors come from a per-thread pool of kPoolLimbs limbs filled by one getrandom call:
/// a syscall per inversion was about 0.25 µs of a 7.6 µs P-256 fixed-base multiplication. Every limb
/// handed out is wiped from the pool at once (explicit_bzero), so the pool never holds a factor that
/// was already used. A child of fork() inherits its parent's pool, and both would draw the same
/// factors: a pthread_atfork handler in the child bumps a generation counter, and a pool filled under
/// another generation is wiped before it serves (getpid per call would be a syscall again: glibc no
/// longer caches the pid; the handler cannot reach the pools itself, they are thread-local).
enum { kPoolLimbs = 64 };

typedef struct {
    emrtd_limb limbs[kPoolLimbs];
    int available;  // the unused limbs are limbs[kPoolLimbs - available ..< kPoolLimbs]
    unsigned long generation;
} RandomPool;

static unsigned long fork_generation = 0;

static void forked_child(void) { __atomic_add_fetch(&fork_generation, 1, __ATOMIC_RELAXED); }

__attribute__((constructor)) static void register_fork_handler(void) { pthread_atfork(NULL, NULL, forked_child); }

static _Thread_local RandomPool pool;

static int refill(void) {
    if (getrandom(pool.limbs, sizeof pool.limbs, 0) != (ssize_t)sizeof pool.limbs) {
        explicit_bzero(pool.limbs, sizeof pool.limbs);
        pool.available = 0;
        return 0;
    }
    pool.available = kPoolLimbs;
    pool.generation = __atomic_load_n(&fork_generation, __ATOMIC_RELAXED);
    return 1;
}

int emrtd_random_limbs(emrtd_limb *out, int count) {
    if (count < 0) return 0;
    if (count > kPoolLimbs) {
        size_t length = (size_t)count * sizeof(emrtd_limb);
        return getrandom(out, length, 0) == (ssize_t)length;
    }
    if (pool.available > 0 && pool.generation != __atomic_load_n(&fork_generation, __ATOMIC_RELAXED)) {
        explicit_bzero(pool.limbs, sizeof pool.limbs);
        pool.available = 0;
    }
    if (pool.available < count && !refill()) return 0;
    emrtd_limb *taken = pool.limbs + (kPoolLimbs - pool.available);
    memcpy(out, taken, (size_t)count * sizeof(emrtd_limb));
    explicit_bzero(taken, (size_t)count * sizeof(emrtd_limb));
    pool.available -= count;
    return 1;
}
