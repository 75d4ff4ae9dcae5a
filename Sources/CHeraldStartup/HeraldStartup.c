#include "CHeraldStartup.h"

#include <string.h>

#include "CLibPQ.h"

// ArgumentParser's own flags: they print and exit before any command runs.
static const char *const built_in_flags[] = {
    "--version", "--help", "-h", "--generate-completion-script", "--experimental-dump-help",
};

bool herald_command_line_connects(int count, const char *const *arguments) {
    if (count < 1 || !arguments[0]) return false;
    if (strcmp(arguments[0], "validate") == 0 || strcmp(arguments[0], "help") == 0) return false;
    for (int index = 0; index < count; index++) {
        if (!arguments[index]) return false;
        for (size_t flag = 0; flag < sizeof built_in_flags / sizeof built_in_flags[0]; flag++) {
            if (strcmp(arguments[index], built_in_flags[flag]) == 0) return false;
        }
    }
    return true;
}

// Loading libpq (Kerberos, LDAP, GnuTLS and OpenSSL behind it) is the longest part of a
// command's start: it begins here, on a thread of its own, as soon as the dynamic loader has
// relocated the binary and before the Swift runtime and `main` start, so that the two overlap.
// Started from `main`, it began about 1 ms later and `tenant list` waited for it that much longer.
// The earliest priority a program may use; glibc and Apple's dyld pass the command line here.
#if defined(__GLIBC__) || defined(__APPLE__)
__attribute__((constructor(101))) static void herald_start_loading_libpq(int count, char **arguments, char **environment) {
    (void)environment;
    if (count > 1 && herald_command_line_connects(count - 1, (const char *const *)arguments + 1)) {
        herald_libpq_load_in_background();
    }
}
#endif
