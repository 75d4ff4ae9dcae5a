// PostgresClient
