#ifndef HERALD_CLIBCRYPTO_H
#define HERALD_CLIBCRYPTO_H

#include <openssl/sha.h>  // SHA256_DIGEST_LENGTH (Debian/Ubuntu: libssl-dev)
#include <stddef.h>

/// SHA-256 of `count` bytes into `digest` (SHA256_DIGEST_LENGTH bytes), by OpenSSL's libcrypto,
/// which is loaded on the first call (see Sha256.c).
void herald_sha256(const void *bytes, size_t count, unsigned char *digest);

#endif
