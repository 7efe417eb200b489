// pcsc-lite's headers include their siblings as <pcsclite.h> and <wintypes.h>, which needs
// -I/usr/include/PCSC, and pkg-config's flags for that carry -pthread, which SwiftPM refuses.
// These two forwarders (this target's folder is on the include path) stand in for that flag.
#include <PCSC/pcsclite.h>
