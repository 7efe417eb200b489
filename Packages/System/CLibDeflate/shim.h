// libdeflate 1.x: zlib streams for the PNG writer of rendered document images (CPNGDeflate) and
// the tests that read them back.
#include <libdeflate.h>
