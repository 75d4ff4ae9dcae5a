-- Fidelity to the real clients (issue #12).

-- 1. Versions are what the apps' Info.plist holds: devices run 2.10b1 and 2.9.9-beta, and
-- both clients compare them by Foundation's numeric search, so Herald accepts any 1 to 64
-- printable ASCII characters without a leading or trailing space (HeraldCore's Version
-- orders them exactly as numeric search does, and lint warns where that order surprises).
ALTER TABLE campaign_conditions DROP CONSTRAINT campaign_conditions_value_type;
ALTER TABLE campaign_conditions ADD CONSTRAINT campaign_conditions_value_type CHECK (
    CASE
        WHEN type IN ('onWifi', 'neverDisplayed') THEN jsonb_typeof(value) = 'boolean'
        WHEN type IN ('lastDisplayMinimumSeconds', 'lastDisplayMinimumLaunches') THEN
            jsonb_typeof(value) = 'number' AND (value #>> '{}') ~ '^[0-9]+$'
        WHEN type = 'flagNotSet' THEN jsonb_typeof(value) = 'string' AND (value #>> '{}') <> ''
        ELSE jsonb_typeof(value) = 'string'
            AND (value #>> '{}') ~ '^[\x21-\x7E]([\x20-\x7E]{0,62}[\x21-\x7E])?$'
    END
);

ALTER DOMAIN version_text DROP CONSTRAINT version_text_check;
ALTER DOMAIN version_text ADD CONSTRAINT version_text_check
    CHECK (VALUE ~ '^[\x21-\x7E]([\x20-\x7E]{0,62}[\x21-\x7E])?$');

-- 2. Message keys that differ only in case (promoA, PROMOA) have no defined order in iNotify,
-- which sorts keys with caseInsensitiveCompare: one app never gets two of them. Keys are
-- remembered forever, so pairs that exist already stay (each but the first of a group is
-- listed by its seq in the index expression, which sets it apart); every new key must
-- differ from all of them in more than case.
ALTER TABLE alert_message_keys NO FORCE ROW LEVEL SECURITY;  -- the owner reads every tenant's keys, here only
DO $$
DECLARE
    legacy bigint[];
BEGIN
    SELECT coalesce(array_agg(seq ORDER BY seq), '{}') INTO legacy
    FROM (
        SELECT seq, row_number() OVER (PARTITION BY tenant_id, app_id, lower(message_key) ORDER BY seq) AS n
        FROM alert_message_keys
    ) AS ranked
    WHERE n > 1;
    IF cardinality(legacy) = 0 THEN
        CREATE UNIQUE INDEX alert_message_keys_case_insensitive_key
            ON alert_message_keys (tenant_id, app_id, lower(message_key));
    ELSE
        EXECUTE format(
            'CREATE UNIQUE INDEX alert_message_keys_case_insensitive_key ON alert_message_keys '
            '(tenant_id, app_id, lower(message_key), (CASE WHEN seq = ANY (%L::bigint[]) THEN seq ELSE 0 END))',
            legacy);
    END IF;
END
$$;
ALTER TABLE alert_message_keys FORCE ROW LEVEL SECURITY;

-- 3. A URL is not a language: a translation without its own ActionURL publishes the default
-- locale's (HeraldCore's AlertContent rules), so a translated button label no longer needs a
-- URL in the same row. HeraldCore refuses a button that no URL reaches.
ALTER TABLE alert_contents DROP CONSTRAINT alert_contents_button_needs_url;
