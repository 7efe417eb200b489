// The coder behind include/CPNGDeflate.h: Huffman codes, the runs stream and PNG framing.
#include "CPNGDeflate.h"

#include <libdeflate.h>
#include <string.h>

static inline void pngdeflate_put32(unsigned char *at, uint32_t value) {
    at[0] = (unsigned char)(value >> 24);
    at[1] = (unsigned char)(value >> 16);
    at[2] = (unsigned char)(value >> 8);
    at[3] = (unsigned char)value;
}

// Closes the chunk whose length field is at `chunk` and whose data of `length` bytes follows its
// type: writes the length and the CRC over type and data. Returns the chunk's whole size.
static inline size_t pngdeflate_close_chunk(unsigned char *chunk, size_t length) {
    pngdeflate_put32(chunk, (uint32_t)length);
    pngdeflate_put32(chunk + 8 + length, libdeflate_crc32(0, chunk + 4, length + 4));
    return length + 12;
}

// Length symbols 257…285 of deflate: the first length of each and its count of extra bits.
static const uint16_t pngdeflate_length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                                     31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t pngdeflate_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                     2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

// The order in which a dynamic block's header gives the code lengths of the code-length code.
static const uint8_t pngdeflate_code_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// Moffat and Katajainen's in-place minimum-redundancy code: `lengths` holds the n frequencies in
// ascending order and gets their optimal code lengths (unbounded; the caller limits them).
static inline void pngdeflate_minimum_redundancy(uint32_t *lengths, int n) {
    if (n == 0) return;
    if (n == 1) {
        lengths[0] = 1;
        return;
    }
    uint32_t *a = lengths;
    a[0] += a[1];
    int root = 0, leaf = 2;
    for (int next = 1; next < n - 1; next++) {
        if (leaf >= n || a[root] < a[leaf]) {
            a[next] = a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] = a[leaf++];
        }
        if (leaf >= n || (root < next && a[root] < a[leaf])) {
            a[next] += a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] += a[leaf++];
        }
    }
    a[n - 2] = 0;
    for (int next = n - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
    int available = 1, used = 0, depth = 0, next = n - 1;
    root = n - 2;
    while (available > 0) {
        while (root >= 0 && (int)a[root] == depth) {
            used++;
            root--;
        }
        while (available > used) {
            a[next--] = (uint32_t)depth;
            available--;
        }
        available = 2 * used;
        depth++;
        used = 0;
    }
}

// A canonical Huffman code of at most `limit` bits for the n ≤ 288 symbols of `frequencies` (0:
// unused, no code): `lengths` and `codes` (bit-reversed, as deflate writes them from the low bit).
// Codes longer than the limit are shortened and the Kraft sum restored by lengthening the longest
// codes below it, as miniz does; the rarest symbols get the longest codes.
static inline void pngdeflate_build_code(const uint32_t *frequencies, int n, int limit, uint8_t *lengths,
                                          uint16_t *codes) {
    uint32_t sorted[288];
    uint16_t symbols[288];
    int count = 0;
    for (int symbol = 0; symbol < n; symbol++) {
        lengths[symbol] = 0;
        if (frequencies[symbol] == 0) continue;
        int at = count++;
        while (at > 0 && sorted[at - 1] > frequencies[symbol]) {
            sorted[at] = sorted[at - 1];
            symbols[at] = symbols[at - 1];
            at--;
        }
        sorted[at] = frequencies[symbol];
        symbols[at] = (uint16_t)symbol;
    }
    pngdeflate_minimum_redundancy(sorted, count);
    int per_length[289] = {0};
    for (int index = 0; index < count; index++) per_length[sorted[index]]++;
    for (int length = limit + 1; length < 289; length++) {
        per_length[limit] += per_length[length];
        per_length[length] = 0;
    }
    uint32_t kraft = 0;
    for (int length = limit; length > 0; length--) kraft += (uint32_t)per_length[length] << (limit - length);
    while (kraft > (1u << limit)) {
        per_length[limit]--;
        for (int length = limit - 1; length > 0; length--) {
            if (per_length[length] != 0) {
                per_length[length]--;
                per_length[length + 1] += 2;
                break;
            }
        }
        kraft--;
    }
    int index = 0;
    for (int length = limit; length > 0; length--) {
        for (int left = per_length[length]; left > 0; left--) lengths[symbols[index++]] = (uint8_t)length;
    }
    uint16_t next_code[16] = {0};
    int with_length[16] = {0};
    for (int symbol = 0; symbol < n; symbol++) with_length[lengths[symbol]]++;
    with_length[0] = 0;
    uint16_t code = 0;
    for (int length = 1; length <= 15; length++) {
        code = (uint16_t)((code + with_length[length - 1]) << 1);
        next_code[length] = code;
    }
    for (int symbol = 0; symbol < n; symbol++) {
        int length = lengths[symbol];
        if (length == 0) continue;
        uint16_t value = next_code[length]++, reversed = 0;
        for (int bit = 0; bit < length; bit++) reversed = (uint16_t)((reversed << 1) | ((value >> bit) & 1));
        codes[symbol] = reversed;
    }
}

