#include "CLibCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

// OpenSSL's libcrypto is loaded on the first digest, not when herald starts: mapping it cost
// about 1.2 ms of every start, and most commands hash nothing (a command that connects loads
// it anyway, with libpq).
//
// SHA-256 through OpenSSL's low-level calls. OpenSSL 3 deprecates them in favour of EVP, but
// its one-shot SHA256() looks the algorithm up in the provider registry on every call (under
// a lock shared by all threads): for the tens of thousands of small files a publish names by
// digest, that look-up cost as much as the hashing (measured: 2 threads × 18,000 inputs of
// 820 bytes, 17.5 ms through SHA256(), 8.1 ms through these).

#if defined(__APPLE__)
static const char *const libcrypto_files[] = {
    "libcrypto.3.dylib", "/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib", "/usr/local/opt/openssl@3/lib/libcrypto.3.dylib",
};
#else
// OpenSSL 3, then 1.1 (whose SHA256_* calls are the same).
static const char *const libcrypto_files[] = {"libcrypto.so.3", "libcrypto.so.1.1"};
#endif

static pthread_once_t libcrypto_once = PTHREAD_ONCE_INIT;
static int (*sha256_init)(SHA256_CTX *context);
static int (*sha256_update)(SHA256_CTX *context, const void *bytes, size_t count);
static int (*sha256_final)(unsigned char *digest, SHA256_CTX *context);

static void load_libcrypto(void) {
    for (size_t index = 0; index < sizeof libcrypto_files / sizeof libcrypto_files[0]; index++) {
        void *library = dlopen(libcrypto_files[index], RTLD_LAZY | RTLD_LOCAL);
        if (!library) continue;
        *(void **)&sha256_init = dlsym(library, "SHA256_Init");
        *(void **)&sha256_update = dlsym(library, "SHA256_Update");
        *(void **)&sha256_final = dlsym(library, "SHA256_Final");
        if (sha256_init && sha256_update && sha256_final) return;
    }
    // A digest cannot fail, and a herald without libcrypto cannot name what it publishes: as
    // when the library was linked and missing, herald stops, here in words (sysexits 69).
    const char *error = dlerror();
    fprintf(stderr, "herald: cannot load OpenSSL's libcrypto (%s): install libssl3 (Debian/Ubuntu) or openssl\n",
            error ? error : libcrypto_files[0]);
    _exit(69);
}

void herald_sha256(const void *bytes, size_t count, unsigned char *digest) {
    pthread_once(&libcrypto_once, load_libcrypto);
    SHA256_CTX context;
    sha256_init(&context);
    sha256_update(&context, bytes, count);
    sha256_final(digest, &context);
}
