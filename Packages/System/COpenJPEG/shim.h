// OpenJPEG 2.5 (Debian's libopenjp2-7-dev installs it under a versioned folder).
#include <openjpeg-2.5/openjpeg.h>
#include <stddef.h>
#include <stdint.h>

// Interleaves `channels` (1…4) planes of `count` decoded samples of 8-bit unsigned components
// into `out` (count × channels bytes), each clamped to 0…255 as opj_decompress writes them: the
// usual face, iris and signature. Each plane is first clamped into bytes a block at a time, which
// the compiler does 16 samples at once, then the blocks are interleaved: clamping and storing
// every `channels`-th byte in one loop ran sample by sample at twice the time.
static inline void copenjpeg_interleave_8bit(const int32_t *const *planes, int channels, size_t count,
                                             unsigned char *out) {
    enum { block = 1024 };
    unsigned char clamped[4][block];
    for (size_t start = 0; start < count; start += block) {
        size_t length = count - start < block ? count - start : block;
        for (int channel = 0; channel < channels; channel++) {
            const int32_t *plane = planes[channel] + start;
            unsigned char *target = channels == 1 ? out + start : clamped[channel];
            for (size_t index = 0; index < length; index++) {
                int32_t sample = plane[index];
                target[index] = (unsigned char)(sample < 0 ? 0 : sample > 255 ? 255 : sample);
            }
        }
        unsigned char *at = out + start * (size_t)channels;
        switch (channels) {
        case 2:
            for (size_t index = 0; index < length; index++) {
                at[2 * index] = clamped[0][index];
                at[2 * index + 1] = clamped[1][index];
            }
            break;
        case 3:
            for (size_t index = 0; index < length; index++) {
                at[3 * index] = clamped[0][index];
                at[3 * index + 1] = clamped[1][index];
                at[3 * index + 2] = clamped[2][index];
            }
            break;
        case 4:
            for (size_t index = 0; index < length; index++) {
                at[4 * index] = clamped[0][index];
                at[4 * index + 1] = clamped[1][index];
                at[4 * index + 2] = clamped[2][index];
                at[4 * index + 3] = clamped[3][index];
            }
            break;
        default: break;
        }
    }
}
