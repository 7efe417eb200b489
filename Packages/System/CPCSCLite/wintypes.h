// pcsc-lite's headers include each other as <wintypes.h>; this forwards to the real one.
#include "/usr/include/PCSC/wintypes.h"
