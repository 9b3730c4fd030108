"""Errors whose messages are written for users and may be shown as they are."""


class FrontdeskError(Exception):
    """Base class: the message is safe and useful to show to a user."""


class UnknownAssistantError(FrontdeskError, KeyError):
    def __init__(self, name: str, known: list[str]):
        self.name = name
        self.known = known
        # Bounded: the name comes from a request or the command line.
        shown = name if len(name) <= 40 else name[:40] + "…"
        super().__init__(f"unknown assistant '{shown}'; known assistants: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]
