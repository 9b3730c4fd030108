"""The SMS channel: the providers' signed webhooks and their routes, the inbound pipeline
(`gateway`), the durable outbound queue and its eligibility gate, the senders with failover,
rate limits, delivery receipts, the `frontdesk sms` commands and the development phone
simulator with its page. It reaches the host only through the `HostTurn` port (`port`).
"""
