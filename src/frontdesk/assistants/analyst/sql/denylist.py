"""What the read-only gate refuses by name: functions, schemas and table functions.

Kept apart from ``sql.safety`` (which walks the tree and decides) so the lists can be read,
and extended for a new database, in one place.
"""

from __future__ import annotations

# Functions that sleep, lock, read or write files, load code, run commands, advance
# sequences or burn CPU. Compared case-insensitively with every name a function node has.
DENIED_FUNCTIONS: frozenset[str] = frozenset(
    {
        # waiting and denial of service
        "sleep", "benchmark", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "randomblob",
        "zeroblob", "master_pos_wait", "source_pos_wait", "master_gtid_wait",
        "wait_for_executed_gtid_set", "wait_until_sql_thread_after_gtids",
        # advisory locks
        "get_lock", "release_lock", "release_all_locks", "is_free_lock", "is_used_lock",
        # files, extensions and commands
        "load_file", "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer",
        "sys_exec", "sys_eval", "lo_import", "lo_export", "pg_read_file", "pg_read_binary_file",
        "pg_ls_dir", "xp_cmdshell", "dbms_lock",
        # sequences and session state; who the analyst connects as is not its business
        "nextval", "setval", "lastval", "last_insert_id", "user", "current_user",
        "currentuser", "session_user", "system_user", "current_role",
        # the encryption key: the secure views call these, queries must not (key exfiltration)
        "aes_key", "frontdesk_aes_key", "aes_encrypt", "aes_decrypt", "des_encrypt",
        "des_decrypt", "encrypt", "decrypt",
        # PostgreSQL: settings hold the session's key (current_setting), remote and large
        # objects reach outside the database, the *_to_xml family runs SQL given as text
        "current_setting", "set_config", "dblink", "dblink_exec", "dblink_connect",
        "lo_get", "lo_put", "lo_open", "lo_create", "lo_unlink", "lo_from_bytea",
        "query_to_xml", "query_to_xml_and_xmlschema", "cursor_to_xml", "table_to_xml",
        "table_to_xml_and_xmlschema", "schema_to_xml", "database_to_xml", "txid_current",
        "inet_server_addr", "inet_server_port", "inet_client_addr",
    }
)  # fmt: skip
# PostgreSQL's administrative functions all start with pg_ (pg_sleep, pg_read_file,
# pg_terminate_backend, pg_advisory_lock, pg_notify...): none belongs in a business question.
DENIED_PREFIXES = ("pg_", "dblink", "lo_")
# Any function whose name mentions encryption or a key getter, whatever the spelling of the
# deployment's own key function: the key must never come back as a query result.
DENIED_NAME_PARTS = ("aes", "crypt", "_key")

# Schemas and table functions that describe the server rather than the business data.
SYSTEM_SCHEMAS = frozenset(
    {"information_schema", "mysql", "performance_schema", "sys", "pg_catalog", "pg_toast"}
)
DENIED_TABLE_FUNCTIONS = frozenset({"fsdir", "zipfile", "dbstat", "sqlar"})
