-- Condition values follow HeraldCore's rule in the database in full (ConditionRuleTests sends
-- every kind, group, type and sample value to both). Until now the database also took two
-- kinds of value that Herald refuses, and a campaign holding one could not be loaded (show,
-- export, publish) when another writer stored it:
--  - a whole number above 9223372036854775807 (Int.max, the largest Herald reads back);
--  - a flag name with a control character (U+0001 to U+001F, U+007F).
-- The rest (booleans, versions: 0013) is restated as it was.
ALTER TABLE campaign_conditions DROP CONSTRAINT campaign_conditions_value_type;
ALTER TABLE campaign_conditions ADD CONSTRAINT campaign_conditions_value_type CHECK (
    CASE
        WHEN type IN ('onWifi', 'neverDisplayed') THEN jsonb_typeof(value) = 'boolean'
        WHEN type IN ('lastDisplayMinimumSeconds', 'lastDisplayMinimumLaunches') THEN
            -- The cast only once the text is known to be digits.
            CASE WHEN jsonb_typeof(value) = 'number' AND (value #>> '{}') ~ '^[0-9]+$'
                 THEN (value #>> '{}')::numeric <= 9223372036854775807
                 ELSE false
            END
        WHEN type = 'flagNotSet' THEN
            jsonb_typeof(value) = 'string' AND (value #>> '{}') <> '' AND (value #>> '{}') !~ '[\x01-\x1F\x7F]'
        ELSE jsonb_typeof(value) = 'string'
            AND (value #>> '{}') ~ '^[\x21-\x7E]([\x20-\x7E]{0,62}[\x21-\x7E])?$'
    END
);