// Runs shorter than this are written as literals: a match costs a length code and a distance
// bit, more than a few of the short literal codes a smooth image gives its most common bytes.
#define PNGDEFLATE_MINIMUM_RUN 5

// The length of the run of `at[0]` starting at `at` (at most `left` bytes), or 0 when it is shorter
// than PNGDEFLATE_MINIMUM_RUN; compares eight bytes at a time.
static inline size_t pngdeflate_run(const unsigned char *at, size_t left) {
    if (left < 8) return 0;
    uint64_t word, pattern = (uint64_t)at[0] * 0x0101010101010101ull;
    memcpy(&word, at, 8);
    uint64_t difference = word ^ pattern;
    if ((difference & ((1ull << (PNGDEFLATE_MINIMUM_RUN * 8)) - 1)) != 0) return 0;
    if (difference != 0) return (size_t)(__builtin_ctzll(difference) >> 3);
    size_t run = 8;
    while (run + 8 <= left) {
        memcpy(&word, at + run, 8);
        difference = word ^ pattern;
        if (difference != 0) return run + (size_t)(__builtin_ctzll(difference) >> 3);
        run += 8;
    }
    while (run < left && at[run] == at[0]) run++;
    return run;
}

// Deflate's bits, low bit first: up to 57 bits are gathered, then whole bytes stored 8 at a time
// (so the buffer needs 8 bytes beyond the last one written).
typedef struct {
    unsigned char *out;
    uint64_t bits;
    unsigned count;
} pngdeflate_bits;

static inline void pngdeflate_put(pngdeflate_bits *writer, uint32_t value, unsigned length) {
    writer->bits |= (uint64_t)value << writer->count;
    writer->count += length;
}

static inline void pngdeflate_flush(pngdeflate_bits *writer) {
    memcpy(writer->out, &writer->bits, 8);
    writer->out += writer->count >> 3;
    writer->bits >>= writer->count & ~7u;
    writer->count &= 7;
}

// Whether none of the four positions from `at` starts a run of PNGDEFLATE_MINIMUM_RUN (5) equal
// bytes; reads 9 bytes. Byte j of `equal` is zero where at[j] == at[j + 1].
static inline int pngdeflate_no_run_in_four(const unsigned char *at) {
    const uint64_t high = 0x8080808080808080ull, low = 0x7F7F7F7F7F7F7F7Full;
    uint64_t word, next;
    memcpy(&word, at, 8);
    memcpy(&next, at + 1, 8);
    uint64_t equal = word ^ next;
    uint64_t zero = ~(((equal & low) + low) | equal) & high;
    return (zero & (zero >> 8) & (zero >> 16) & (zero >> 24) & 0x80808080ull) == 0;
}

// The symbols of `data` as `pngdeflate_write_runs` writes them: each byte a literal, except that
// a run of one byte is that literal followed by matches at distance 1 (258 bytes at most each).
// `literals4(at)` receives four literals from `at` that start no run, `literal(byte, count)` the
// others, `match(length)` the matches. Four bytes are checked at once: on a face, runs are rare.
#define PNGDEFLATE_FOR_EACH_SYMBOL(data, n, literals4, literal, match)     \
    for (size_t at = 0; at < (n);) {                                       \
        if (at + 9 <= (n) && pngdeflate_no_run_in_four((data) + at)) {    \
            literals4((data) + at);                                        \
            at += 4;                                                       \
            continue;                                                      \
        }                                                                  \
        unsigned char byte = (data)[at];                                   \
        size_t run = pngdeflate_run((data) + at, (n) - at);               \
        literal(byte, 1);                                                  \
        if (run == 0) {                                                    \
            at++;                                                          \
            continue;                                                      \
        }                                                                  \
        size_t left = run - 1;                                             \
        while (left >= 3) {                                                \
            size_t length = left < 258 ? left : 258;                       \
            match(length);                                                 \
            left -= length;                                                \
        }                                                                  \
        if (left > 0) literal(byte, left);                                 \
        at += run;                                                         \
    }

