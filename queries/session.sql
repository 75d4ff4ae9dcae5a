-- The settings of a session and its units of work (HeraldDatabase): who acts, for the audit
-- log, and the tenant row-level security confines a transaction to. (`SET LOCAL ROLE` stays
-- in the code: the role is an identifier, which no parameter can be.)

-- name: set-actor
-- Who acts, and every kind of scan on: a tenant's login starts with sequential and plain
-- index scans off (0025), for the plans it is shown; Herald's own work is planned freely.
SELECT set_config('herald.actor', :actor, false), set_config('enable_seqscan', 'on', false),
       set_config('enable_indexscan', 'on', false);

-- name: set-tenant
-- For the rest of the transaction.
SELECT set_config('herald.tenant_id', :tenant_id, true);

-- name: clear-tenant
SELECT set_config('herald.tenant_id', '', true);
