import CFieldKernels
import OpenSSLReference
import Testing

@testable import Arithmetic

/// The DH exponentiations with each of the two paths: the AVX-512 IFMA kernel (`WideMontgomeryKernel`,
/// when this CPU has IFMA; otherwise both runs are the GMP path) and GMP (`WindowedPower`'s
/// `MontgomeryField` loop, `mpz_powm`), against OpenSSL's BN_mod_exp. Serialized, because the choice
/// is process-wide; other suites running meanwhile meet either path, which give the same results.
@Suite(.serialized) struct WideMontgomeryKernelTests {
    /// CPUID's choice stands unless a test changes it; a request for IFMA on a CPU without it keeps GMP.
    @Test func kernelChoice() throws {
        let cpuHasIFMA = WideMontgomeryKernel.select(ifma: true) || WideMontgomeryKernel.usesIFMA
        #expect(WideMontgomeryKernel.usesIFMA == cpuHasIFMA)
        let group = try #require(StandardDomainParameters.group(id: 2))
        #expect((WideMontgomeryKernel(modulus: group.p) != nil) == cpuHasIFMA)
        WideMontgomeryKernel.select(ifma: false)
        #expect(!WideMontgomeryKernel.usesIFMA)
        #expect(WideMontgomeryKernel(modulus: group.p)?.power(group.g, BigInt(5), bits: 3) == nil)
        WideMontgomeryKernel.select(ifma: true)
        #expect(WideMontgomeryKernel.usesIFMA == cpuHasIFMA)
        print("CFieldKernels: this CPU \(cpuHasIFMA ? "has" : "lacks") AVX-512 IFMA")
    }

    /// The window widths: 4 for the subgroup exponents, wider for long ones, 1 for one bit.
    @Test func windowWidths() {
        #expect(WideMontgomeryKernel.width(forBits: 1) == 1)
        #expect([160, 224, 256].map(WideMontgomeryKernel.width(forBits:)) == [4, 4, 4])
        #expect(WideMontgomeryKernel.width(forBits: 2048) == 6)
    }

    /// Standard groups: random bases and exponents below q, then the edges (exponents 1, 2, q - 1, q,
    /// p - 2, p - 1, all ones, digit boundaries 2^52 ± 1; bases 0, 1, 2, p - 1, p - 2, 2^(52·j) and
    /// 2^(52·j) - 1 at the first two and last two digit boundaries below p), public, secret and fixed
    /// base, with each path.
    @Test(arguments: standardGroupIDs, [true, false])
    func standardGroupsMatchOpenSSL(id: Int, ifma: Bool) throws {
        WideMontgomeryKernel.select(ifma: ifma)
        defer { WideMontgomeryKernel.select(ifma: true) }
        let group = try #require(StandardDomainParameters.group(id: id))
        let q = try #require(group.subgroupOrder)
        let p = group.p
        let one = BigInt(1)
        for _ in 0..<differentialCases(default: 8) {
            let base = BigInt(bytes: openSSLRandomBytes(group.length)).modulo(p)
            let exponent = try BigInt.random(below: q, using: openSSLRandomSource)
            let expected = try #require(openSSLModExp(base, exponent, p))
            #expect(group.power(base, exponent) == expected)
            #expect(try group.powerSecret(base, exponent) == expected)
        }
        let digitBoundaries = Array(stride(from: 52, to: p.bitWidth, by: 52))
        let boundaries = (digitBoundaries.prefix(2) + digitBoundaries.suffix(2)).flatMap {
            [one << $0, (one << $0) - one]
        }
        let bases = [BigInt(0), one, BigInt(2), p - one, p - BigInt(2), group.g] + boundaries
        let exponents = [
            one, BigInt(2), BigInt(3), q - one, q, p - BigInt(2), p - one, (one << q.bitWidth) - one,
            (one << 52) - one, one << 52, (one << 52) + one,
        ]
        for base in bases {
            for exponent in exponents {
                let expected = try #require(openSSLModExp(base, exponent, p))
                #expect(group.power(base, exponent) == expected, "\(base)^\(exponent)")
                #expect(try group.powerSecret(base, exponent) == expected, "\(base)^\(exponent), regular")
            }
            #expect(group.power(base, BigInt(0)) == one)
        }
        // The fixed-base tables (the kernel's, or GMP's when it is off).
        for exponent in exponents {
            let expected = try #require(openSSLModExp(group.g, exponent, p))
            #expect(try group.generatorPower(exponent) == expected, "g^\(exponent)")
        }
        // Results on p - 1 and 1: (p - 1)^odd and (p - 1)^even; g^q = 1.
        #expect(group.power(p - one, q) == p - one)
        #expect(try group.powerSecret(p - one, q - one) == one)
        #expect(try group.powerSecret(group.g, q) == one)
        #expect(group.power(group.g, q) == one)
    }