void pngdeflate_plan_runs(const unsigned char *data, size_t n, pngdeflate_runs_plan *plan) {
    for (int symbol = 0; symbol < 29; symbol++) {
        int end = symbol == 28 ? 259 : pngdeflate_length_base[symbol + 1];
        for (int length = pngdeflate_length_base[symbol]; length < end; length++) {
            plan->length_symbol[length] = (uint8_t)symbol;
            plan->length_extra[length] = pngdeflate_length_extra[symbol];
        }
    }
    // four tables for the four literals of a step: one table would wait on its own stores when a
    // byte repeats
    uint32_t frequencies[288] = {0}, more[3][256] = {{0}};
    uint64_t extra_bits = 0;
#define PNGDEFLATE_COUNT_LITERALS4(at) \
    do {                                \
        frequencies[(at)[0]]++;         \
        more[0][(at)[1]]++;             \
        more[1][(at)[2]]++;             \
        more[2][(at)[3]]++;             \
    } while (0)
#define PNGDEFLATE_COUNT_LITERAL(byte, count) frequencies[byte] += (uint32_t)(count)
#define PNGDEFLATE_COUNT_MATCH(length)                                   \
    do {                                                                  \
        frequencies[257 + plan->length_symbol[length]]++;                 \
        extra_bits += plan->length_extra[length] + 1u; /* + distance */   \
    } while (0)
    PNGDEFLATE_FOR_EACH_SYMBOL(data, n, PNGDEFLATE_COUNT_LITERALS4, PNGDEFLATE_COUNT_LITERAL,
                                PNGDEFLATE_COUNT_MATCH)
#undef PNGDEFLATE_COUNT_LITERALS4
#undef PNGDEFLATE_COUNT_LITERAL
#undef PNGDEFLATE_COUNT_MATCH
    for (int byte = 0; byte < 256; byte++) frequencies[byte] += more[0][byte] + more[1][byte] + more[2][byte];
    frequencies[256] = 1;  // end of block
    pngdeflate_build_code(frequencies, 286, 15, plan->lengths, plan->codes);
    int literal_count = 286;
    while (literal_count > 257 && plan->lengths[literal_count - 1] == 0) literal_count--;
    plan->literal_count = literal_count;
    // The code lengths of the literal/length code and of two one-bit distance codes (a complete
    // code, which every inflater accepts), run-length coded with symbols 16, 17 and 18.
    uint8_t all[288 + 2];
    memcpy(all, plan->lengths, (size_t)literal_count);
    all[literal_count] = 1;
    all[literal_count + 1] = 1;
    int total = literal_count + 2, count = 0;
    for (int index = 0; index < total;) {
        uint8_t value = all[index];
        int run = 1;
        while (index + run < total && all[index + run] == value) run++;
        int left = run;
        if (value == 0) {
            while (left >= 11) {
                int taken = left < 138 ? left : 138;
                plan->header_symbols[count] = 18;
                plan->header_extra[count++] = (uint8_t)(taken - 11);
                left -= taken;
            }
            if (left >= 3) {
                plan->header_symbols[count] = 17;
                plan->header_extra[count++] = (uint8_t)(left - 3);
                left = 0;
            }
        } else {
            plan->header_symbols[count] = value;
            plan->header_extra[count++] = 0;
            left--;
            while (left >= 3) {
                int taken = left < 6 ? left : 6;
                plan->header_symbols[count] = 16;
                plan->header_extra[count++] = (uint8_t)(taken - 3);
                left -= taken;
            }
        }
        for (; left > 0; left--) {
            plan->header_symbols[count] = value;
            plan->header_extra[count++] = 0;
        }
        index += run;
    }
    plan->header_count = count;
    uint32_t header_frequencies[19] = {0};
    for (int index = 0; index < count; index++) header_frequencies[plan->header_symbols[index]]++;
    int used = 0;
    for (int symbol = 0; symbol < 19; symbol++) used += header_frequencies[symbol] != 0;
    if (used == 1) header_frequencies[plan->header_symbols[0] == 0 ? 1 : 0] = 1;  // a complete code: two symbols
    pngdeflate_build_code(header_frequencies, 19, 7, plan->code_lengths, plan->code_codes);
    int code_length_count = 19;
    while (code_length_count > 4 && plan->code_lengths[pngdeflate_code_length_order[code_length_count - 1]] == 0) code_length_count--;
    plan->code_length_count = code_length_count;
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)code_length_count + extra_bits;
    for (int index = 0; index < count; index++) {
        uint8_t symbol = plan->header_symbols[index];
        bits += plan->code_lengths[symbol] + (symbol == 16 ? 2u : symbol == 17 ? 3u : symbol == 18 ? 7u : 0u);
    }
    for (int symbol = 0; symbol < 286; symbol++) bits += (uint64_t)frequencies[symbol] * plan->lengths[symbol];
    plan->size = 2 + (size_t)((bits + 7) / 8) + 4;
}

