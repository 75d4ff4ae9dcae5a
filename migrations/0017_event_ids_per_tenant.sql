-- Event ids are unique per tenant, not across tenants (issue #11, item 19): until now one
-- tenant's event made another tenant's event with the same id a duplicate, and it was never
-- stored. Ids are client-made, so two tenants' clients may well send the same one; what makes
-- an event "already counted" is its id within its tenant.
--
-- The ids already stored get their tenant as follows:
--   * an id whose event is still in the raw history: that event's tenant (an id was stored
--     once, so it has one event);
--   * an id whose raw history was pruned (`herald events prune`) has no known tenant: it is
--     kept for every tenant that had events before the pruned horizon (a campaign of it whose
--     first event is older than the horizon), which includes its own. An old file ingested
--     again still counts nothing; the cost: such a tenant's new event that reuses another
--     tenant's pruned id counts as a duplicate, as every such event did before 0017.
--     Without a horizon (nothing ever pruned) every id has its event, and the rule only
--     covers what should not exist: an id without one goes to every tenant with events.
-- herald_ensure_access() (0016) names event_ids and grants what it needs: it is unchanged.

ALTER TABLE event_ids RENAME TO event_ids_across_tenants;
ALTER INDEX event_ids_pkey RENAME TO event_ids_across_tenants_pkey;

-- Every event id ever stored, per tenant. Kept when raw partitions are pruned (24 bytes and
-- an index entry each). No foreign key, like delivery_events: tenants are never deleted, and
-- ingest takes the tenant from the campaign it resolved in the same transaction.
CREATE TABLE event_ids (
    tenant_id  bigint NOT NULL,
    event_id   uuid NOT NULL,
    PRIMARY KEY (tenant_id, event_id)
);

-- The rows of every tenant are read here, as the tables' owner: row security is forced on
-- the owner too (0015), so it is lifted for this transaction only.
ALTER TABLE delivery_events NO FORCE ROW LEVEL SECURITY;
ALTER TABLE campaign_rollup NO FORCE ROW LEVEL SECURITY;

INSERT INTO event_ids (tenant_id, event_id)
SELECT e.tenant_id, e.event_id
FROM delivery_events e
ORDER BY 1, 2
ON CONFLICT DO NOTHING;

INSERT INTO event_ids (tenant_id, event_id)
SELECT t.tenant_id, o.event_id
FROM event_ids_across_tenants o
CROSS JOIN (
    SELECT DISTINCT r.tenant_id
    FROM campaign_rollup r
    -- The horizon is a UTC day (EventClock), whatever the session's time zone.
    WHERE r.first_at < coalesce((SELECT pruned_before::timestamp AT TIME ZONE 'UTC' FROM event_retention), 'infinity')
) t
WHERE NOT EXISTS (SELECT FROM delivery_events e WHERE e.event_id = o.event_id)
ORDER BY 1, 2
ON CONFLICT DO NOTHING;

-- Every id stored keeps at least one tenant (the rollups are written with the ids, in the
-- same transactions, so one always qualifies); should one not, the upgrade stops here rather
-- than let an event be counted twice.
DO $$
BEGIN
    IF EXISTS (SELECT FROM event_ids_across_tenants o WHERE NOT EXISTS (SELECT FROM event_ids n WHERE n.event_id = o.event_id)) THEN
        RAISE EXCEPTION 'event ids without a tenant: neither in delivery_events nor of a tenant with events before the pruned horizon';
    END IF;
END
$$;

ALTER TABLE delivery_events FORCE ROW LEVEL SECURITY;
ALTER TABLE campaign_rollup FORCE ROW LEVEL SECURITY;
DROP TABLE event_ids_across_tenants;

-- A tenant table now, with the same rows policy as every other (0015, 0016): herald_operator
-- (ingest) sees every tenant's ids; herald_tenant, and so a tenant operator, has no right on
-- the table at all, and would see only its own tenant's ids if it had.
ALTER TABLE event_ids ENABLE ROW LEVEL SECURITY;
ALTER TABLE event_ids FORCE ROW LEVEL SECURITY;
CREATE POLICY herald_rows ON event_ids
    USING (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
    WITH CHECK (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()));

-- The rights the old table had (herald_ensure_access(), 0016, names event_ids and states
-- the same: it needs no change).
GRANT SELECT, INSERT ON event_ids TO herald_operator;
