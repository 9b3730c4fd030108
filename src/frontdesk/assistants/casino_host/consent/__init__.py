"""Consent: the compliance keywords (STOP, HELP, START, YES and their Spanish and natural
forms), the replies they get without any model, and their writes in one transaction: the
consent record, the consent ledger's hash chain, the audit row and the queued reply.
"""