int pngdeflate_write_runs(const unsigned char *data, size_t n, const pngdeflate_runs_plan *plan,
                                         unsigned char *out) {
    out[0] = 0x78;  // deflate, 32 KB window
    out[1] = 0x01;  // fastest; (0x78 << 8 | 0x01) % 31 == 0
    pngdeflate_bits writer = {out + 2, 0, 0};
    pngdeflate_put(&writer, 1, 1);  // final block
    pngdeflate_put(&writer, 2, 2);  // dynamic Huffman codes
    pngdeflate_put(&writer, (uint32_t)(plan->literal_count - 257), 5);
    pngdeflate_put(&writer, 1, 5);  // two distance codes
    pngdeflate_put(&writer, (uint32_t)(plan->code_length_count - 4), 4);
    pngdeflate_flush(&writer);
    for (int index = 0; index < plan->code_length_count; index++) {
        pngdeflate_put(&writer, plan->code_lengths[pngdeflate_code_length_order[index]], 3);
        pngdeflate_flush(&writer);
    }
    for (int index = 0; index < plan->header_count; index++) {
        uint8_t symbol = plan->header_symbols[index];
        pngdeflate_put(&writer, plan->code_codes[symbol], plan->code_lengths[symbol]);
        if (symbol >= 16) pngdeflate_put(&writer, plan->header_extra[index], symbol == 16 ? 2 : symbol == 17 ? 3 : 7);
        pngdeflate_flush(&writer);
    }
    // code and length of each literal/length symbol in one word: one load per symbol
    uint32_t table[286];
    for (int symbol = 0; symbol < 286; symbol++) {
        table[symbol] = plan->codes[symbol] | (uint32_t)plan->lengths[symbol] << 16;
    }
    // two literals of at most 15 bits each between flushes
#define PNGDEFLATE_WRITE_LITERALS4(at)                                          \
    do {                                                                         \
        uint32_t first = table[(at)[0]], second = table[(at)[1]];                \
        pngdeflate_put(&writer, first & 0xFFFF, first >> 16);                   \
        pngdeflate_put(&writer, second & 0xFFFF, second >> 16);                 \
        pngdeflate_flush(&writer);                                              \
        uint32_t third = table[(at)[2]], fourth = table[(at)[3]];                \
        pngdeflate_put(&writer, third & 0xFFFF, third >> 16);                   \
        pngdeflate_put(&writer, fourth & 0xFFFF, fourth >> 16);                 \
        pngdeflate_flush(&writer);                                              \
    } while (0)
#define PNGDEFLATE_WRITE_LITERAL(byte, count)                              \
    for (size_t repeat = (count); repeat > 0; repeat--) {                  \
        pngdeflate_put(&writer, table[byte] & 0xFFFF, table[byte] >> 16); \
        pngdeflate_flush(&writer);                                        \
    }
#define PNGDEFLATE_WRITE_MATCH(length)                                                                    \
    do {                                                                                                   \
        uint8_t symbol = plan->length_symbol[length];                                                      \
        uint32_t entry = table[257 + symbol];                                                              \
        pngdeflate_put(&writer, entry & 0xFFFF, entry >> 16);                                             \
        pngdeflate_put(&writer, (uint32_t)((length) - pngdeflate_length_base[symbol]),                   \
                        plan->length_extra[length]);                                                       \
        pngdeflate_put(&writer, 0, 1); /* distance 1 */                                                   \
        pngdeflate_flush(&writer);                                                                        \
    } while (0)
    PNGDEFLATE_FOR_EACH_SYMBOL(data, n, PNGDEFLATE_WRITE_LITERALS4, PNGDEFLATE_WRITE_LITERAL,
                                PNGDEFLATE_WRITE_MATCH)
#undef PNGDEFLATE_WRITE_LITERALS4
#undef PNGDEFLATE_WRITE_LITERAL
#undef PNGDEFLATE_WRITE_MATCH
    pngdeflate_put(&writer, table[256] & 0xFFFF, table[256] >> 16);
    pngdeflate_flush(&writer);
    unsigned char *end = writer.out + (writer.count != 0);
    if ((size_t)(end - out) + 4 != plan->size) return 0;
    uint32_t adler = libdeflate_adler32(1, data, n);
    end[0] = (unsigned char)(adler >> 24);
    end[1] = (unsigned char)(adler >> 16);
    end[2] = (unsigned char)(adler >> 8);
    end[3] = (unsigned char)adler;
    return 1;
}

