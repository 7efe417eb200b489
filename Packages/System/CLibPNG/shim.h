// libpng 1.6: PNG encoding of decoded document images.
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// The growing output of `clibpng_write`, owned by the caller once written (free `bytes` with free()).
typedef struct {
    unsigned char *bytes;
    size_t count;
    size_t capacity;
} clibpng_buffer;

static inline void clibpng_append(png_structp png, png_bytep data, size_t length) {
    clibpng_buffer *buffer = (clibpng_buffer *)png_get_io_ptr(png);
    if (buffer->count + length > buffer->capacity) {
        size_t capacity = buffer->capacity * 2 > buffer->count + length ? buffer->capacity * 2 : buffer->count + length;
        unsigned char *grown = (unsigned char *)realloc(buffer->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, length);
    buffer->count += length;
}

static inline void clibpng_flush(png_structp png) { (void)png; }

// Writes 8-bit interleaved rows of 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA) channels as a PNG with
// the given row filters (PNG_FILTER_* flags) and zlib level, through libpng's full write API, which the simplified API
// (`png_image_write_to_memory`) does not open to these choices. libpng reports errors by longjmp; the
// setjmp is here, so that the jump never crosses a Swift frame. Returns 1 and fills `output` (the
// caller frees `output->bytes`), or 0 with nothing to free.
static inline int clibpng_write(const unsigned char *samples, unsigned int width, unsigned int height,
                                int channels, int filters, int level, clibpng_buffer *output) {
    static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                      PNG_COLOR_TYPE_RGB_ALPHA};
    size_t row_bytes = (size_t)width * (size_t)channels;
    output->bytes = NULL;
    output->count = 0;
    output->capacity = 0;
    if (channels < 1 || channels > 4) return 0;
    int color_type = color_types[channels - 1];
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return 0;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(output->bytes);
        output->bytes = NULL;
        output->count = 0;
        return 0;
    }
    output->capacity = row_bytes * height / 2 + 1024;
    output->bytes = (unsigned char *)malloc(output->capacity);
    if (output->bytes == NULL) png_error(png, "out of memory");
    png_set_write_fn(png, output, clibpng_append, clibpng_flush);
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_compression_level(png, level);
    png_write_info(png, info);
    for (unsigned int row = 0; row < height; row++) {
        png_write_row(png, (png_const_bytep)(samples + (size_t)row * row_bytes));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 1;
}
