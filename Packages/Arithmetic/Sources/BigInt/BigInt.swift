import CGMP

/// An arbitrary-precision integer owned by GMP (`mpz_t`), with value semantics: copies share storage
/// until one of them is mutated (copy on write), and the storage wipes its limbs before freeing them,
/// because these numbers are often private keys.
public struct BigInt: Sendable {
    /// The `mpz_t` behind a `BigInt`, at a stable address.
    final class Storage: @unchecked Sendable {
        let value: UnsafeMutablePointer<__mpz_struct>

        init() {
            value = .allocate(capacity: 1)
            __gmpz_init(value)
        }

        deinit {
            let allocated = Int(value.pointee._mp_alloc)
            if allocated > 0, let limbs = value.pointee._mp_d {
                limbs.update(repeating: 0, count: allocated)
            }
            __gmpz_clear(value)
            value.deallocate()
        }
    }

    var storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// Read access to the `mpz_t`.
    func withMPZ<R>(_ body: (UnsafePointer<__mpz_struct>) throws -> R) rethrows -> R {
        try body(storage.value)
    }

    /// A new integer computed by `body` into a fresh `mpz_t`.
    static func computing(_ body: (UnsafeMutablePointer<__mpz_struct>) throws -> Void) rethrows -> BigInt {
        let storage = Storage()
        try body(storage.value)
        return BigInt(storage: storage)
    }

    public init() { storage = Storage() }

    public init(_ value: Int) {
        storage = Storage()
        __gmpz_set_si(storage.value, value)
    }

    /// The unsigned big-endian integer in `bytes` (leading zeros allowed).
    public init(bytes: some Collection<UInt8>) {
        storage = Storage()
        let array = Array(bytes)
        array.withUnsafeBytes { raw in
            if let base = raw.baseAddress, !raw.isEmpty {
                __gmpz_import(storage.value, raw.count, 1, 1, 1, 0, base)
            }
        }
    }

    /// The integer written in hexadecimal (optional `0x` prefix, optional leading `-`; spaces ignored).
    public init?(hex: String) {
        var text = hex.filter { !$0.isWhitespace }
        var negative = false
        if text.hasPrefix("-") {
            negative = true
            text.removeFirst()
        }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { text.removeFirst(2) }
        guard !text.isEmpty, text.allSatisfy(\.isHexDigit) else { return nil }
        storage = Storage()
        guard __gmpz_set_str(storage.value, text, 16) == 0 else { return nil }
        if negative { __gmpz_neg(storage.value, storage.value) }
    }

    /// The magnitude as big-endian bytes, exactly `length` long (left-padded with zeros).
    /// - Throws: `valueTooLarge` if the magnitude needs more than `length` bytes.
    public func bytes(length: Int) throws -> [UInt8] {
        let needed = byteCount
        guard needed <= length else {
            throw ArithmeticError(.valueTooLarge, "a \(needed)-byte integer does not fit \(length) bytes")
        }
        var output = [UInt8](repeating: 0, count: length)
        output.withUnsafeMutableBytes { raw in
            if needed > 0, let base = raw.baseAddress {
                var written = 0
                __gmpz_export(base + (length - needed), &written, 1, 1, 1, 0, storage.value)
            }
        }
        return output
    }

    /// The magnitude as the shortest big-endian bytes (empty for zero).
    public var minimalBytes: [UInt8] {
        // `byteCount` always fits, so this cannot throw.
        (try? bytes(length: byteCount)) ?? []
    }

    /// Uppercase hexadecimal without leading zeros ("0" for zero), with a `-` when negative.
    public var hex: String {
        withMPZ { z in
            let size = __gmpz_sizeinbase(z, 16) + 2
            var buffer = [CChar](repeating: 0, count: size)
            __gmpz_get_str(&buffer, -16, z)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Number of bits of the magnitude (0 for zero).
    public var bitWidth: Int { isZero ? 0 : Int(__gmpz_sizeinbase(storage.value, 2)) }

    /// Number of bytes of the magnitude (0 for zero).
    public var byteCount: Int { (bitWidth + 7) / 8 }

    public var isZero: Bool { signum == 0 }
    public var isOdd: Bool { cgmp_mpz_odd_p(storage.value) != 0 }
    /// -1, 0 or 1.
    public var signum: Int { Int(cgmp_mpz_sgn(storage.value)) }

    /// Bit `index` of the magnitude (two's complement for negatives, as GMP defines it).
    public func bit(_ index: Int) -> Bool { __gmpz_tstbit(storage.value, mp_bitcnt_t(index)) != 0 }

    /// The value as `Int`, or nil when it does not fit.
    public var intValue: Int? {
        __gmpz_fits_slong_p(storage.value) != 0 ? __gmpz_get_si(storage.value) : nil
    }
}

extension BigInt: Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }

    public static func == (lhs: BigInt, rhs: BigInt) -> Bool {
        __gmpz_cmp(lhs.storage.value, rhs.storage.value) == 0
    }

    public static func < (lhs: BigInt, rhs: BigInt) -> Bool {
        __gmpz_cmp(lhs.storage.value, rhs.storage.value) < 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(signum)
        hasher.combine(minimalBytes)
    }

    public var description: String { hex }
}
