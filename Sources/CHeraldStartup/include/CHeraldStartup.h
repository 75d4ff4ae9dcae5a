#ifndef HERALD_CHERALDSTARTUP_H
#define HERALD_CHERALDSTARTUP_H

#include <stdbool.h>

/// Whether a herald command line (the arguments after the program's name) is about to connect
/// to PostgreSQL, judged before it is parsed: every command does but `validate` and `help`, and
/// nothing asking for help, the version or a completion script. A wrong guess costs only time:
/// libpq is then loaded for nothing, or when it is first used.
bool herald_command_line_connects(int count, const char *const *arguments);

#endif
