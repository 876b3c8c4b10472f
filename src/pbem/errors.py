"""Domain errors.  The CLI turns each into one line on stderr and exit 1."""

from __future__ import annotations


class PbemError(Exception):
    """A refused input or operation.  ``code`` is stable; tests assert on it.

    ``str(e)`` is the one-line reason; ``detail`` says more (which entry,
    which field, what was expected).
    """

    code = "error"

    def __init__(self, message: str, detail: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail
        if code:
            self.code = code


class ArmorError(PbemError):
    code = "bad-armor"


class SignatureError(PbemError):
    code = "bad-signature"


class KeyError_(PbemError):
    code = "bad-key"


class LedgerError(PbemError):
    code = "ledger"


class RefusedTurn(PbemError):
    code = "refused"


class VerifyError(PbemError):
    code = "verify-failed"
