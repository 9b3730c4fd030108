"""The server's routes, one module per area: chat, health, assistants, conversations, tickets."""
