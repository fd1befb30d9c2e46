// A hint that memory is about to be read, imported as the module CPrefetch: the compiler's
// builtin, which no Swift API exposes. A hint reads nothing a program sees and never faults,
// whatever the address.
static inline void calldir_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
