"""Turning a repository into searchable chunks: which files (walker), what language
(languages), where the pieces are (chunker), what is defined and used where (symbols)."""
