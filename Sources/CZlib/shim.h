// The system zlib, imported as the module CZlib.
#include <zlib.h>