int pngdeflate_write_png(struct libdeflate_compressor *compressor, const unsigned char *samples,
                                        uint32_t width, uint32_t height, int channels, pngdeflate_png *output) {
    static const unsigned char color_types[] = {0, 4, 2, 6};
    static const unsigned char signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    output->bytes = NULL;
    output->count = 0;
    if (channels < 1 || channels > 4 || width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF)
        return 0;
    size_t row_bytes = (size_t)width * (size_t)channels;
    if (row_bytes / (size_t)channels != width || (row_bytes + 1) > SIZE_MAX / height) return 0;
    size_t filtered_count = (row_bytes + 1) * (size_t)height;
    unsigned char *filtered = (unsigned char *)malloc(filtered_count);
    if (filtered == NULL) return 0;
    size_t zeros = 0;
    for (uint32_t row = 0; row < height; row++) {
        unsigned char *out = filtered + (size_t)row * (row_bytes + 1);
        const unsigned char *current = samples + (size_t)row * row_bytes;
        out[0] = 2;  // Up
        if (row == 0) {
            memcpy(out + 1, current, row_bytes);
        } else {
            // zeros counted in a byte per block of 255, so that the loop runs on 16 bytes at once
            // (a wider counter made the compiler take 2)
            const unsigned char *above = current - row_bytes;
            for (size_t start = 0; start < row_bytes; start += 255) {
                size_t end = row_bytes - start < 255 ? row_bytes : start + 255;
                unsigned char block_zeros = 0;
                for (size_t index = start; index < end; index++) {
                    unsigned char difference = (unsigned char)(current[index] - above[index]);
                    out[1 + index] = difference;
                    block_zeros += difference == 0;
                }
                zeros += block_zeros;
            }
        }
    }
    const size_t framing = sizeof signature + (12 + 13) + 12 + 12;
    const size_t idat = sizeof signature + 25 + 8;  // where the zlib stream starts
    unsigned char *bytes = NULL;
    size_t compressed = 0;
    int patterned = zeros >= filtered_count / 4 && zeros < filtered_count / 10 * 9;
    if (!patterned) {
        pngdeflate_runs_plan plan;
        pngdeflate_plan_runs(filtered, filtered_count, &plan);
        // stored blocks: 5 bytes per 65,535 and the zlib header and trailer
        if (plan.size < filtered_count + filtered_count / 65535 * 5 + 11) {
            bytes = (unsigned char *)malloc(framing + plan.size + 8);
            if (bytes == NULL) {
                free(filtered);
                return 0;
            }
            if (!pngdeflate_write_runs(filtered, filtered_count, &plan, bytes + idat)) {
                free(filtered);
                free(bytes);
                return 0;
            }
            compressed = plan.size;
        }
    }
    if (bytes == NULL) {
        size_t bound = libdeflate_zlib_compress_bound(compressor, filtered_count);
        bytes = (unsigned char *)malloc(framing + bound);
        if (bytes != NULL) {
            compressed = libdeflate_zlib_compress(compressor, filtered, filtered_count, bytes + idat, bound);
        }
    }
    free(filtered);
    if (bytes == NULL) return 0;
    if (compressed == 0 || compressed > 0x7FFFFFFF) {
        free(bytes);
        return 0;
    }
    size_t position = 0;
    memcpy(bytes, signature, sizeof signature);
    position += sizeof signature;
    unsigned char *header = bytes + position;
    memcpy(header + 4, "IHDR", 4);
    pngdeflate_put32(header + 8, width);
    pngdeflate_put32(header + 12, height);
    header[16] = 8;                            // bit depth
    header[17] = color_types[channels - 1];
    header[18] = 0;                            // deflate
    header[19] = 0;                            // adaptive filtering (filter type per row)
    header[20] = 0;                            // no interlace
    position += pngdeflate_close_chunk(header, 13);
    unsigned char *data = bytes + position;
    memcpy(data + 4, "IDAT", 4);
    position += pngdeflate_close_chunk(data, compressed);
    unsigned char *end = bytes + position;
    memcpy(end + 4, "IEND", 4);
    position += pngdeflate_close_chunk(end, 0);
    output->bytes = bytes;
    output->count = position;
    return 1;
}
