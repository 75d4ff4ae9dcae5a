-- Roles, domains and enums shared by every Herald table.
--
-- Herald never runs tenant work as the connecting user. Each command's transaction
-- switches to one of two NOLOGIN roles (SET LOCAL ROLE), and row-level security,
-- enabled and forced on every tenant table, does the rest:
--   herald_tenant    sees and writes only the rows of the tenant in `herald.tenant_id`;
--   herald_operator  cross-tenant work (tenant list/create, publish, migrations' checks).
-- The connecting user gets no policy at all, so code that forgets to pick a role sees
-- nothing rather than everything.

DO $$
BEGIN
    BEGIN
        CREATE ROLE herald_tenant NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;  -- roles are cluster-wide
    END;
    BEGIN
        CREATE ROLE herald_operator NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
END
$$;

-- The user that runs the migrations runs Herald: let it take both roles.
GRANT herald_tenant, herald_operator TO CURRENT_USER;

-- The tenant of the current transaction, or NULL (which matches no row).
CREATE FUNCTION herald_current_tenant() RETURNS bigint
    LANGUAGE sql STABLE
    AS $$ SELECT nullif(current_setting('herald.tenant_id', true), '')::bigint $$;

-- Value forms, mirrored by HeraldCore (which gives the friendlier message first).
CREATE DOMAIN slug AS text
    CHECK (VALUE ~ '^[a-z0-9][a-z0-9-]{0,62}$');
CREATE DOMAIN locale_tag AS text
    CHECK (VALUE ~ '^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$');
CREATE DOMAIN version_text AS text
    CHECK (VALUE ~ '^[0-9]+(\.[0-9]+)*$' AND length(VALUE) <= 64);
-- Absolute http(s) URL with a host: view files and story images are fetched by the device.
CREATE DOMAIN http_url AS text
    CHECK (VALUE ~ '^https?://[^\s/?#@]+[^\s]*$');
-- Any scheme: deep links and action URLs (myapp://…, https://…, mailto:…).
CREATE DOMAIN link_url AS text
    CHECK (VALUE ~ '^[A-Za-z][A-Za-z0-9+.-]*:\S+$');
-- Text that XML 1.0 can carry (the alert plist): no C0 controls but tab, LF, CR; no U+FFFE/U+FFFF.
CREATE DOMAIN xml_text AS text
    CHECK (VALUE !~ '[\x01-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]');
-- An iNotify message key: sorted case-insensitively by the client, remembered forever.
CREATE DOMAIN message_key AS text
    CHECK (VALUE ~ '^[A-Za-z0-9][A-Za-z0-9/_.:-]{0,63}$');

CREATE TYPE app_platform AS ENUM ('ios', 'macos');
CREATE TYPE campaign_kind AS ENUM ('banner', 'alert', 'story');
CREATE TYPE campaign_status AS ENUM ('draft', 'active', 'paused', 'archived');
CREATE TYPE condition_group AS ENUM ('all', 'any');
CREATE TYPE view_origin AS ENUM ('top', 'bottom');

-- Keeps updated_at honest on every table that has one.
CREATE FUNCTION herald_touch_updated_at() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END
$$;
