#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// libpq is loaded when herald first calls it, not when herald starts: libpq.so.5 brings
// Kerberos, LDAP, GnuTLS and OpenSSL with it, and mapping and initialising them took longer
// than all the rest of herald's start (a C program linked with -lpq started in 6.7 ms, the same
// without it in 1.2 ms). So `herald --version`, `--help`, `validate` and completion never load
// it, and a command that connects loads it once, as psql does when it starts: on a thread of
// its own from the process's first constructor (herald_libpq_load_in_background, called by
// CHeraldStartup), while the Swift runtime starts and the arguments are parsed, so that the
// two overlap.
//
// Each libpq function PostgresClient calls is defined below under libpq's own name and
// forwards to libpq's. They are hidden: not exported from the binary, so libpq's calls to its
// own functions never land here. Calling a libpq function not listed here fails the link
// ("undefined reference to PQsomething"): add it to the list.

#if defined(__APPLE__)
static const char *const libpq_files[] = {
    "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib",
};
#else
static const char *const libpq_files[] = {"libpq.so.5"};
#endif

// (return type, name, parameters, arguments, what to return when libpq cannot be loaded).
// Only the first calls (connecting, pinging, reading conninfo) can meet an unloaded libpq:
// every other one needs a connection or result libpq made.
#define HERALD_LIBPQ_FUNCTIONS(X)                                                                                      \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo), NULL)                                                \
    X(PGPing, PQping, (const char *conninfo), (conninfo), PQPING_NO_ATTEMPT)                                          \
    X(PQconninfoOption *, PQconndefaults, (void), (), NULL)                                                            \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg),                  \
      (errmsg ? (*errmsg = NULL) : NULL, (PQconninfoOption *)NULL))                                                    \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn), CONNECTION_BAD)                                          \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn), PQTRANS_UNKNOWN)                     \
    X(int, PQserverVersion, (const PGconn *conn), (conn), 0)                                                           \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn), (char *)"libpq is not loaded")                             \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg),   \
      NULL)                                                                                                            \
    X(PGresult *, PQexecParams,                                                                                        \
      (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues,          \
       const int *paramLengths, const int *paramFormats, int resultFormat),                                            \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat), NULL)               \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes), NULL)                                                              \
    X(PGresult *, PQexecPrepared,                                                                                      \
      (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths,       \
       const int *paramFormats, int resultFormat),                                                                     \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat), NULL)                          \
    X(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query), 0)                                           \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn), NULL)                                                           \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes), -1)                 \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg), -1)                                  \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res), PGRES_FATAL_ERROR)                                \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode), NULL)                       \
    X(int, PQntuples, (const PGresult *res), (res), 0)                                                                 \
    X(int, PQnfields, (const PGresult *res), (res), 0)                                                                 \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num), NULL)                                  \
    X(char *, PQcmdTuples, (PGresult *res), (res), NULL)                                                               \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num), NULL)          \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num), 0)               \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num), 1)               \
    X(char *, PQencryptPasswordConn, (PGconn *conn, const char *passwd, const char *user, const char *algorithm),       \
      (conn, passwd, user, algorithm), NULL)                                                                           \
    X(int, PQsocket, (const PGconn *conn), (conn), -1)                                                                 \
    X(int, PQconsumeInput, (PGconn *conn), (conn), 0)                                                                  \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn), NULL)                                                            \
    X(char *, PQescapeIdentifier, (PGconn *conn, const char *str, size_t len), (conn, str, len), NULL)

// Pipeline mode (libpq 14 and newer), optional: without it, PostgresClient sends the statements
// it would have pipelined one at a time (`herald_libpq_has_pipeline`).
#define HERALD_LIBPQ_OPTIONAL_FUNCTIONS(X)                                                                             \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn), 0)                                                             \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn), 0)                                                              \
    X(int, PQpipelineSync, (PGconn *conn), (conn), 0)                                                                  \
    X(int, PQsendQueryParams,                                                                                          \
      (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues,          \
       const int *paramLengths, const int *paramFormats, int resultFormat),                                            \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat), 0)

// (name, parameters, arguments): the ones that return nothing.
#define HERALD_LIBPQ_PROCEDURES(X)                                                                                     \
    X(PQfinish, (PGconn *conn), (conn))                                                                                \
    X(PQclear, (PGresult *res), (res))                                                                                 \
    X(PQfreemem, (void *ptr), (ptr))                                                                                   \
    X(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions))

