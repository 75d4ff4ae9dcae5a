// Replaced by the compose and static-host tests.
