"""The demo database's schema as data: 132 tables in five business areas.

`tables` is the whole schema (`TABLES`, `TABLE_BY_NAME`, descriptions, the true relationships);
`model` defines `Table` and `Column`; `people`, `customers`, `work`, `assets` and `finance`
define the tables of each area.
"""
