-- Tenants and their apps.

CREATE TABLE tenants (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug        slug NOT NULL,
    name        xml_text NOT NULL CHECK (name <> ''),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenants_slug_key UNIQUE (slug)
);

CREATE TABLE apps (
    tenant_id       bigint NOT NULL DEFAULT herald_current_tenant() REFERENCES tenants (id),
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug            slug NOT NULL,
    name            xml_text NOT NULL CHECK (name <> ''),
    platform        app_platform NOT NULL,
    bundle_id       text NOT NULL CHECK (bundle_id ~ '^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$'),
    default_locale  locale_tag NOT NULL,
    locales         locale_tag[] NOT NULL,
    base_url        http_url,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT apps_slug_key UNIQUE (tenant_id, slug),
    CONSTRAINT apps_tenant_id_id_key UNIQUE (tenant_id, id),
    CONSTRAINT apps_default_locale_supported CHECK (default_locale = ANY (locales)),
    CONSTRAINT apps_locales_count CHECK (cardinality(locales) BETWEEN 1 AND 200)
);

CREATE TRIGGER tenants_touch BEFORE UPDATE ON tenants
    FOR EACH ROW EXECUTE FUNCTION herald_touch_updated_at();
CREATE TRIGGER apps_touch BEFORE UPDATE ON apps
    FOR EACH ROW EXECUTE FUNCTION herald_touch_updated_at();

-- An app belongs to its tenant forever: moving it would carry campaign ids devices remember.
CREATE FUNCTION herald_apps_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NEW.tenant_id <> OLD.tenant_id THEN
        RAISE EXCEPTION 'an app cannot move to another tenant' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'apps_tenant_immutable';
    END IF;
    IF NEW.slug <> OLD.slug THEN
        RAISE EXCEPTION 'an app''s slug cannot change (it names its published folder)'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'apps_slug_immutable';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER apps_guard BEFORE UPDATE ON apps
    FOR EACH ROW EXECUTE FUNCTION herald_apps_guard();
