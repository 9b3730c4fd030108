"""Naming inference: relationships no foreign key declares, read from column names.

`workTime.employeeId` -> `employee.id`, `Album.ArtistId` -> `Artist.ArtistId`,
`assignedEmployeeId` -> `employee.id`, benchmark-style short keys `writes.aid` -> `author.aid`
and glued lower-case ones `writes.authorid` -> `author.authorid` (see `glued_words`); each with
a confidence below a declared key's 1.0, by how directly the name points at the table (the
constants below, justified in `infer_relationships`). Works on any database's names, camelCase,
snake_case or all lower-case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from frontdesk.assistants.analyst.joins.graph import (
    Relationship,
    TableInfo,
    _sorted,
    cardinality,
)

# Confidence by how a column name points at a table; justified in infer_relationships.
PK_NAME_MATCH = 0.95
NAME_EXACT = 0.9
NAME_VARIANT = 0.75
ROLE_EXACT = 0.65
ROLE_VARIANT = 0.55
SHORT_KEY_MATCH = 0.75
AMBIGUITY_PENALTY = 0.1

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def split_name(name: str) -> list[str]:
    """Lower-case words of a camelCase, PascalCase or snake_case name: `WorkOrderID` -> 3."""
    return [w.lower() for part in re.split(r"[\W_]+", name) for w in _WORD.findall(part)]


def _variants(word: str) -> set[str]:
    """Plural/singular forms of an English noun, good enough for table names."""
    out = {word + "s", word + "es"}
    if word.endswith("ies"):
        out.add(word[:-3] + "y")
    if word.endswith("es"):
        out.add(word[:-2])
    if word.endswith("s"):
        out.add(word[:-1])
    if word.endswith("y"):
        out.add(word[:-1] + "ies")
    return out - {word, ""}


# A table name shorter than this matches a glued column (`paid`) only as the whole name minus
# `id`: no plural/singular variant and no role prefix, see `glued_words`.
GLUED_MIN_LETTERS = 4


def _spells(stem: str, name: str) -> bool:
    """`stem` is the glued table name `name`, or (both long enough) a plural/singular of it."""
    if stem == name:
        return True
    return min(len(stem), len(name)) >= GLUED_MIN_LETTERS and name in _variants(stem)


def glued_words(column: str, names: Iterable[str]) -> list[str]:
    """`split_name(column)`, with a glued `<table>id` split where it spells a table in `names`.

    `names` are glued, lower-case table names (`"paperkeyphrase"` for `paper_keyphrase`).
    Spider's `scholar` writes `writes.authorid`, `paper.venueid`: one word to `split_name`,
    so the `<table>Id` rules never see a table in it. Without a case change or underscore,
    the only evidence of a boundary is a table really named like the rest:
    - the whole name minus `id` spells a table (or, for names of at least GLUED_MIN_LETTERS
      letters, its plural/singular): `authorid` -> `[author, id]`, `userid` with a `users` table;
      English words ending in `id` (`paid`, `valid`, `void`, `rapid`) therefore split only if
      a table `pa`, `val`, `vo`, `rap` exists, and then the name means it as plainly as `pa_id`;
    - else its longest tail that spells a table of GLUED_MIN_LETTERS letters or more is a role
      prefix plus that table: `citingpaperid` -> `[citing, paper, id]`. The length keeps
      short table names from matching the end of English words (`prepaid`, `invalid`).
    Anything else is left as `split_name` reads it."""
    words = split_name(column)
    if len(words) != 1 or not words[0].endswith("id") or len(words[0]) < 3:
        return words
    stem, names = words[0][:-2], set(names)
    if any(_spells(stem, n) for n in names):
        return [stem, "id"]
    for start in range(1, len(stem) - GLUED_MIN_LETTERS + 1):
        tail = stem[start:]
        if any(_spells(tail, n) for n in names if len(n) >= GLUED_MIN_LETTERS):
            return [stem[:start], tail, "id"]
    return words


def short_key_name(table: str) -> str:
    """The short key benchmark schemas give `table`: the initials of its words + `id`.

    `author` -> `aid`, `department` -> `did`, `course_section` / `CourseSection` -> `csid`
    (Spider's `academic`, `imdb`, company schemas). Only the initials, not any prefix: a
    longer prefix would take English words for keys (`paid` for `payment`, `valid` for
    `value`), and a multi-word table's first letter alone would make the link table
    `domain_paper(did, pid)` look keyed by `did`, stealing `domain`'s key."""
    return "".join(w[0] for w in split_name(table)) + "id"


def _is_short_key(column: str, table: str) -> bool:
    # Compared like every name here, ignoring case and underscores: `aid`, `AId`, `a_id`.
    return bool(table) and "".join(split_name(column)) == short_key_name(table)


def key_column(info: TableInfo, table: str = "") -> str | None:
    """The column other tables point at: a unique `id`, else the single-column primary key,
    else a declared unique short key (`author.aid`, see `short_key_name`).

    A database that declares no keys (common in exported and benchmark databases) still
    names them: a column `id`, else one spelled `<table>Id` / `<table>_id` / `<table>id` (the
    table's name or, see `_spells`, its plural/singular: `authors.authorid`), else the short
    key, wherever it stands (Spider lists columns alphabetically: `paper(abstract, cid, pid)`).
    Column types and data are not looked at: the name spelling the table's own initials is
    the evidence, and a table rarely has a column so named that is not its key."""
    ids = [c for c in info.unique_columns if c.lower() == "id"]
    if ids or len(info.primary_key) == 1:
        return ids[0] if ids else info.primary_key[0]
    short = [c for c in info.unique_columns if _is_short_key(c, table)]
    if short or info.unique_columns or info.primary_key:
        # Declared keys that are not a single column: no guessing past them.
        return short[0] if short else None
    glued = "".join(split_name(table))

    def own(column: str) -> bool:
        name = "".join(split_name(column))
        return name == "id" or (name.endswith("id") and bool(glued) and _spells(name[:-2], glued))

    named = [c for c in info.columns if own(c)]
    named += [c for c in info.columns if _is_short_key(c, table)]
    return named[0] if named else None


def _same_style(table: str, column: str) -> bool:
    # Case never matters (fooId / FooId / foo_id all name `foo`), but `work_order_id` naming
    # the table `workOrder` mixes snake and camel case: a weaker, variant match.
    return len(split_name(table)) < 2 or ("_" in table) == ("_" in column)


def infer_relationships(
    tables: Mapping[str, TableInfo], existing: Iterable[Relationship] = ()
) -> list[Relationship]:
    """Relationships suggested by column names (type `inferred`), for undeclared foreign keys.

    Confidences, against the default path-finding threshold of 0.7:
    - 0.95: the column is spelled like another table's distinctive key (`Album.ArtistId` ->
      `Artist.ArtistId`): the schema author named both alike on purpose;
    - 0.9: `<table>Id` / `<table>_id` (any case) -> that table's key (`employeeId` -> `employee`);
      glued lower-case `<table>id` counts as `<table>Id` where `glued_words` finds the table
      (`writes.authorid` -> `author`, 0.95 when author's key is `authorid` too);
    - 0.75: the same through a plural/singular or snake/camel variant (`employeeId` ->
      `employees.id`), still used for joins; and a column spelled like another table's short
      key (`writes.aid` -> `author.aid`, see `short_key_name`): the schema author keyed the
      table by its initials and reused the name, as Spider-style benchmarks do, but three
      letters are less distinctive than `ArtistId` (`aid` may be financial aid), so it ranks
      with the variants; with two tables keyed `pid` it is ambiguous and the penalty takes it
      below the threshold (0.65), since nothing in `writes.pid` says which table it means;
    - 0.65 / 0.55: role-prefixed (`assignedEmployeeId` -> `employee.id`; weakest: a role on
      the tail of the column's own table name, `partCategory.parentCategoryId`, or a child
      table named after it, `customer.primaryContactId` -> `customerContact`). Usually right, but a
      table often has several role columns to the same target (created/assigned/approved by),
      and the path finder cannot know which one a question means (a glued one, Spider's
      `cite.citingpaperid`, only 0.55: where its role ends is a guess, `newspaperid` with no
      `newspaper` table would point at `paper`); a silently wrong join gives wrong numbers,
      a missing one gives a visible "no path". So they stay below the threshold
      (kept in the graph for review) until a manual override or a lower threshold admits them.
    Several equally good targets lose 0.1 each. Self-matches are skipped except role-prefixed
    ones (`parentWorkOrderId`), and a table's own short key never points at another table's
    (`paper.pid` and `person.pid` are namesakes, not parent and child); columns that already
    have an `existing` relationship, and pairs it already joins, are skipped.
    """
    existing = list(existing)
    covered = {(r.from_table, r.from_column) for r in existing}
    joined = {r.pair_key for r in existing}
    by_words: dict[str, list[str]] = {}  # "workorder" -> ["workOrder"]
    by_key: dict[str, list[str]] = {}  # "artistid" -> ["Artist"] for distinctive keys
    by_short_key: dict[str, list[str]] = {}  # "aid" -> ["author"]
    own_short_key: dict[str, str] = {}  # "author" -> "aid"
    keys = {name: key_column(info, name) for name, info in tables.items()}
    for name, key in keys.items():
        if key is not None:
            by_words.setdefault("".join(split_name(name)), []).append(name)

    def words_of(column: str) -> list[str]:  # `authorid` -> [author, id] when `author` exists
        return glued_words(column, by_words)

    for name, key in keys.items():
        if key is None:
            continue
        words = words_of(key)
        if _is_short_key(key, name):  # `a_id` too: short, not distinctive like `ArtistId`
            by_short_key.setdefault("".join(words), []).append(name)
            own_short_key[name] = key
        elif len(words) >= 2 and words[-1] == "id":
            by_key.setdefault("".join(words), []).append(name)

    def level_hits(source: str, column: str, stem: list[str], role: bool) -> dict[str, float]:
        exact, variant = (ROLE_EXACT, ROLE_VARIANT) if role else (NAME_EXACT, NAME_VARIANT)
        if role and len(split_name(column)) == 1:  # `citingpaperid`: the role's end is a guess
            exact = variant
        hits: dict[str, float] = {}
        for t in by_words.get("".join(stem), []):
            hits[t] = exact if _same_style(t, column) else variant
        for form in _variants(stem[-1]):
            for t in by_words.get("".join(stem[:-1]) + form, []):
                hits.setdefault(t, variant)
        if not role:
            hits.pop(source, None)  # only role-prefixed columns may point at their own table
        if not hits:  # weak hints, for review: child tables named after their parent ...
            src = split_name(source)
            hits = dict.fromkeys(by_words.get("".join(src + stem), []), ROLE_VARIANT)
            if role and src[-len(stem) :] == stem:  # ... and `partCategory.parentCategoryId`
                hits[source] = ROLE_VARIANT
        return hits

    found: list[Relationship] = []
    for source, info in tables.items():
        own_key = {key_column(info, source), *info.primary_key}
        for column in info.columns:
            words = words_of(column)
            names_a_table = len(words) >= 2 and words[-1] == "id"
            # Another table's short key (`writes.aid`), unless this column is this table's
            # own short key (`person.pid` is not `paper.pid`). Any other own key may point
            # (`writes(aid, pid)` keyed by both, the 1:1 extension `author_bio.aid`).
            short = [t for t in by_short_key.get("".join(words), []) if t != source]
            if own_short_key.get(source) == column:
                short = []
            if not (names_a_table or short) or (source, column) in covered:
                continue
            hits: dict[str, float] = {}
            if names_a_table:
                hits = level_hits(source, column, words[:-1], role=False)
            named = set(hits)
            for t in by_key.get("".join(words), []) if names_a_table else []:
                # A table's own key points elsewhere only to a table it names (1:1 extension:
                # `employee_detail.EmployeeID`), not to every table sharing its key's name.
                if t != source and (column not in own_key or t in named):
                    strong = key_column(tables[t], t).lower() == column.lower()  # type: ignore[union-attr]
                    hits[t] = max(hits.get(t, 0.0), PK_NAME_MATCH if strong else NAME_EXACT)
            for t in short:
                hits.setdefault(t, SHORT_KEY_MATCH)
            # Shorter stems are role prefixes; a table's own key never gets one (`workOrderId`
            # in `workOrder` does not point at `order`).
            for start in range(1, len(words) - 1):
                if hits or column in own_key or not names_a_table:
                    break
                hits = level_hits(source, column, words[start:-1], role=True)
            if not hits:
                continue
            best = max(hits.values())
            winners = sorted(t for t, conf in hits.items() if conf == best)
            # Several tables keyed `EmployeeID` (a 1:1 extension table too): the one whose
            # name the column also spells is meant.
            winners = [t for t in winners if t in named] or winners
            conf = best - AMBIGUITY_PENALTY if len(winners) > 1 else best
            for target in winners:
                to_column = key_column(tables[target], target)
                if to_column is None:  # a weak hint at a table with no key to point at
                    continue
                ends = (source, column, target, to_column)
                card = cardinality(tables, *ends)
                rel = Relationship(*ends, "inferred", round(conf, 4), card)
                if rel.pair_key not in joined:
                    joined.add(rel.pair_key)
                    found.append(rel)
    return _sorted(found)
