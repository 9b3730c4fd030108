"""Casino host (seed 001): an SMS host swarm with a compliance gate, guest profile and offers.

Built in parts (issue 18); not registered as an assistant until its graph and service exist."""
