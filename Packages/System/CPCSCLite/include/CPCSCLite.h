// pcsc-lite: the PC/SC WinSCard API and reader definitions.
#include <PCSC/winscard.h>
#include <PCSC/reader.h>
