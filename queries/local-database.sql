-- Herald's own local PostgreSQL (EmbeddedDatabase), on its server's `postgres` database.

-- name: local-database-exists
SELECT 1 FROM pg_database WHERE datname = :name;

-- name: create-local-database
-- EmbeddedDatabase.databaseName.
CREATE DATABASE herald;
