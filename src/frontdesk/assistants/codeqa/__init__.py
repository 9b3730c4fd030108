"""Code QA: questions about a code repository, answered from its own lines with citations."""
