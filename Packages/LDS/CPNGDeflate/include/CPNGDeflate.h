// The PNG writer of rendered document images, part of LDS (a target of its own only because
// SwiftPM compiles C apart). Most images are deflated by a coder made for Up-filtered rows (one
// Huffman block of literals and runs of a repeated byte, `pngdeflate_plan_runs`), the others by
// libdeflate (CLibDeflate), which compresses a whole buffer at once about twice as fast as zlib at
// the same level; libdeflate's Adler-32 and CRC-32 serve both, and the few bytes of PNG framing
// around the zlib stream are written here.
#ifndef CPNGDEFLATE_H
#define CPNGDEFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// libdeflate's compressor, opaque here so that Swift sees one libdeflate.h: CLibDeflate's.
struct libdeflate_compressor;

// A PNG written by `pngdeflate_write_png`, owned by the caller (free `bytes` with free()).
typedef struct {
    unsigned char *bytes;
    size_t count;
} pngdeflate_png;

// A zlib stream of the n bytes at `data` planned by `pngdeflate_plan_runs`, written by
// `pngdeflate_write_runs`.
typedef struct {
    uint8_t length_symbol[259], length_extra[259];
    uint8_t lengths[288];
    uint16_t codes[288];
    int literal_count;  // HLIT + 257
    uint8_t code_lengths[19];
    uint16_t code_codes[19];
    int code_length_count;  // HCLEN + 4
    uint8_t header_symbols[290], header_extra[290];
    int header_count;
    size_t size;  // the whole zlib stream in bytes
} pngdeflate_runs_plan;

// Plans the stream: one final block with a dynamic Huffman code for literals and runs (every
// match at distance 1, whose code is one bit), its exact size in `plan->size`.
void pngdeflate_plan_runs(const unsigned char *data, size_t n, pngdeflate_runs_plan *plan);

// Writes the planned stream to `out`, which holds plan->size + 8 bytes. Returns 1, or 0 if what
// was written is not the planned size (a bug, reported rather than framed).
int pngdeflate_write_runs(const unsigned char *data, size_t n, const pngdeflate_runs_plan *plan,
        unsigned char *out);

// Writes 8-bit interleaved rows of 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA) channels as a
// non-interlaced PNG: every row filtered with Up (the difference to the row above, which suits
// photographs), one zlib stream in one IDAT chunk.
//
// The stream comes from `pngdeflate_plan_runs` (one Huffman code for literals and runs of a
// repeated byte, no search for earlier matches), two to four times as fast as libdeflate's level 1
// on a face or an iris and over ten times on a signature, unless a quarter to nine tenths of the
// filtered samples are zero: such images (a face before a smooth background) repeat short patterns
// that only libdeflate's matches (`compressor`, level 1) catch, at about the same speed. The runs
// are also left to libdeflate when they would not be smaller than the samples (noise), where
// libdeflate falls back to stored blocks. A compressor serves one call at a time. Returns 1 and
// fills `output` (the caller frees `output->bytes`), or 0 with nothing to free.
int pngdeflate_write_png(struct libdeflate_compressor *compressor, const unsigned char *samples,
        uint32_t width, uint32_t height, int channels, pngdeflate_png *output);

#endif
