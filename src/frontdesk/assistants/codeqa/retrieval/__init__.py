"""Finding the chunks that answer a question: code-aware BM25, dense search, fusion, filters."""
