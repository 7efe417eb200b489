// pcsc-lite's headers include each other as <pcsclite.h>; this forwards to the real one.
#include "/usr/include/PCSC/pcsclite.h"
