// libpng 1.6: PNG encoding of decoded document images.
#include <png.h>
