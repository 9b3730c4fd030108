"""The demo field-service database: schema (`schema/`), deterministic rows (`data/`), and the
SQLite and MariaDB builders (`build`).

Depends only on `db` (the encryption and the secure views) of the analyst.
"""
