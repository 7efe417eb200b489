// OpenJPEG 2.5 (Debian's libopenjp2-7-dev installs it under a versioned folder).
#include <openjpeg-2.5/openjpeg.h>
