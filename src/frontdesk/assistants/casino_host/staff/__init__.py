"""The people behind the host (issue 33): who is told when a guest needs a person (alerts by
webhook and e-mail, up the escalation chain on the SLA's clock), and the staff page where a
host reads the escalation and answers the guest by SMS, through the gate."""
