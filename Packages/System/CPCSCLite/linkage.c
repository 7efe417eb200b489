// A C target needs one source file. This target only carries pcsc-lite's headers (include/)
// and links libpcsclite; see include/pcsclite.h for why it is not a system-library target.
#include "CPCSCLite.h"
