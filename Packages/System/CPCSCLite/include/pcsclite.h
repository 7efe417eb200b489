// pcsc-lite's headers include their siblings as <pcsclite.h> and <wintypes.h>, which needs
// -I/usr/include/PCSC. pkg-config's flags for that carry -pthread, which SwiftPM refuses (a
// warning on every build); this C target's include folder is on every client's search path,
// so these two forwarders stand in for the flag.
#include <PCSC/pcsclite.h>
