// See pcsclite.h in this folder: forwards pcsc-lite's <wintypes.h> to its real place.
#include <PCSC/wintypes.h>
