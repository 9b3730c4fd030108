"""The demo field-service database: schema, deterministic data, SQLite and MariaDB builders."""