    /// The carries after each product, at their rare cases: lanes of exactly 2^52 - 1 that pass a
    /// carry on (runs of them), lanes just above 2^52 that make one, and large unnormalised lanes,
    /// against a plain carry loop, for 1 to 10 vectors.
    @Test func carriesMatchPlainLoop() throws {
        guard WideMontgomeryKernel.usesIFMA else {
            print("WideMontgomeryKernelTests: no AVX-512 IFMA, carry test skipped")
            return
        }
        let mask: UInt = (1 << 52) - 1
        for round in 0..<2000 {
            let vectors = 1 + round % 10
            let count = 8 * vectors
            var lanes = (0..<count).map { _ -> UInt in
                switch Int.random(in: 0..<6) {
                case 0: mask
                case 1: mask + 1
                case 2: mask - UInt.random(in: 0..<3)
                case 3: 0
                case 4: UInt.random(in: 0...mask)
                default: UInt.random(in: 0..<(1 << 61))
                }
            }
            // The value stays below 2^(52·count): the top lane small, the one below it a digit.
            lanes[count - 1] &= (1 << 40) - 1
            lanes[count - 2] &= mask
            var expected = [UInt](repeating: 0, count: count)
            var carry: UInt = 0
            for index in 0..<count {
                let value = lanes[index] &+ carry
                expected[index] = value & mask
                carry = value >> 52
            }
            var digits = [UInt](repeating: 0, count: count)
            #expect(emrtd_wide_normalize(&digits, lanes, Int32(vectors)) == 1)
            #expect(digits == expected, "\(lanes)")
        }
    }

    /// Moduli outside the standard groups (any odd p works for Montgomery products): 1536, 3072 and
    /// 4096 bits (the largest), the tightest almost-Montgomery bounds (1038 and 2078 bits: R = 2^1040
    /// and 2^2080 are just 4·2^bits; 2078 also fills its five vectors, n = 8K) and a 512-bit one;
    /// random and edge bases, exponents of 160 bits and as long as p; fixed-base tables.
    @Test(arguments: [512, 1038, 1536, 2078, 3072, 4096], [true, false])
    func otherModuliMatchOpenSSL(bits: Int, ifma: Bool) throws {
        WideMontgomeryKernel.select(ifma: ifma)
        defer { WideMontgomeryKernel.select(ifma: true) }
        let one = BigInt(1)
        let random = BigInt(bytes: openSSLRandomBytes(bits / 8 + 1)).modulo(one << (bits - 2))
        let p = random * BigInt(2) + (one << (bits - 1)) + one
        #expect(p.bitWidth == bits)
        let power = WindowedPower(field: MontgomeryField(modulus: p), kernel: WideMontgomeryKernel(modulus: p))
        if ifma && WideMontgomeryKernel.usesIFMA { #expect(power.kernel != nil) }
        var bases = [BigInt(0), one, p - one, p - BigInt(2), (one << (bits - 1)) - one]
        var exponents = [one, BigInt(2), p - one, (one << 160) - one]
        for _ in 0..<differentialCases(default: 3) {
            bases.append(BigInt(bytes: openSSLRandomBytes(bits / 8)).modulo(p))
            exponents.append(BigInt(bytes: openSSLRandomBytes(20)))
            exponents.append(BigInt(bytes: openSSLRandomBytes(bits / 8)))
        }
        // A fixed-base table for a base of each kind, over 160-bit exponents (windows of 6 and 5 bits).
        if let kernel = power.kernel, ifma {
            for (base, width) in [(bases[2], 6), (bases[bases.count - 1], 5)] {
                let table = try #require(kernel.fixedBaseTable(base: base, exponentBits: 160, width: width))
                for exponent in [BigInt(0), one, (one << 160) - one]
                    + exponents.suffix(2).map({ $0.modulo(one << 160) })
                {
                    #expect(table.power(exponent) == openSSLModExp(base, exponent, p), "\(base)^\(exponent), table")
                }
            }
        }
        for base in bases {
            for exponent in exponents where exponent.signum > 0 {
                let expected = try #require(openSSLModExp(base, exponent, p))
                let bits = max(160, exponent.bitWidth)
                #expect(power.power(base, exponent, bits: bits) == expected, "\(base)^\(exponent)")
                if let kernel = power.kernel, ifma {
                    #expect(kernel.power(base, exponent, bits: exponent.bitWidth) == expected)
                }
            }
        }
    }
}