#define HERALD_POINTER(type, name, parameters, arguments, unloaded) static type(*libpq_##name) parameters;
#define HERALD_PROCEDURE_POINTER(name, parameters, arguments) static void(*libpq_##name) parameters;
HERALD_LIBPQ_FUNCTIONS(HERALD_POINTER)
HERALD_LIBPQ_OPTIONAL_FUNCTIONS(HERALD_POINTER)
HERALD_LIBPQ_PROCEDURES(HERALD_PROCEDURE_POINTER)

static pthread_once_t libpq_once = PTHREAD_ONCE_INIT;
static bool libpq_loaded = false;
static char libpq_failure[512];

// Looks `name` up in `library`; false (and why, in libpq_failure) when it is not there.
static bool find(void *library, const char *file, const char *name, void **function) {
    *function = dlsym(library, name);
    if (*function) return true;
    snprintf(libpq_failure, sizeof libpq_failure, "%s has no %s: herald needs libpq 10 or newer", file, name);
    return false;
}

static void load_libpq(void) {
    void *library = NULL;
    const char *file = NULL;
    char tried[256] = "";
    for (size_t index = 0; index < sizeof libpq_files / sizeof libpq_files[0] && !library; index++) {
        file = libpq_files[index];
        library = dlopen(file, RTLD_LAZY | RTLD_LOCAL);
        if (!library) {
            const char *error = dlerror();
            snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s%s", tried[0] ? "; " : "",
                     error ? error : file);
        }
    }
    if (!library) {
        snprintf(libpq_failure, sizeof libpq_failure,
                 "cannot load PostgreSQL's client library libpq (%s): install libpq5 (Debian/Ubuntu) or libpq", tried);
        return;
    }
#define HERALD_FIND(type, name, parameters, arguments, unloaded)                                                       \
    if (!find(library, file, #name, (void **)&libpq_##name)) return;
#define HERALD_FIND_PROCEDURE(name, parameters, arguments)                                                             \
    if (!find(library, file, #name, (void **)&libpq_##name)) return;
    HERALD_LIBPQ_FUNCTIONS(HERALD_FIND)
    HERALD_LIBPQ_PROCEDURES(HERALD_FIND_PROCEDURE)
#define HERALD_FIND_OPTIONAL(type, name, parameters, arguments, unloaded) libpq_##name = dlsym(library, #name);
    HERALD_LIBPQ_OPTIONAL_FUNCTIONS(HERALD_FIND_OPTIONAL)
    libpq_loaded = true;
}

// pthread_once makes the pointers written by load_libpq visible to every thread that returns from it.
static inline bool libpq_ready(void) {
    pthread_once(&libpq_once, load_libpq);
    return libpq_loaded;
}

bool herald_libpq_load(char *reason, size_t capacity) {
    if (libpq_ready()) return true;
    if (reason && capacity > 0) snprintf(reason, capacity, "%s", libpq_failure);
    return false;
}

bool herald_libpq_has_pipeline(void) {
    return libpq_ready() && libpq_PQenterPipelineMode && libpq_PQexitPipelineMode && libpq_PQpipelineSync &&
           libpq_PQsendQueryParams;
}

static void *load_in_background(void *unused) {
    (void)unused;
    libpq_ready();
    return NULL;
}

void herald_libpq_load_in_background(void) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    // Nothing is lost if it cannot start: the first call loads libpq then, as before.
    (void)pthread_create(&thread, &attributes, load_in_background, NULL);
    pthread_attr_destroy(&attributes);
}

#define HERALD_FORWARD(type, name, parameters, arguments, unloaded)                                                    \
    __attribute__((visibility("hidden"))) type name parameters {                                                       \
        return libpq_ready() ? libpq_##name arguments : unloaded;                                                      \
    }
#define HERALD_FORWARD_PROCEDURE(name, parameters, arguments)                                                          \
    __attribute__((visibility("hidden"))) void name parameters {                                                       \
        if (libpq_ready()) libpq_##name arguments;                                                                     \
    }
#define HERALD_FORWARD_OPTIONAL(type, name, parameters, arguments, unloaded)                                           \
    __attribute__((visibility("hidden"))) type name parameters {                                                       \
        return libpq_ready() && libpq_##name ? libpq_##name arguments : unloaded;                                      \
    }
HERALD_LIBPQ_FUNCTIONS(HERALD_FORWARD)
HERALD_LIBPQ_OPTIONAL_FUNCTIONS(HERALD_FORWARD_OPTIONAL)
HERALD_LIBPQ_PROCEDURES(HERALD_FORWARD_PROCEDURE)
