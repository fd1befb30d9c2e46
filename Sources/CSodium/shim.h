// libsodium, for SHA-256 (crypto_hash_sha256) on platforms without CryptoKit.
#include <sodium.h>
