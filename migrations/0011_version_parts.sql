-- Versions in conditions follow HeraldCore's Version rule in the database too: dotted parts
-- of 1 to 18 digits, no leading zeros. The device compares versions by numeric search, which
-- wraps beyond 64 bits, and would treat "2.04" like "2.4" while the text differs. Rows written
-- by other means than Herald are held to the same rule.
ALTER TABLE campaign_conditions DROP CONSTRAINT campaign_conditions_value_type;
ALTER TABLE campaign_conditions ADD CONSTRAINT campaign_conditions_value_type CHECK (
    CASE
        WHEN type IN ('onWifi', 'neverDisplayed') THEN jsonb_typeof(value) = 'boolean'
        WHEN type IN ('lastDisplayMinimumSeconds', 'lastDisplayMinimumLaunches') THEN
            jsonb_typeof(value) = 'number' AND (value #>> '{}') ~ '^[0-9]+$'
        WHEN type = 'flagNotSet' THEN jsonb_typeof(value) = 'string' AND (value #>> '{}') <> ''
        ELSE jsonb_typeof(value) = 'string'
            AND (value #>> '{}') ~ '^(0|[1-9][0-9]{0,17})(\.(0|[1-9][0-9]{0,17}))*$' AND length(value #>> '{}') <= 64
    END
);

-- The domain (kept for any column that wants it) says the same.
ALTER DOMAIN version_text DROP CONSTRAINT version_text_check;
ALTER DOMAIN version_text ADD CONSTRAINT version_text_check
    CHECK (VALUE ~ '^(0|[1-9][0-9]{0,17})(\.(0|[1-9][0-9]{0,17}))*$' AND length(VALUE) <= 64);
