"""The semantic file: what a person knows about their database that its schema does not say.

Table and column descriptions, joins to add or remove, tables to hide, and question-to-SQL
examples the SQL writer is shown as few-shot examples. YAML, read at every start and editable;
`frontdesk analyst describe` drafts one from the schema. See `model` for the format.
"""

from frontdesk.assistants.analyst.semantic.model import (
    Example,
    SemanticFile,
    SemanticFileError,
    SemanticLayer,
    load_semantic,
)

__all__ = ["Example", "SemanticFile", "SemanticFileError", "SemanticLayer", "load_semantic"]
