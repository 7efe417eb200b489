// libdeflate 1.x: the PNG writer of rendered document images. libdeflate compresses a whole buffer
// at once, about twice as fast as zlib at the same level and a little smaller, and has the CRC-32
// PNG chunks need; the few bytes of PNG framing around its zlib stream are written here.
#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// A PNG written by `clibdeflate_write_png`, owned by the caller (free `bytes` with free()).
typedef struct {
    unsigned char *bytes;
    size_t count;
} clibdeflate_png;

static inline void clibdeflate_put32(unsigned char *at, uint32_t value) {
    at[0] = (unsigned char)(value >> 24);
    at[1] = (unsigned char)(value >> 16);
    at[2] = (unsigned char)(value >> 8);
    at[3] = (unsigned char)value;
}

// Closes the chunk whose length field is at `chunk` and whose data of `length` bytes follows its
// type: writes the length and the CRC over type and data. Returns the chunk's whole size.
static inline size_t clibdeflate_close_chunk(unsigned char *chunk, size_t length) {
    clibdeflate_put32(chunk, (uint32_t)length);
    clibdeflate_put32(chunk + 8 + length, libdeflate_crc32(0, chunk + 4, length + 4));
    return length + 12;
}

// Writes 8-bit interleaved rows of 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA) channels as a
// non-interlaced PNG: every row filtered with Up (the difference to the row above, which suits
// photographs), one zlib stream in one IDAT chunk. The stream comes from `flat` (libdeflate's level
// 2) when at least 90 % of the filtered samples are zero (a signature, line art: level 1 is twice
// as slow as level 2 on such long runs), else from `busy` (level 1, twice as fast as level 2 on a
// face). A compressor serves one call at a time. Returns 1 and fills `output` (the caller frees
// `output->bytes`), or 0 with nothing to free.
static inline int clibdeflate_write_png(struct libdeflate_compressor *busy, struct libdeflate_compressor *flat,
                                        const unsigned char *samples, uint32_t width, uint32_t height, int channels,
                                        clibdeflate_png *output) {
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
            const unsigned char *above = current - row_bytes;
            size_t row_zeros = 0;
            for (size_t index = 0; index < row_bytes; index++) {
                unsigned char difference = (unsigned char)(current[index] - above[index]);
                out[1 + index] = difference;
                row_zeros += difference == 0;
            }
            zeros += row_zeros;
        }
    }
    struct libdeflate_compressor *compressor = zeros >= filtered_count / 10 * 9 ? flat : busy;
    size_t bound = libdeflate_zlib_compress_bound(compressor, filtered_count);
    size_t capacity = sizeof signature + (12 + 13) + (12 + bound) + 12;
    unsigned char *bytes = (unsigned char *)malloc(capacity);
    size_t compressed = 0;
    if (bytes != NULL) {
        compressed = libdeflate_zlib_compress(compressor, filtered, filtered_count, bytes + sizeof signature + 25 + 8, bound);
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
    clibdeflate_put32(header + 8, width);
    clibdeflate_put32(header + 12, height);
    header[16] = 8;                            // bit depth
    header[17] = color_types[channels - 1];
    header[18] = 0;                            // deflate
    header[19] = 0;                            // adaptive filtering (filter type per row)
    header[20] = 0;                            // no interlace
    position += clibdeflate_close_chunk(header, 13);
    unsigned char *data = bytes + position;
    memcpy(data + 4, "IDAT", 4);
    position += clibdeflate_close_chunk(data, compressed);
    unsigned char *end = bytes + position;
    memcpy(end + 4, "IEND", 4);
    position += clibdeflate_close_chunk(end, 0);
    output->bytes = bytes;
    output->count = position;
    return 1;
}
