"""What a turn writes and reports: the intake before the graph (guest, conversation, the
message stored redacted) and the turn's writes after it (`turns`), and what a turn reports
beyond its text to the API, the CLI and the phone view (`output`).
"""
