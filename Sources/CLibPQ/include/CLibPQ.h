#ifndef HERALD_CLIBPQ_H
#define HERALD_CLIBPQ_H

// libpq's API, as its own header declares it (Debian/Ubuntu: libpq-dev; elsewhere it may sit
// directly in the include path). The functions PostgresClient calls are defined in
// LibPQLoader.c, which loads libpq.so.5 when one is first called: see there why.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#elif __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#error "libpq-fe.h not found: install libpq-dev (Debian/Ubuntu) or libpq (Homebrew)"
#endif

#include <stdbool.h>
#include <stddef.h>

/// Loads libpq if it is not loaded yet. False when it cannot be: `reason` then holds why
/// (the loader's words, with the file names tried), NUL-terminated within `capacity`.
bool herald_libpq_load(char *reason, size_t capacity);

/// Whether the loaded libpq has pipeline mode (libpq 14 and newer); loads it first.
bool herald_libpq_has_pipeline(void);

// Starts loading libpq on a thread of its own and returns at once: a process that will connect
// calls it first thing, so that the loading overlaps the process's own start.
void herald_libpq_load_in_background(void);

#endif
