# The herald CLI in a small image, for docker-compose.yml's publisher and collector (the publisher's `command` runs
# `herald migrate`, then `herald publish` and `herald-sync` in a loop; no ENTRYPOINT, so any herald command
# works: `docker compose run --rm publisher herald campaign list --tenant acme`).

# --- build -----------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpq-dev libssl-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so that a source edit does not fetch them again.
# (Package.resolved is optional: the glob lets a checkout without it build.)
COPY Package.swift Package.resolved* ./
RUN swift package resolve
# Only what the build reads: never a host's .build/ or .herald-dev/ database.
COPY Plugins ./Plugins
COPY Sources ./Sources
COPY clients ./clients
COPY Tests ./Tests
COPY migrations ./migrations
COPY queries ./queries
# The Swift runtime and Foundation linked in, so the runtime image needs no Swift toolchain.
RUN swift build -c release --product herald --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/herald" /out/herald

# --- run -------------------------------------------------------------------------------------
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpq5 libssl3 libstdc++6 ca-certificates tzdata rsync \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /srv/site --shell /usr/sbin/nologin herald \
    && install -d -o herald -g herald -m 0755 /srv/site /srv/herald
COPY --from=build /out/herald /usr/local/bin/herald
# Publishes reach the served folder through herald-sync (deploy/herald-sync: changed files
# stamped after they are in place, so Notable's If-Modified-Since never keeps a device stale).
COPY deploy/herald-sync /usr/local/bin/herald-sync
# Fresh named volumes mounted at /srv/herald and /srv/site take these directories' owner, so
# herald can write there; the files it publishes are 0644, readable by nginx.
USER herald
WORKDIR /srv/site
CMD ["herald", "--help"]
