"""The join graph of a database and the join plans found on it.

`graph` is the data model (`JoinGraph`, `Relationship`, `TableInfo`); `build` makes it from
introspection, naming inference (`inference`) and manual overrides; `paths` finds the joins
that connect the tables a question needs (`JoinPathFinder`) and `plan` is what it answers
(`JoinPlan`); `benchmark` times path finding.

Pure graph work on table and column names: depends on nothing else of the analyst.
"""
